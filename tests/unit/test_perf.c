/* The perf script reader against the rules inferno-collapse-perf 0.12 follows (the
 * reference cases of tests/data/compat-perf show them; where they are silent, the comment
 * says what was inferred), and the records perf writes in the wild. */
#include <stdlib.h>
#include <string.h>

#include "formats/perf/line.h"
#include "formats/perf/name.h"
#include "formats/perf/perf.h"
#include "input/input.h"
#include "testutil.h"

/* A sink that folds like inferno prints: frames joined by ';' (a ';' inside a name
 * written ':', as the real sink sanitizes), equal stacks summed, lines in byte order. */
typedef struct fold_sink {
    fs_sink sink;
    char **stacks;
    uint64_t *counts;
    size_t n;
    char unit[64];
    int units;
} fold_sink;

static foldsvg_status on_stack(fs_sink *self, const fs_strref *frames, size_t n, uint64_t count,
                               foldsvg_error *err)
{
    (void)err;
    fold_sink *s = (fold_sink *)(void *)self;
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += frames[i].len + 1;
    char *st = malloc(len + 1), *p = st;
    for (size_t i = 0; i < n; i++) {
        if (i)
            *p++ = ';';
        for (size_t j = 0; j < frames[i].len; j++)
            *p++ = frames[i].ptr[j] == ';' ? ':' : frames[i].ptr[j];
    }
    *p = '\0';
    for (size_t i = 0; i < s->n; i++) {
        if (strcmp(s->stacks[i], st) == 0) {
            s->counts[i] += count;
            free(st);
            return FOLDSVG_OK;
        }
    }
    s->stacks = realloc(s->stacks, (s->n + 1) * sizeof *s->stacks);
    s->counts = realloc(s->counts, (s->n + 1) * sizeof *s->counts);
    s->stacks[s->n] = st;
    s->counts[s->n++] = count;
    return FOLDSVG_OK;
}

static void on_unit(fs_sink *self, const char *name)
{
    fold_sink *s = (fold_sink *)(void *)self;
    snprintf(s->unit, sizeof s->unit, "%s", name);
    s->units++;
}

typedef struct warnings {
    int n;
    foldsvg_error last;
} warnings;

static warnings *sink_warnings; /* where on_warn counts: R.warn */

static void on_warn(fs_sink *self, const foldsvg_error *w)
{
    (void)self;
    warnings *ws = sink_warnings;
    ws->n++;
    ws->last = *w;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct result {
    foldsvg_status st;
    char folded[8192];
    char unit[64];
    int units;
    warnings warn;
    foldsvg_error err;
} result;

static result R;

/* Reads TEXT with PO (NULL: defaults) into R. */
static const char *collapse_with(const char *text, fs_perf_opts *po)
{
    fs_perf_opts defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!po)
        po = &defaults;
    memset(&R, 0, sizeof R);
    sink_warnings = &R.warn;
    fold_sink s;
    memset(&s, 0, sizeof s);
    s.sink.stack = on_stack;
    s.sink.count_name = on_unit;
    s.sink.warn = on_warn;
    fs_input *in;
    ck_assert_int_eq(fs_input_open_mem(&in, text, strlen(text), "t.perf", &R.err), FOLDSVG_OK);
    R.st = fs_perf_read(in, po, &s.sink, &R.err);
    fs_input_close(in);
    /* sort the stacks, keeping their counts */
    char **lines = malloc((s.n + 1) * sizeof *lines);
    for (size_t i = 0; i < s.n; i++) {
        size_t l = strlen(s.stacks[i]) + 24;
        lines[i] = malloc(l);
        snprintf(lines[i], l, "%s %llu", s.stacks[i], (unsigned long long)s.counts[i]);
    }
    qsort(lines, s.n, sizeof *lines, by_bytes);
    size_t off = 0;
    for (size_t i = 0; i < s.n; i++) {
        off += (size_t)snprintf(R.folded + off, sizeof R.folded - off, "%s\n", lines[i]);
        free(lines[i]);
        free(s.stacks[i]);
    }
    free(lines);
    free(s.stacks);
    free(s.counts);
    snprintf(R.unit, sizeof R.unit, "%s", s.unit);
    R.units = s.units;
    return R.folded;
}

static const char *collapse(const char *text)
{
    return collapse_with(text, NULL);
}

