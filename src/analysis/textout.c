#include "analysis/textout.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "util/utf8.h"

static void failed(fs_textout *o)
{
    o->failed = 1;
    o->errnum = errno;
}

void fs_text_put(fs_textout *o, const char *s, size_t n)
{
    if (!o->failed && n && fwrite(s, 1, n, o->f) != n)
        failed(o);
}

void fs_text_puts(fs_textout *o, const char *s)
{
    fs_text_put(o, s, strlen(s));
}

void fs_text_printf(fs_textout *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!o->failed && vfprintf(o->f, fmt, ap) < 0)
        failed(o);
    va_end(ap);
}

foldsvg_status fs_text_finish(fs_textout *o, foldsvg_error *err)
{
    if (!o->failed && fflush(o->f) != 0)
        failed(o);
    if (o->failed)
        return fs_error(err, FOLDSVG_E_IO, NULL, "write failed: %s",
                        strerror(o->errnum ? o->errnum : EIO));
    return FOLDSVG_OK;
}

/* GitHub splits table cells before it parses spans, hence the escaped '|'. */
static void md_code(fs_textout *o, const char *s, size_t n, int cell);

void fs_text_md_code(fs_textout *o, const char *s, size_t n)
{
    md_code(o, s, n, 1);
}

void fs_text_md_code_inline(fs_textout *o, const char *s, size_t n)
{
    md_code(o, s, n, 0);
}

static void md_code(fs_textout *o, const char *s, size_t n, int cell)
{
    if (n == 0)
        return;
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    int pad = s[0] == '`' || s[n - 1] == '`' || s[0] == ' ' || s[n - 1] == ' ';
    for (size_t i = 0; i <= longest; i++)
        fs_text_puts(o, "`");
    if (pad)
        fs_text_puts(o, " ");
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (cell && s[i] == '|') {
            fs_text_put(o, s + from, i - from);
            fs_text_puts(o, "\\|");
            from = i + 1;
        }
    }
    fs_text_put(o, s + from, n - from);
    if (pad)
        fs_text_puts(o, " ");
    for (size_t i = 0; i <= longest; i++)
        fs_text_puts(o, "`");
}

foldsvg_status fs_text_elide(const char *s, size_t n, size_t max, fs_buf *out)
{
    if (!max || n <= max || max < 8)
        return fs_buf_append(out, s, n) == 0 ? FOLDSVG_OK : FOLDSVG_E_NOMEM;
    size_t head = (max - 1) / 2, from = n - (max - 1 - head);
    while (head > 0 && ((unsigned char)s[head] & 0xC0) == 0x80)
        head--;
    while (from < n && ((unsigned char)s[from] & 0xC0) == 0x80)
        from++;
    fs_buf_append(out, s, head);
    fs_buf_append(out, "\u2026", strlen("\u2026"));
    fs_buf_append(out, s + from, n - from);
    return fs_buf_status(out);
}

static void json_print(void *ctx, const char *s, size_t n)
{
    fs_text_put(ctx, s, n);
}

foldsvg_status fs_json_begin(fs_jsonout *j, fs_textout *o)
{
    memset(j, 0, sizeof *j);
    j->g = yajl_gen_alloc(NULL);
    if (!j->g)
        return FOLDSVG_E_NOMEM;
    yajl_gen_config(j->g, yajl_gen_beautify, 1);
    yajl_gen_config(j->g, yajl_gen_indent_string, "  ");
    yajl_gen_config(j->g, yajl_gen_print_callback, json_print, o);
    return FOLDSVG_OK;
}

foldsvg_status fs_json_end(fs_jsonout *j)
{
    fs_buf_free(&j->scratch);
    yajl_gen_free(j->g);
    j->g = NULL;
    return j->failed ? FOLDSVG_E_NOMEM : FOLDSVG_OK;
}

void fs_json_check(fs_jsonout *j, yajl_gen_status st)
{
    if (st != yajl_gen_status_ok)
        j->failed = 1;
}

void fs_json_str(fs_jsonout *j, const char *s, size_t n)
{
    fs_json_check(j, yajl_gen_string(j->g, (const unsigned char *)s, n));
}

void fs_json_key(fs_jsonout *j, const char *k)
{
    fs_json_str(j, k, strlen(k));
}

void fs_json_num(fs_jsonout *j, const char *num, size_t n)
{
    fs_json_check(j, yajl_gen_number(j->g, num, n));
}

void fs_json_u64(fs_jsonout *j, uint64_t v)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%llu", (unsigned long long)v);
    fs_json_num(j, num, (size_t)n);
}

void fs_json_real(fs_jsonout *j, double v)
{
    char num[64];
    int len = snprintf(num, sizeof num, "%.4f", v);
    while (len > 1 && num[len - 1] == '0')
        len--;
    if (num[len - 1] == '.')
        len--;
    if (len == 2 && strncmp(num, "-0", 2) == 0) /* a tiny negative rounds to 0 */
        fs_json_num(j, "0", 1);
    else
        fs_json_num(j, num, (size_t)len);
}

void fs_json_name(fs_jsonout *j, const char *s, size_t n)
{
    fs_buf_clear(&j->scratch);
    if (fs_utf8_clean(&j->scratch, s, n, NULL) != FOLDSVG_OK)
        j->failed = 1;
    else
        fs_json_str(j, fs_buf_str(&j->scratch), j->scratch.len);
}
