/* The speedscope reader: speedscope's file format (https://www.speedscope.app/file-format-
 * schema.json), as py-spy, rbspy, dotnet-trace, Austin and speedscope itself export it.
 * shared.frames names the frames; each of profiles[] is evented (open and close events at
 * values: each stack weighs the time it was on top) or sampled (a stack of frame indexes and
 * a weight per sample). Read as a stream: evented profiles as their events come, a sampled
 * profile's samples and weights (separate arrays, in any key order) read again side by side
 * from where they lie (formats/json/reread.h). Memory follows the distinct stacks.
 *
 * Each profile is a thread, named by its name: --thread selects, --list-threads lists,
 * --flamechart draws one in its order. The unit is the profile's ("milliseconds",
 * "microseconds", "nanoseconds", "seconds", "bytes"; "none": samples). */
#ifndef FOLDSVG_FORMATS_SPEEDSCOPE_SPEEDSCOPE_H
#define FOLDSVG_FORMATS_SPEEDSCOPE_SPEEDSCOPE_H

#include <stddef.h>

#include "formats/reader.h"

int fs_speedscope_detect(const unsigned char *head, size_t len, int complete);
foldsvg_status fs_speedscope_read(fs_input *in, const fs_input_opts *opts, fs_sink *sink,
                                  foldsvg_error *err);
foldsvg_status fs_speedscope_list_threads(fs_input *in, const fs_input_opts *opts,
                                          foldsvg_thread_fn fn, void *user, foldsvg_error *err);

#endif