static const char DD[] = "dd 29776 666709.771979:   10101010 cpu-clock: \n"
                         "\t          414b3b fsnotify (/lib/modules/4.1.0-virtual/build/vmlinux)\n"
                         "\t           e5f70 read (/lib/x86_64-linux-gnu/libc-2.15.so)\n"
                         "\t               0 [unknown] ([unknown])\n"
                         "\n"
                         "dd 29776 666709.782078:   10101010 cpu-clock: \n"
                         "\t           e5f70 read (/lib/x86_64-linux-gnu/libc-2.15.so)\n"
                         "\t               0 [unknown] ([unknown])";

START_TEST(missing_blank_line_at_the_end)
{
    /* no blank line and no newline after the last frame: the end of the input ends it */
    ck_assert_str_eq(collapse(DD), "dd;[unknown];read 10101010\n"
                                   "dd;[unknown];read;fsnotify 10101010\n");
    ck_assert_int_eq(R.st, FOLDSVG_OK);
    ck_assert_int_eq(R.warn.n, 0);
    /* periods are weights: the unit is the event's name */
    ck_assert_str_eq(R.unit, "cpu-clock");
    ck_assert_int_eq(R.units, 1);
    /* CRLF line ends read the same */
    char crlf[sizeof DD * 2], *p = crlf;
    for (const char *s = DD; *s; s++) {
        if (*s == '\n')
            *p++ = '\r';
        *p++ = *s;
    }
    *p = '\0';
    ck_assert_str_eq(collapse(crlf), "dd;[unknown];read 10101010\n"
                                     "dd;[unknown];read;fsnotify 10101010\n");
}
END_TEST

START_TEST(truncated_records)
{
    /* cut inside a frame line: that line is a warning naming it, the frames before stay */
    const char *cut = "java  3244 cpu-clock: \n"
                      "\t    7f1e214c24d9 SpinPause (/usr/lib/jvm/libjvm.so)\n"
                      "\t    7f1e2162ad6f StealTask::do_it(GCTa";
    ck_assert_str_eq(collapse(cut), "java;SpinPause 1\n");
    ck_assert_int_eq(R.warn.n, 1);
    ck_assert_uint_eq(R.warn.last.line, 3);
    ck_assert_ptr_nonnull(strstr(R.warn.last.message, "1 malformed line"));
    ck_assert_str_eq(R.unit, "samples");
    /* cut inside the header: a record without frames, dropped (inferno drops those) */
    ck_assert_str_eq(collapse("java  3244 cpu-clock: \n\tabc f (m)\n\njava  3245 cpu-cl"),
                     "java;f 1\n");
    ck_assert_int_eq(R.warn.n, 0);
    /* a record whose blank line is lost ends at the next header; inferno would read the
     * header as a malformed frame and merge the two (a deliberate difference) */
    ck_assert_str_eq(collapse("a 1 [000] 1.0: cycles: \n\t1 f (m)\n"
                              "b 2 [000] 2.0: cycles: \n\t2 g (m)\n"),
                     "a;f 1\nb;g 1\n");
    ck_assert_int_eq(R.warn.n, 0);
    /* frames before any header, and lines that are neither: one warning, the first line */
    ck_assert_str_eq(collapse("\t1 f (m)\n\na 1 cycles: \n\tjunk\n\t1 f (m)\n"), "a;f 1\n");
    ck_assert_int_eq(R.warn.n, 1);
    ck_assert_uint_eq(R.warn.last.line, 1);
    ck_assert_ptr_nonnull(strstr(R.warn.last.message, "2 malformed lines"));
    /* a record of only a header and a blank line, then frames: inferno's empty-line case */
    ck_assert_str_eq(collapse("a 1 1.0: 5 cycles:\n\t1 f (m)\n\na 1 2.0: 5 cycles:\n\n\t2 g (m)\n"),
                     "a;f 5\n");
}
END_TEST

