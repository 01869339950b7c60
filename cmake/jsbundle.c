/* jsbundle: joins the browser scripts of src/render/assets/js/ into one and strips them for
 * embedding. The build runs it (CMakeLists.txt), so that the build needs no JavaScript tool.
 *
 *     jsbundle [-D NAME]... MAIN.js OUT.js
 *
 * Joining. A line holding only  //#include "FILE"  is replaced by FILE, named relative to the
 * file holding the line. Each file is whole statements: its brackets, strings, comments,
 * regular expressions and template literals all close in it. The lines between  //#if NAME
 * and  //#endif  are kept only when NAME was given with -D; they too hold whole statements
 * (or whole properties of an object literal).
 *
 * Stripping. The sources are read as JavaScript tokens (strings, template literals, regular
 * expressions, comments, names, numbers, punctuators): the comments go, white space stays
 * only where two tokens would otherwise read as one, and a line end only where automatic
 * semicolon insertion may depend on it (none is kept after ; { , ( [ nor before ) ] }).
 * Whether a slash starts a regular expression or divides is decided from the token before
 * it, as a parser does (after the ")" of if, for, while and with it starts one); a slash
 * where that is not clear (after "}", "++" or "--") is an error.
 *
 * Errors, each naming the file and line, fail the build: anything left open, brackets that do
 * not match, text outside strings and comments that is not ASCII, a NUL byte, an unknown or
 * misplaced //# line, and an output holding text that would end its CDATA section or
 * <script> element early ("]]>", "</script") or start an HTML-like comment ("<!--", "-->"). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_NONE, T_VALUE, T_NUMBER, T_KEYWORD, T_PUNCT };

typedef struct {
    char *data;
    size_t len, cap;
} buf;

/* one source file being read */
typedef struct {
    const char *path;
    const char *s;
    size_t n, i;
    int line;
    int linestart;       /* only white space since the last line end */
    int prev;            /* the kind of the last token (T_*) */
    char prevc, prev2c;  /* T_PUNCT: its character, and the one right before it, if any */
    int ctl;             /* the last token is "if", "while", "for" or "with" */
    char stack[512];     /* open brackets; '`': a template literal's ${ */
    char stack_ctl[512]; /* a "(" after ctl: after its ")" a statement starts */
    int stack_line[512];
    int depth;
    struct {
        int depth, line; /* the bracket depth and line at the //#if */
        int prev;        /* the last token before it, when its lines are left out */
        char prevc, prev2c;
    } ifs[32]; /* the open //#if lines */
    int nifs;
    int skipping; /* in the lines of a //#if left out: its place in IFS, plus one */
} src;

static buf out;
static int gap, gap_nl; /* white space or a comment (with a line end) since the last token */
static int last_number; /* the last token written was a number */
static const char *defs[32];
static int ndefs;
static int nesting;

