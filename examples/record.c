/* Recording cycles against call stacks from a program, as a zkVM debugger does, and
 * writing a flamegraph: build with
 *   cc record.c $(pkg-config --cflags --libs foldsvg) -o record
 * and run `./record out.svg` (or out.folded for folded text). */
#include <foldsvg.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : "record.svg";
    foldsvg_profile *p = foldsvg_profile_new();
    if (!p)
        return 1;
    /* Root first. Names are sanitized: ';' would split a folded path, so it becomes ':'. */
    const char *verify[] = {"main", "verify_block", "keccak256"};
    const char *parse[] = {"main", "parse_tx", "Vec<[u8; 32]>::decode"};
    const char *idle[] = {"main"};
    foldsvg_status st = FOLDSVG_OK;
    for (int i = 0; i < 100 && st == FOLDSVG_OK; i++) {
        st = foldsvg_profile_record_stack(p, verify, 3, 1200);
        if (st == FOLDSVG_OK)
            st = foldsvg_profile_record_stack(p, parse, 3, 300 + (uint64_t)i);
        if (st == FOLDSVG_OK)
            st = foldsvg_profile_record_stack(p, idle, 1, 0); /* zero cycles: ignored */
    }
    if (st != FOLDSVG_OK) {
        fprintf(stderr, "record: %s\n", foldsvg_status_name(st));
        foldsvg_profile_free(p);
        return 1;
    }
    foldsvg_error err;
    st = foldsvg_profile_write(p, out, NULL, &err);
    if (st != FOLDSVG_OK) {
        char line[1024];
        foldsvg_error_format(&err, line, sizeof line);
        fprintf(stderr, "record: %s\n", line);
        foldsvg_profile_free(p);
        return 1;
    }
    printf("%llu cycles in %zu stacks -> %s\n", (unsigned long long)foldsvg_profile_total(p),
           foldsvg_profile_unique_stacks(p), out);
    foldsvg_profile_free(p);
    return 0;
}