START_TEST(inlined_frames)
{
    /* perf --inline prints inlined functions as frames of module "inlined" (their dso
     * left out): they are frames like any other, not kernel frames */
    fs_perf_opts o = {.kernel = 1};
    ck_assert_str_eq(collapse_with("prog 7 1.0: cycles:\n"
                                   "\t  401b97 add_one (inlined)\n"
                                   "\t  401b97 main+0x1f (/tmp/prog)\n"
                                   "\tffffffff81000000 do_syscall_64+0x5 ([kernel.kallsyms])\n",
                                   &o),
                     "prog;do_syscall_64_[k];main;add_one 1\n");
    /* Java inlining from perf-map-agent's unfoldall: "caller->callee", callees _[i] */
    fs_perf_opts jit = {.jit = 1};
    ck_assert_str_eq(collapse_with("java 5 cycles:\n"
                                   "\t7f01 Lcom/x/A;::run->Lcom/x/B;::step->Lcom/x/C;::leaf "
                                   "(/tmp/perf-5.map)\n"
                                   "\t7f02 Interpreter (/tmp/perf-5.map)\n",
                                   &jit),
                     "java;Interpreter_[j];com/x/A:::run_[j];com/x/B:::step_[i];"
                     "com/x/C:::leaf_[i] 1\n");
    /* empty parts are names too (inferno splits blindly) */
    ck_assert_str_eq(collapse("java 5 cycles:\n\t1 a->->b (m)\n"), "java;a;_[i];b_[i] 1\n");
}
END_TEST

START_TEST(jit_frames)
{
    fs_perf_opts jit = {.jit = 1};
    /* V8's perf map: names with spaces and ':' kept, the argument list of a RegExp cut at
     * its first '(' (inferno's rule, whatever the '(' means) */
    ck_assert_str_eq(
        collapse_with("node 31912 cpu-clock: \n"
                      "\t c6d78255e68 RegExp:\\bFoo ?Bar(?:/[\\d.]+) "
                      "(/tmp/perf-31912.map)\n"
                      "\t c6d788f8125 LazyCompile:*Async$consume /a/b.js:39 "
                      "(/tmp/perf-31912.map)\n"
                      "\t      7dbd0b v8::internal::Invoke(bool, int) (/usr/bin/node)\n",
                      &jit),
        "node;v8::internal::Invoke;LazyCompile:*Async$consume /a/b.js:39_[j];"
        "RegExp:\\bFoo ?Bar_[j] 1\n");
    /* jitdump .so files (perf inject --jit) are JIT frames too */
    ck_assert_str_eq(
        collapse_with("java 9 cycles:\n"
                      "\t7f1 Lorg/A;::f (/root/.debug/jit/java-jit-2024/jitted-9-12.so)\n",
                      &jit),
        "java;org/A:::f_[j] 1\n");
    /* the class 'L' goes only for the command "java", only before a '/' */
    ck_assert_str_eq(collapse("node 1 cycles:\n\t7f1 Lorg/A;::f (/tmp/perf-1.map)\n"),
                     "node;Lorg/A:::f 1\n");
    ck_assert_str_eq(collapse("java 1 cycles:\n\t7f1 LBusy;::main (/tmp/perf-1.map)\n"),
                     "java;LBusy:::main 1\n");
    /* without --jit, no annotation; a map file elsewhere is not a JIT frame */
    ck_assert_str_eq(collapse_with("java 1 cycles:\n\t7f1 f (/var/perf-1.map)\n", &jit),
                     "java;f 1\n");
}
END_TEST

START_TEST(kernel_frames)
{
    fs_perf_opts k = {.kernel = 1};
    ck_assert_str_eq(
        collapse_with("swapper 0 [001] 1.0: cpu-clock: \n"
                      "\tffffffff8105d6b6 native_safe_halt ([kernel.kallsyms])\n"
                      "\t  3d6b4c vfs_read (/lib/modules/4.1.0-virtual/build/vmlinux)\n"
                      "\t     7d8 ipv4_conntrack_local+0x7f8 ([nf_conntrack_ipv4])\n"
                      "\t    5f70 __vdso_time ([vdso])\n"
                      "\t       0 [unknown] ([unknown])\n",
                      &k),
        "swapper;[unknown];__vdso_time_[k];ipv4_conntrack_local_[k];"
        "vfs_read_[k];native_safe_halt_[k] 1\n");
    /* a versioned vmlinux (perf found the debug image by its release) and a module file are
     * the kernel's too; a library named like one is not */
    ck_assert_str_eq(
        collapse_with("a 1 cycles:\n"
                      "\tffffffff81001 schedule (/usr/lib/debug/boot/vmlinux-5.10.0-20-"
                      "amd64)\n"
                      "\tffffffff81002 nf_hook (/lib/modules/5.10/kernel/nf_tables.ko)\n"
                      "\t1003 f (/usr/lib/libvmlinux-x.so)\n",
                      &k),
        "a;f;nf_hook_[k];schedule_[k] 1\n");
    /* --all is --kernel and --jit; [unknown] modules are never kernel frames */
    fs_perf_opts all = {.kernel = 1, .jit = 1};
    ck_assert_str_eq(collapse_with("a 1 cycles:\n\t1 [unknown] ([unknown])\n"
                                   "\t2 [unknown] ([kernel.kallsyms])\n\t3 f (/tmp/perf-1.map)\n",
                                   &all),
                     "a;f_[j];[[kernel.kallsyms]]_[k];[unknown] 1\n");
}
END_TEST

