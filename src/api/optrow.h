/* The option table's rows (api/optrow.c), for the files that read them: the parsing of
 * values (api/optvalue.c), the whole set (api/options.c) and the checks of what is set
 * against the run (api/optcheck.c). Private to src/api. */
#ifndef FOLDSVG_API_OPTROW_H
#define FOLDSVG_API_OPTROW_H

#include <stddef.h>
#include <stdint.h>

#include "foldsvg.h"

typedef enum opt_type {
    T_FLAG,       /* int, set to 1 */
    T_STRING,     /* char *, a copy; CHECK may refuse the value */
    T_UINT,       /* a decimal in [UMIN, UMAX], stored as CTYPE */
    T_REAL,       /* a finite double above DMIN (F_MIN_INCLUSIVE: at least DMIN) */
    T_ENUM,       /* one of VALUES, stored as its index (int) */
    T_LIST,       /* fs_strlist, every value appended; CHECK may refuse one */
    T_SIZE,       /* SIZE[K|M|G] (binary units, as sort -S), at least 1K, size_t */
    T_COLOR,      /* #rrggbb, fs_rgb */
    T_PALETTE,    /* one of fs_palette_names, fs_palette */
    T_BACKGROUND, /* one of fs_background_names or #rrggbb, fs_background */
    T_THRESHOLD,  /* KEY=PCT, KEY one of VALUES, PCT in [DMIN, DMAX]: fs_thresholds */
    T_CLI         /* the command line's own: not stored, foldsvg_options_set refuses it */
} opt_type;

typedef enum c_type { C_UNSIGNED, C_SIZE, C_U64, C_LONG } c_type;

enum { F_MIN_INCLUSIVE = 1, F_PERCENT = 2 /* T_REAL: a '%' may end the value */ };

typedef enum opt_group {
    G_INPUT,
    G_OUTPUT,
    G_LAYOUT,
    G_COLORS,
    G_FILTERS,
    G_PROFILES,
    G_PERF,
    G_PPROF,
    G_DTRACE,
    G_MODULES,
    G_GHC,
    G_REPORTS,
    G_DIFF
} opt_group;

typedef foldsvg_status (*opt_check)(const char *name, const char *value, foldsvg_error *err);

typedef struct opt_row {
    const char *name;
    char short_name;
    uint8_t type, stage, group;
    uint8_t ctype, flags;
    size_t off, size; /* the field */
    size_t set_off;   /* + 1: an int set to 1 when the option is given; 0: none */
    uint64_t umin, umax;
    double dmin;
    const char *const *values;
    const char *default_value;
    const char *expected; /* the end of "invalid value 'V' for --NAME: expected ..." */
    opt_check check;
    const char *metavar, *help;
    double dmax;       /* T_REAL: at most this, when above dmin */
    unsigned writes;   /* does something only for these outputs (W_*); 0: by its stage */
    const char *needs; /* does something only when this other option is set too */
    const char *reads; /* the input formats it applies to, when not its group's */
    int key;           /* foldsvg_option; -1 for the command line's own (CLI_ID says which) */
    int cli_id;        /* fs_cli_option */
} opt_row;

/* What an option is about, when not its stage's: FS_WRITES_* bits, or W_ANY. */
enum { W_ANY = 0x100 };

/* The rows, in --help order, *N of them. */
const opt_row *fs_opt_rows(size_t *n);
/* The row of the long NAME, or NULL. */
const opt_row *fs_opt_find(const char *name);
/* Whether the row's option takes a value. */
int fs_opt_takes_value(const opt_row *r);
/* The input formats (fs_format.name, separated by spaces) the row's option applies to, when
 * it applies to some only (its own READS, else its group's); else NULL. */
const char *fs_opt_reads(const opt_row *r);

static inline void *fs_opt_field(foldsvg_options *o, const opt_row *r)
{
    return (char *)o + r->off;
}

static inline const void *fs_opt_cfield(const foldsvg_options *o, const opt_row *r)
{
    return (const char *)o + r->off;
}

/* Parses V by the row's type into its field, notes that it was given where the row says so
 * (api/optvalue.c). FOLDSVG_E_USAGE naming the option, FOLDSVG_E_NOMEM. */
foldsvg_status fs_opt_set_value(foldsvg_options *o, const opt_row *r, const char *v,
                                foldsvg_error *err);
/* The rows' own checks of a value. */
foldsvg_status fs_opt_check_id_prefix(const char *name, const char *v, foldsvg_error *err);
foldsvg_status fs_opt_check_pattern(const char *name, const char *v, foldsvg_error *err);
foldsvg_status fs_opt_check_thread(const char *name, const char *v, foldsvg_error *err);
foldsvg_status fs_opt_check_gate(const char *name, const char *v, foldsvg_error *err);

#endif