static void fail(const src *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (f)
        fprintf(stderr, "%s:%d: ", f->path, f->line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void put(const char *s, size_t n)
{
    if (out.len + n + 1 > out.cap) {
        size_t cap = out.cap ? out.cap : 4096;
        while (out.len + n + 1 > cap)
            cap *= 2;
        char *d = realloc(out.data, cap);
        if (!d)
            fail(NULL, "jsbundle: out of memory");
        out.data = d;
        out.cap = cap;
    }
    memcpy(out.data + out.len, s, n);
    out.len += n;
    out.data[out.len] = '\0';
}

static int name_char(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

/* Whether punctuator A followed by B reads as another token ("+" "+" as "++"; "/" "/" as a
 * comment; "<" "!" may start "<!--", "-" ">" end "-->"). */
static int merges(char a, char b)
{
    static const char pairs[] = "++--<<>>&&||???.=>**<!->..///**/";
    if (b == '=' && strchr("+-*/%&|^=!<>?", a))
        return 1;
    for (size_t k = 0; pairs[k]; k += 2)
        if (pairs[k] == a && pairs[k + 1] == b)
            return 1;
    return 0;
}

/* Writes the token S[0..N) after what the gap before it needs: a line end where automatic
 * semicolon insertion may depend on it, a space where the two tokens would read as one. */
static void emit(const char *s, size_t n, int number)
{
    if (out.len && gap) {
        char a = out.data[out.len - 1], b = s[0];
        if (gap_nl && !strchr(";{,([", a) && !strchr(")]}", b))
            put("\n", 1);
        else if ((name_char(a) && name_char(b)) || (last_number && b == '.') || merges(a, b) ||
                 (a == ']' && b == '>'))
            put(" ", 1);
    }
    put(s, n);
    gap = gap_nl = 0;
    last_number = number;
}

static int defined(const char *name, size_t n)
{
    for (int k = 0; k < ndefs; k++)
        if (strlen(defs[k]) == n && memcmp(defs[k], name, n) == 0)
            return 1;
    return 0;
}

static void bundle(const char *path);

/* A //# line: the text after "//#" is D[0..N) (the line end excluded). */
static void directive(src *f, const char *d, size_t n)
{
    while (n && (d[n - 1] == ' ' || d[n - 1] == '\t' || d[n - 1] == '\r'))
        n--;
    if (n > 8 && memcmp(d, "include ", 8) == 0) {
        const char *q = d + 8;
        size_t m = n - 8;
        if (m < 3 || q[0] != '"' || q[m - 1] != '"' || memchr(q + 1, '"', m - 2))
            fail(f, "//#include takes one \"FILE\"");
        const char *slash = strrchr(f->path, '/');
        size_t dirlen = slash ? (size_t)(slash - f->path) + 1 : 0;
        char *path = malloc(dirlen + m);
        if (!path)
            fail(NULL, "jsbundle: out of memory");
        memcpy(path, f->path, dirlen);
        memcpy(path + dirlen, q + 1, m - 2);
        path[dirlen + m - 2] = '\0';
        if (!f->skipping) {
            gap = gap_nl = 1;
            bundle(path);
            gap = gap_nl = 1;
            f->prev = T_PUNCT; /* a statement ends there: a slash would start a regex */
            f->prevc = ';';
            f->prev2c = 0;
        }
        free(path);
    } else if (n > 3 && memcmp(d, "if ", 3) == 0) {
        const char *name = d + 3;
        size_t m = n - 3;
        for (size_t k = 0; k < m; k++)
            if (!name_char((unsigned char)name[k]))
                fail(f, "//#if takes one NAME");
        if (f->nifs == (int)(sizeof f->ifs / sizeof f->ifs[0]))
            fail(f, "//#if nested too deep");
        /* lines left out are read all the same (not their includes), so that both builds
         * check every line */
        f->ifs[f->nifs].depth = f->depth;
        f->ifs[f->nifs].line = f->line;
        f->ifs[f->nifs].prev = f->prev;
        f->ifs[f->nifs].prevc = f->prevc;
        f->ifs[f->nifs].prev2c = f->prev2c;
        f->nifs++;
        if (!f->skipping && !defined(name, m))
            f->skipping = f->nifs;
    } else if (n == 5 && memcmp(d, "endif", 5) == 0) {
        if (f->nifs == 0)
            fail(f, "//#endif without //#if");
        f->nifs--;
        if (f->ifs[f->nifs].depth != f->depth)
            fail(f, "the lines of //#if ... //#endif are not whole statements (brackets left "
                    "open or closed)");
        if (f->skipping == f->nifs + 1) {
            f->skipping = 0;
            f->prev = f->ifs[f->nifs].prev;
            f->prevc = f->ifs[f->nifs].prevc;
            f->prev2c = f->ifs[f->nifs].prev2c;
        }
    } else {
        fail(f, "unknown directive //#%.*s (//#include \"FILE\", //#if NAME, //#endif)", (int)n, d);
    }
}

static int is_keyword(const char *s, size_t n)
{
    /* the names after which a slash starts a regular expression */
    static const char *const kw[] = {"return", "typeof", "instanceof", "in",    "of",
                                     "new",    "delete", "void",       "throw", "case",
                                     "do",     "else",   "yield",      "await"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (strlen(kw[k]) == n && memcmp(kw[k], s, n) == 0)
            return 1;
    return 0;
}

static void token(src *f, size_t start, int kind)
{
    if (!f->skipping)
        emit(f->s + start, f->i - start, kind == T_NUMBER);
    f->prev2c = kind == T_PUNCT && f->prev == T_PUNCT && start > 0 && f->s[start - 1] == f->prevc
                    ? f->prevc
                    : 0;
    f->prev = kind;
    f->prevc = kind == T_PUNCT ? f->s[start] : 0;
    f->linestart = 0;
    f->ctl = 0;
}

/* A template literal's text from F->i (just past its ` or }) to its closing ` or its next
 * ${; START is where the token began. */
static void template_text(src *f, size_t start)
{
    int line = f->line;
    for (;;) {
        if (f->i >= f->n) {
            f->line = line;
            fail(f, "unterminated template literal");
        }
        char c = f->s[f->i++];
        if (c == '\n') {
            f->line++;
        } else if (c == '\\') {
            if (f->i < f->n && f->s[f->i] == '\n')
                f->line++;
            f->i++;
        } else if (c == '`') {
            token(f, start, T_VALUE);
            return;
        } else if (c == '$' && f->i < f->n && f->s[f->i] == '{') {
            f->i++;
            if (f->depth == (int)sizeof f->stack)
                fail(f, "brackets nested too deep");
            f->stack_line[f->depth] = f->line;
            f->stack[f->depth++] = '`';
            token(f, start, T_PUNCT); /* an expression starts: as after "{" */
            f->prevc = '{';
            return;
        }
    }
}

static void regex(src *f, size_t start)
{
    int cls = 0;
    f->i++;
    for (;;) {
        if (f->i >= f->n || f->s[f->i] == '\n')
            fail(f, "unterminated regular expression");
        char c = f->s[f->i++];
        if (c == '\\') {
            if (f->i >= f->n || f->s[f->i] == '\n')
                fail(f, "unterminated regular expression");
            f->i++;
        } else if (c == '[') {
            cls = 1;
        } else if (c == ']') {
            cls = 0;
        } else if (c == '/' && !cls) {
            break;
        }
    }
    while (f->i < f->n && name_char((unsigned char)f->s[f->i]))
        f->i++;
    token(f, start, T_VALUE);
}

static int regex_may_start(const src *f)
{
    switch (f->prev) {
    case T_VALUE:
    case T_NUMBER:
        return 0;
    case T_PUNCT:
        if (f->prevc == ')' || f->prevc == ']')
            return 0;
        if (f->prevc == '}' || ((f->prevc == '+' || f->prevc == '-') && f->prev2c == f->prevc))
            fail(f,
                 "a slash after \"%s\" may divide or start a regular expression: put "
                 "parentheses around one of them",
                 f->prevc == '}'   ? "}"
                 : f->prevc == '+' ? "++"
                                   : "--");
        return 1;
    default:
        return 1;
    }
}

static void lex(src *f)
{
    const char *s = f->s;
    while (f->i < f->n) {
        size_t start = f->i;
        unsigned char c = (unsigned char)s[f->i];
        if (c == '\n') {
            gap = gap_nl = 1;
            f->line++;
            f->i++;
            f->linestart = 1;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            gap = 1;
            f->i++;
        } else if (c == '/' && f->i + 1 < f->n && s[f->i + 1] == '/') {
            size_t e = f->i;
            while (e < f->n && s[e] != '\n')
                e++;
            if (e - f->i > 2 && s[f->i + 2] == '#') {
                if (!f->linestart)
                    fail(f, "a //# line must be alone on its line");
                f->i = e;
                directive(f, s + start + 3, e - start - 3);
            } else {
                f->i = e;
            }
            gap = 1;
        } else if (c == '/' && f->i + 1 < f->n && s[f->i + 1] == '*') {
            int line = f->line;
            const char *end = NULL;
            for (size_t k = f->i + 2; k + 1 < f->n; k++) {
                if (s[k] == '\n')
                    f->line++;
                if (s[k] == '*' && s[k + 1] == '/') {
                    end = s + k + 2;
                    break;
                }
            }
            if (!end) {
                f->line = line;
                fail(f, "unterminated comment");
            }
            if (f->line != line)
                gap_nl = 1; /* a comment over lines ends a line, for semicolon insertion */
            gap = 1;
            f->i = (size_t)(end - s);
        } else if (c == '"' || c == '\'') {
            f->i++;
            for (;;) {
                if (f->i >= f->n || s[f->i] == '\n')
                    fail(f, "unterminated string");
                char d = s[f->i++];
                if (d == '\\') {
                    if (f->i < f->n && s[f->i] == '\n')
                        f->line++; /* a line continuation */
                    f->i++;
                } else if (d == (char)c) {
                    break;
                }
            }
            token(f, start, T_VALUE);
        } else if (c == '`') {
            f->i++;
            template_text(f, start);
        } else if (c == '/' && regex_may_start(f)) {
            regex(f, start);
        } else if (isdigit(c) ||
                   (c == '.' && f->i + 1 < f->n && isdigit((unsigned char)s[f->i + 1]))) {
            int hex = c == '0' && f->i + 1 < f->n && strchr("xXbBoO", s[f->i + 1]);
            f->i++;
            while (f->i < f->n) {
                char d = s[f->i];
                if (name_char((unsigned char)d) || d == '.') {
                    f->i++;
                } else if ((d == '+' || d == '-') && !hex && strchr("eE", s[f->i - 1])) {
                    f->i++;
                } else {
                    break;
                }
            }
            token(f, start, T_NUMBER);
        } else if (name_char(c)) {
            while (f->i < f->n && name_char((unsigned char)s[f->i]))
                f->i++;
            size_t n = f->i - start;
            token(f, start, is_keyword(s + start, n) ? T_KEYWORD : T_VALUE);
            f->ctl = (n == 2 && memcmp(s + start, "if", 2) == 0) ||
                     (n == 3 && memcmp(s + start, "for", 3) == 0) ||
                     (n == 4 && memcmp(s + start, "with", 4) == 0) ||
                     (n == 5 && memcmp(s + start, "while", 5) == 0);
        } else if (c == '(' || c == '[' || c == '{') {
            if (f->depth == (int)sizeof f->stack)
                fail(f, "brackets nested too deep");
            f->stack_line[f->depth] = f->line;
            f->stack_ctl[f->depth] = (char)(c == '(' && f->ctl);
            f->stack[f->depth++] = (char)c;
            f->i++;
            token(f, start, T_PUNCT);
        } else if (c == ')' || c == ']' || c == '}') {
            char want = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (f->depth == 0)
                fail(f, "\"%c\" closes nothing", c);
            char open = f->stack[--f->depth];
            f->i++;
            if (open == '`' && c == '}') {
                template_text(f, start);
            } else if (open != want) {
                fail(f, "\"%c\" does not close the \"%c\" of line %d", c, open == '`' ? '{' : open,
                     f->stack_line[f->depth]);
            } else {
                token(f, start, T_PUNCT);
                if (f->stack_ctl[f->depth])
                    f->prev = T_KEYWORD; /* if (...) /re/: a statement starts */
            }
        } else if (c < 0x80 && c > 0x20 && c != '\\' && c != '#' && c != '@' && c != 0x7f) {
            f->i++;
            token(f, start, T_PUNCT);
        } else {
            fail(f, "byte 0x%02x outside strings and comments (only ASCII code there)", c);
        }
    }
    if (f->nifs > 0) {
        f->line = f->ifs[f->nifs - 1].line;
        fail(f, "//#if without //#endif");
    }
    if (f->depth > 0) {
        f->line = f->stack_line[f->depth - 1];
        fail(f, "this \"%c\" is not closed in this file",
             f->stack[f->depth - 1] == '`' ? '{' : f->stack[f->depth - 1]);
    }
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "%s: cannot open\n", path);
        exit(1);
    }
    buf b = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        char *d = realloc(b.data, b.len + got + 1);
        if (!d)
            fail(NULL, "jsbundle: out of memory");
        b.data = d;
        memcpy(b.data + b.len, chunk, got);
        b.len += got;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        fprintf(stderr, "%s: read failed\n", path);
        exit(1);
    }
    if (!b.data && !(b.data = malloc(1)))
        fail(NULL, "jsbundle: out of memory");
    b.data[b.len] = '\0';
    *len = b.len;
    return b.data;
}

static void bundle(const char *path)
{
    if (++nesting > 16)
        fail(NULL, "%s: //#include nested more than 16 deep (an include loop?)", path);
    src f;
    memset(&f, 0, sizeof f);
    f.path = path;
    f.line = 1;
    f.linestart = 1;
    char *text = slurp(path, &f.n);
    f.s = text;
    if (memchr(text, '\0', f.n))
        fail(NULL, "%s: holds a NUL byte", path);
    lex(&f);
    free(text);
    nesting--;
}

static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)p[k]) == needle[k])
            k++;
        if (k == n)
            return p;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int a = 1;
    while (a + 1 < argc && strcmp(argv[a], "-D") == 0) {
        if (ndefs == (int)(sizeof defs / sizeof defs[0]))
            fail(NULL, "jsbundle: too many -D");
        defs[ndefs++] = argv[a + 1];
        a += 2;
    }
    if (argc - a != 2) {
        fprintf(stderr, "usage: jsbundle [-D NAME]... MAIN.js OUT.js\n");
        return 2;
    }
    const char *outpath = argv[a + 1];
    bundle(argv[a]);
    put("\n", 1);
    static const char *const bad[] = {"]]>", "</script", "<!--", "-->"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (find_ci(out.data, bad[k]))
            fail(NULL,
                 "%s: the script would hold \"%s\" (it must not end its CDATA section or "
                 "<script> element, nor start an HTML comment): write it otherwise",
                 argv[a], bad[k]);
    FILE *fp = fopen(outpath, "wb");
    if (!fp || fwrite(out.data, 1, out.len, fp) != out.len || fclose(fp) != 0) {
        fprintf(stderr, "%s: cannot write\n", outpath);
        remove(outpath);
        return 1;
    }
    free(out.data);
    return 0;
}