START_TEST(go_and_cpp_names)
{
    ck_assert_str_eq(collapse("server 412 [003] 5.0: 1000 cycles:u:\n"
                              "\t  46a0f3 runtime.mallocgc+0x2a3 (/srv/server)\n"
                              "\t  5e21c0 net/http.(*conn).serve+0x5a0 (/srv/server)\n"
                              "\t  4669e1 runtime.goexit.abi0+0x1 (/srv/server)\n"),
                     "server;runtime.goexit.abi0;net/http.(*conn).serve;runtime.mallocgc 1000\n");
    ck_assert_str_eq(collapse("a 1 cycles:\n"
                              "\t1 std::vector<int>::push_back(int const&) (/a)\n"
                              "\t2 ns::(anonymous namespace)::helper(int) (/a)\n"
                              "\t3 (deleted) (/a)\n"
                              "\t4 main+0xZZ (/a)\n"),
                     /* the '(' of "(deleted)" makes it a process name, skipped; an offset
                      * that is not hex stays */
                     "a;main+0xZZ;ns::(anonymous namespace)::helper;std::vector<int>::"
                     "push_back 1\n");
    /* no symbol at all ("addr  (module)"): the frame is " ", as the Perl names it */
    ck_assert_str_eq(collapse("a 1 cycles:\n\t7f1e2215d058  (/lib/libc.so)\n"), "a;  1\n");
}
END_TEST

START_TEST(rust_symbols)
{
    /* partially demangled legacy symbols: escapes decoded, hash dropped (the single-event
     * case); inferno keeps the '_' before an escape (rustc-demangle would not) */
    ck_assert_str_eq(
        collapse("boa 1 cycles:\n"
                 "\t5620391bcf1e gc::GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::"
                 "ha2ed0674a1c3dc9f+0x10e (/w/boa)\n"
                 "\t5620391bcf1f core..ptr..drop$RF$x$C$y$u20$z::h0123456789abcdef (/w/boa)\n"),
        "boa;core::ptr::drop&x,y z;gc::GcBox<T>::new::_{{closure}} 1\n");
    fs_buf b = {0};
    /* an unknown escape stops the decoding; the rest is kept as it is */
    ck_assert_int_eq(fs_perf_fix_rust_symbol("a$LT$b$XX$c::h0123456789abcdef", 30, &b), 1);
    ck_assert_str_eq(b.data, "a<b$XX$c");
    /* control characters and upper-case hex are not escapes */
    ck_assert_int_eq(fs_perf_fix_rust_symbol("a$u7$b$u7B$::h0123456789abcdef", 30, &b), 1);
    ck_assert_str_eq(b.data, "a$u7$b$u7B$");
    /* inferno knows twenty escapes, no other $u...$ */
    ck_assert_int_eq(fs_perf_fix_rust_symbol("a$u3b1$::h0123456789abcdef", 26, &b), 1);
    ck_assert_str_eq(b.data, "a$u3b1$");
    /* a leading "_$" loses its '_' (inferno's rule, as rustc-demangle's) */
    static const char term[] =
        "_$LT$term..terminfo..TerminfoTerminal$LT$T$GT$$GT$::new::h0123456789abcdef";
    ck_assert_int_eq(fs_perf_fix_rust_symbol(term, sizeof term - 1, &b), 1);
    ck_assert_str_eq(b.data, "<term::terminfo::TerminfoTerminal<T>>::new");
    /* a hash needs no "::" before it; the upper-case digits of one are hex too */
    ck_assert_int_eq(fs_perf_fix_rust_symbol("fooh0123456789ABCDEF", 20, &b), 1);
    ck_assert_str_eq(b.data, "foo");
    /* no hash, a short hash: not a legacy Rust symbol */
    ck_assert_int_eq(fs_perf_fix_rust_symbol("a$LT$b", 6, &b), 0);
    ck_assert_int_eq(fs_perf_fix_rust_symbol("a::h0123456789abcde", 19, &b), 0);
    fs_buf_free(&b);
}
END_TEST

