/* Second reads of JSON arrays (the JSON layer, with formats/json/json.h). Arrays a reader must pair
 * with others that come later in any key order are not kept in memory: where one lies is
 * noted (a region) and it is read again, element by element, with a cursor: from the input
 * opened again (a regular file or memory), or from a temporary file holding the array's raw
 * text when the input cannot be read twice (standard input, a pipe: then disk, not memory,
 * grows with the array). A cursor holds at most the values of one fed block. */
#ifndef FOLDSVG_FORMATS_JSON_REREAD_H
#define FOLDSVG_FORMATS_JSON_REREAD_H

#include <stdint.h>
#include <stdio.h>

#include "foldsvg.h"
#include "formats/json/json.h"
#include "input/input.h"

/* Where an array of the text lies: its decoded offset, or, when the input cannot be read
 * twice, a temporary file holding its raw text. */
typedef struct fs_json_region {
    int present;
    uint64_t off; /* of its '[' */
    FILE *spool;
} fs_json_region;

/* Forgets the region (closing its spool). */
void fs_json_region_reset(fs_json_region *r);
/* The array whose '[' J just parsed begins. When it may really be read again (SPOOL) and the
 * input cannot be read twice (!CAN_REREAD), its raw text goes to a temporary file. Failures
 * are recorded in J (fs_json_fail). */
foldsvg_status fs_json_region_begin(fs_json *j, fs_json_region *r, int spool, int can_reread);
/* The array ended (J just parsed its ']'). */
foldsvg_status fs_json_region_end(fs_json *j, fs_json_region *r);

/* The second reader of a parse: the main input (opened again on demand; BASE is its decoded
 * offset when the parse began) or a sub-text TEXT[0..len). */
typedef struct fs_json_reread fs_json_reread;
fs_json_reread *fs_json_reread_new(fs_input *in, uint64_t base, const char *text, size_t len);
void fs_json_reread_free(fs_json_reread *r);

/* Reads the array at REG again, element by element (ROWS: the elements are rows, whose cells
 * are returned, each row followed by an FS_JSON_ROWEND value). Containers come as
 * FS_JSON_OTHER; strings as FS_JSON_STR without their text. */
typedef struct fs_json_cursor fs_json_cursor;
foldsvg_status fs_json_cursor_open(fs_json_cursor **out, fs_json_reread *rr,
                                   const fs_json_region *reg, int rows, const char *file,
                                   foldsvg_error *err);
/* The next value: *GOT 1 and *OUT, or *GOT 0 after the last one. */
foldsvg_status fs_json_cursor_next(fs_json_cursor *c, fs_json_value *out, int *got,
                                   foldsvg_error *err);
void fs_json_cursor_close(fs_json_cursor *c);

#endif