static const char THREE[] = "app 10/11 [000] 1.0: 7 cycles:u: \n\t1 f (m)\n\n"
                            "app 10/12 [001] 1.1: 3 instructions:u: \n\t1 g (m)\n\n"
                            "app 10/11 [000] 1.2: 5 cycles:ppp: \n\t1 f (m)\n\n"
                            "app 10/11 [000] 1.3: 2 sched:sched_switch: prev_comm=app "
                            "prev_pid=11 ==> next_comm=swapper next_pid=0\n\t1 h (m)\n\n";

START_TEST(event_filter_with_several_events)
{
    /* the first event named wins (its modifiers ignored), with one warning listing all */
    ck_assert_str_eq(collapse(THREE), "app;f 12\n");
    ck_assert_str_eq(R.unit, "cycles");
    ck_assert_int_eq(R.warn.n, 1);
    ck_assert_ptr_nonnull(strstr(R.warn.last.message, "cycles (2 samples), instructions (1 "
                                                      "sample), sched (1 sample)"));
    fs_perf_opts o = {.event_filter = "instructions", .tid = 1};
    ck_assert_str_eq(collapse_with(THREE, &o), "app-10/12;g 3\n");
    ck_assert_int_eq(R.warn.n, 0);
    ck_assert_str_eq(R.unit, "instructions");
    /* a name with ':' matches the whole event field: a tracepoint, or one modifier set */
    fs_perf_opts tp = {.event_filter = "sched:sched_switch", .pid = 1};
    ck_assert_str_eq(collapse_with(THREE, &tp), "app-10;h 2\n");
    fs_perf_opts mod = {.event_filter = "cycles:ppp"};
    ck_assert_str_eq(collapse_with(THREE, &mod), "app;f 5\n");
    /* an event the recording lacks: an error naming what it has */
    fs_perf_opts none = {.event_filter = "cache-misses"};
    ck_assert_str_eq(collapse_with(THREE, &none), "");
    ck_assert_int_eq(R.st, FOLDSVG_E_NO_DATA);
    ck_assert_ptr_nonnull(strstr(R.err.message, "no samples of event 'cache-misses'"));
    ck_assert_ptr_nonnull(strstr(R.err.message, "cycles (2 samples), instructions (1 sample)"));
    ck_assert_int_eq(R.units, 0);
}
END_TEST

START_TEST(periods)
{
    /* without periods every record counts 1 and the unit is samples */
    ck_assert_str_eq(collapse("a 1 [000] 1.0: cycles: \n\t1 f (m)\n\n"
                              "a 1 [000] 1.1: cycles: \n\t1 f (m)\n"),
                     "a;f 2\n");
    ck_assert_str_eq(R.unit, "samples");
    /* a period of 0 gives the sink a zero count (it drops it); sums do not wrap here */
    ck_assert_str_eq(collapse("a 1 1.0: 18446744073709551615 cycles:\n\t1 f (m)\n\n"
                              "a 1 1.1: 0 cycles:\n\t1 g (m)\n"),
                     "a;f 18446744073709551615\na;g 0\n");
    /* a period past 2^64-1 is a malformed header: the record is skipped */
    ck_assert_str_eq(collapse("a 1 1.0: 18446744073709551616 cycles:\n\t1 f (m)\n\n"
                              "a 1 1.1: 4 cycles:\n\t1 g (m)\n"),
                     "a;g 4\n");
    ck_assert_int_eq(R.warn.n, 1);
    ck_assert_uint_eq(R.warn.last.line, 1);
    /* a sample without call chain: its frame on the header line */
    ck_assert_str_eq(collapse("           false 39654 19115.489713:          1 cycles:u:  "
                              "ffffffff9b201293 [unknown] ([unknown])\n"
                              "           false 39654 19115.489719:          1 cycles:      "
                              "7fa68b1f2d84 _dl_start+0x4 (/usr/lib/ld-2.31.so)\n"),
                     "false;[unknown] 1\nfalse;_dl_start 1\n");
    ck_assert_str_eq(R.unit, "cycles");
}
END_TEST

START_TEST(roots_and_addresses)
{
    const char *t = "V8 WorkerThread 24636/25607 [000] 94564.109216: cycles:\n"
                    "\t31ef [unknown] (/bin/dd)\n"
                    "\t7f2eb2b31c2c [unknown] ([unknown])\n";
    ck_assert_str_eq(collapse(t), "V8_WorkerThread;[unknown];[dd] 1\n");
    fs_perf_opts pid = {.pid = 1}, tid = {.tid = 1, .pid = 1}, addrs = {.addrs = 1};
    ck_assert_str_eq(collapse_with(t, &pid), "V8_WorkerThread-24636;[unknown];[dd] 1\n");
    ck_assert_str_eq(collapse_with(t, &tid), "V8_WorkerThread-24636/25607;[unknown];[dd] 1\n");
    ck_assert_str_eq(collapse_with(t, &addrs),
                     "V8_WorkerThread;[unknown <7f2eb2b31c2c>];[dd <31ef>] 1\n");
    /* only a thread id printed: the pid is '?' */
    ck_assert_str_eq(collapse_with("java 12688 cpu-clock:\n\t1 f (m)\n", &tid),
                     "java-?/12688;f 1\n");
}
END_TEST

START_TEST(skip_after)
{
    /* the callers of a frame so named are left out, the command name with them (inferno's
     * rule: "dd;do_work" would not merge with do_work's stacks that have no caller) */
    fs_perf_opts o = {0};
    ck_assert_int_eq(fs_strlist_push(&o.skip_after, "main"), FOLDSVG_OK);
    ck_assert_int_eq(fs_strlist_push(&o.skip_after, "Ljava/lang/Thread;.run"), FOLDSVG_OK);
    ck_assert_int_eq(fs_strlist_push(&o.skip_after, "p->q"), FOLDSVG_OK);
    ck_assert_str_eq(collapse_with("a 1 cycles:\n\t1 work (m)\n\t2 main+0x1 (m)\n"
                                   "\t3 __libc_start_main (m)\n\t4 _start (m)\n",
                                   &o),
                     "main;work 1\n");
    /* a sample whose outermost frame matches: the same stack as one cut there */
    ck_assert_str_eq(collapse_with("a 1 cycles:\n\t1 work (m)\n\t2 main (m)\n\n"
                                   "a 1 cycles:\n\t1 work (m)\n\t2 main (m)\n\t3 _start (m)\n",
                                   &o),
                     "main;work 2\n");
    /* names are compared as perf printed them (offset cut), before any tidying */
    ck_assert_str_eq(collapse_with("java 1 cycles:\n\t1 Lfoo/X;.y (m)\n"
                                   "\t2 Ljava/lang/Thread;.run (m)\n\t3 start_thread (m)\n",
                                   &o),
                     "java/lang/Thread:.run;foo/X:.y 1\n");
    ck_assert_str_eq(collapse_with("a 1 cycles:\n\t1 work (m)\n\t2 main(int) (m)\n\t3 s (m)\n", &o),
                     "a;s;main;work 1\n");
    /* an inlined chain matches whole, and keeps its parts */
    ck_assert_str_eq(collapse_with("a 1 cycles:\n\t1 x->main->y (m)\n\t2 z (m)\n", &o),
                     "a;z;x;main_[i];y_[i] 1\n");
    ck_assert_str_eq(collapse_with("a 1 cycles:\n\t1 p->q (m)\n\t2 z (m)\n", &o), "p;q_[i] 1\n");
    fs_strlist_free(&o.skip_after);
}
END_TEST

START_TEST(cpp_names_as_inferno)
{
    /* parentheses inside <>, {} and [] are not the argument list */
    ck_assert_str_eq(collapse("a 1 cycles:\n"
                              "\t1 std::function<int (int, int)>::operator()(int, int) const (m)\n"
                              "\t2 main::{lambda(int)#1}::operator()(int) const (m)\n"
                              "\t3 main::{lambda(int)#2}::operator()(int) const (m)\n"
                              "\t4 foo<Vec::<usize>>(Vec<usize>) (m)\n"
                              "\t5 [(foo)]::bar() (m)\n"),
                     "a;[(foo)]::bar;foo<Vec::<usize>>;main::{lambda(int)#2}::operator;"
                     "main::{lambda(int)#1}::operator;std::function<int (int, int)>::operator 1\n");
    /* a Go method's "(*T)" follows a '.', an anonymous namespace keeps its parentheses */
    ck_assert_str_eq(
        collapse("a 1 cycles:\n\t1 ns::(anonymous namespace)::myBar() (m)\n"
                 "\t2 go/build.(*importReader).readByte (m)\n\t3 .run()V (m)\n"),
        "a;.run;go/build.(*importReader).readByte;ns::(anonymous namespace)::myBar 1\n");
    /* a closer before the first '(' leaves that one below depth 0, so it is kept */
    ck_assert_str_eq(collapse("a 1 cycles:\n\t1 a>b(x) (m)\n\t2 f)(g) (m)\n\t3 a]b(c)d(e) (m)\n"),
                     "a;a]b(c)d(e);f)(g);a>b(x) 1\n");
    /* the module is the last word (a path with a space is no module: that line is not a
     * frame); a symbol may hold spaces and parentheses */
    ck_assert_str_eq(collapse("a 1 cycles:\n\t1 x y (z) w  (/m n/o)\n\t2 p q (r) s (m)\n"),
                     "a;p q  1\n");
    /* inlined frames already marked keep one mark */
    ck_assert_str_eq(collapse("a 1 cycles:\n\t1 x->y_[i] (m)\n"), "a;x;y_[i] 1\n");
    /* Java names are tidied for any command starting with "java" */
    ck_assert_str_eq(collapse("javaw 1 cycles:\n\t1 Lfoo/Bar;.baz(I)V (m)\n"),
                     "javaw;foo/Bar:.baz 1\n");
}
END_TEST

START_TEST(headers_and_comments)
{
    ck_assert_str_eq(collapse("# ========\n# captured on: Thu Aug 17 14:14:43 2017\n#\n"
                              "a 1 cycles:\n# in between\n\t1 f (m)\n"),
                     "a;f 1\n");
    ck_assert_int_eq(R.warn.n, 0);
    /* nothing but headers: no stacks, no unit, no error (the caller says nothing to draw) */
    ck_assert_str_eq(collapse("# ========\n"), "");
    ck_assert_int_eq(R.st, FOLDSVG_OK);
    ck_assert_int_eq(R.units, 0);
}
END_TEST

static int detect(const char *s)
{
    return fs_perf_detect((const unsigned char *)s, strlen(s), 1);
}

START_TEST(detection)
{
    ck_assert(detect("java 25607 4794564.109216: 1 cycles:\n\t1 f (m)\n"));
    ck_assert(detect("# ========\n# captured on: x\n#\njava 12688 [002] 6544038.708352: 10309278 "
                     "cpu-clock: \n"));
    ck_assert(detect("\n\nfunc_ab 15294 cpu-clock: \n"));
    ck_assert(detect("java 19983 cycles:\nffffffff8103d0ca native_write_msr_safe ([k])\n"));
    ck_assert(detect("           false 39654 19115.489713:          1 cycles:u:  ffff [unknown] "
                     "([unknown])\n"));
    ck_assert(detect("app 10/11 [000] 1.3: sched:sched_switch: prev_comm=app ==> next_pid=0\n"));
    ck_assert(detect("perf 6 [000] 1.5:\n\t1 f (m)\n"));       /* -F without the event */
    ck_assert(detect("java 25607 4794564.109216: 1 cycles:")); /* no newline */
    /* a first line cut short while more may come: asked again with more bytes */
    const char *cut = "# header\njava 25607 4794564.109216: 1 cyc";
    ck_assert_int_eq(fs_perf_detect((const unsigned char *)cut, strlen(cut), 0), -1);
    const char *whole = "main;work 3\nmore";
    ck_assert_int_eq(fs_perf_detect((const unsigned char *)whole, strlen(whole), 0), 0);
    ck_assert(!detect(""));
    ck_assert(!detect("\n \n# only comments\n"));
    ck_assert(!detect("main;work 3\n"));
    ck_assert(!detect("# perf 1 cycles:\nmain 3\n"));
    ck_assert(!detect("a 1 b: 2\n")); /* folded text with a ':' */
    ck_assert(!detect("java 12 cycles:;main 5\n"));
    ck_assert(!detect("main 12 foo: bar 5\n"));
    ck_assert(!detect("{\"meta\": {}}"));
    ck_assert(!detect("java;start_thread;java_start 1 2\n")); /* differential folded */
}
END_TEST

START_TEST(line_parts)
{
    fs_perf_event ev;
    const char *l = "V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles:ppp: ";
    ck_assert_int_eq(fs_perf_parse_event(l, strlen(l), &ev), 1);
    ck_assert_uint_eq(ev.comm.len, 15);
    ck_assert(memcmp(ev.tid.ptr, "25607", 5) == 0 && ev.tid.len == 5);
    ck_assert(memcmp(ev.pid.ptr, "24636", 5) == 0 && ev.pid.len == 5);
    ck_assert_uint_eq(ev.event.len, strlen("cycles:ppp"));
    ck_assert_uint_eq(ev.base_len, 6);
    ck_assert_int_eq(ev.has_period, 1);
    ck_assert_uint_eq(ev.period, 100);
    ck_assert_uint_eq(ev.rest.len, 0);
    /* a command name with a word of digits: the first such word is the thread id, as in
     * inferno */
    l = "Thread 2 main 77 cycles:";
    ck_assert_int_eq(fs_perf_parse_event(l, strlen(l), &ev), 1);
    ck_assert_uint_eq(ev.comm.len, 6);
    ck_assert_int_eq(fs_perf_parse_event("nodigits here:", 14, &ev), 0);
    fs_perf_frame_line fl;
    ck_assert_int_eq(fs_perf_parse_frame("ffff ([kernel.kallsyms])", 24, &fl), 0);
    ck_assert_int_eq(fs_perf_parse_frame("ffff f (m", 9, &fl), 0);
    ck_assert_int_eq(fs_perf_parse_frame("\t  ffff f g (m)", 15, &fl), 1);
    ck_assert_uint_eq(fl.func.len, 3);
}
END_TEST

START_TEST(records_across_read_blocks)
{
    /* about 3 MB: records and lines straddle the reader's 1 MiB blocks; one frame line is
     * longer than a block */
    size_t cap = 8u << 20, len = 0;
    char *t = malloc(cap);
    uint64_t want = 0;
    for (unsigned i = 0; len < 3000000; i++) {
        len += (size_t)snprintf(t + len, cap - len,
                                "app 7 [000] %u.5: %u cycles:\n\t1 leaf%u+0x1 (m)\n"
                                "\t2 main (/usr/bin/app)\n\n",
                                i, i % 7 + 1, i % 3);
        want += i % 7 + 1;
    }
    len += (size_t)snprintf(t + len, cap - len, "app 7 1.0: 1 cycles:\n\t1 ");
    memset(t + len, 'x', 1200000);
    len += 1200000;
    len += (size_t)snprintf(t + len, cap - len, " (m)\n");
    want += 1;
    fs_perf_opts o = {0};
    fold_sink s;
    memset(&s, 0, sizeof s);
    s.sink.stack = on_stack;
    fs_input *in;
    foldsvg_error err;
    ck_assert_int_eq(fs_input_open_mem(&in, t, len, "big", &err), FOLDSVG_OK);
    ck_assert_int_eq(fs_perf_read(in, &o, &s.sink, &err), FOLDSVG_OK);
    fs_input_close(in);
    ck_assert_uint_eq(s.n, 4);
    uint64_t got = 0;
    for (size_t i = 0; i < s.n; i++) {
        got += s.counts[i];
        ck_assert(strncmp(s.stacks[i], "app;main;leaf", 13) == 0 ||
                  (strncmp(s.stacks[i], "app;xxx", 7) == 0 && strlen(s.stacks[i]) == 1200004));
        free(s.stacks[i]);
    }
    ck_assert_uint_eq(got, want);
    free(s.stacks);
    free(s.counts);
    free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("perf");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, missing_blank_line_at_the_end);
    tcase_add_test(tc, truncated_records);
    tcase_add_test(tc, inlined_frames);
    tcase_add_test(tc, jit_frames);
    tcase_add_test(tc, kernel_frames);
    tcase_add_test(tc, go_and_cpp_names);
    tcase_add_test(tc, rust_symbols);
    tcase_add_test(tc, event_filter_with_several_events);
    tcase_add_test(tc, periods);
    tcase_add_test(tc, roots_and_addresses);
    tcase_add_test(tc, skip_after);
    tcase_add_test(tc, cpp_names_as_inferno);
    tcase_add_test(tc, headers_and_comments);
    tcase_add_test(tc, detection);
    tcase_add_test(tc, line_parts);
    tcase_add_test(tc, records_across_read_blocks);
    suite_add_tcase(s, tc);
    return fs_test_run(s);
}
