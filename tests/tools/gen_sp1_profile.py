#!/usr/bin/env python3
"""Writes a synthetic profile shaped like the ones the SP1 zkVM profiler writes.

    gen_sp1_profile.py -n SAMPLES [--seed S] [--rate R] [-o OUT.json[.gz]] [options]

The shape is that of SP1's profiler (the gecko_profile 0.4.0 crate serialised compactly
by serde_json), which is what foldsvg must read as a stream:
- one line, no spaces; key order meta, libs, threads, processes; in the thread, the frame,
  stack and sample tables come first and the string table last, after every sample;
- Gecko v24, meta.product "SP1 ZKVM"; one thread; tables {schema, data};
- a sample per sampled instruction: [stack or null, time in ms, 0.0, RATE], the rate (the
  cycles a sample stands for) in the threadCPUDelta column, time growing by RATE us
  (computed as the profiler computes it, so with its artefacts: 0.11990899999999999);
- stack and frame ids in the order they first appear (a prefix has a smaller id), frames
  rows [location, false, 0, null, null, null, null, 0, 0];
- the string table holds every function symbol in an arbitrary order, most never sampled;
- demangled Rust names: legacy ones end in ::h<16 hex>, v0 ones carry crate[hex]; some
  hold '; ' (array types such as [u8; 32]); C and syscall leaves; no function twice on a
  stack (SP1 never records recursion); a few leading samples with a null stack and rare
  null stacks later.
--nasty (the default) adds hostile names to a few stacks: a newline, a carriage return, a
tab, quotes, a backslash, control characters, non-ASCII text, an empty name, ';', XML
metacharacters, trailing spaces and a 6 kB name.

Output depends only on the arguments (a fixed start time unless --start-time is given).
Memory follows the number of stacks, not of samples: the samples are drawn twice from the
same seed, once to number the stacks in order of first appearance and once to write them.
Python 3 standard library only.
"""
import argparse
import gzip
import json
import random
import sys

CRATES = ["core", "alloc", "std", "sp1_zkvm", "sp1_lib", "serde", "bincode", "sha2",
          "tiny_keccak", "k256", "ecdsa", "crypto_bigint", "revm", "revm_interpreter",
          "revm_primitives", "alloy_primitives", "alloy_rlp", "alloy_trie", "hashbrown",
          "rsp_client_executor", "reth_evm", "bn", "bls12_381", "ruint", "guest"]
MODULES = ["fmt", "ptr", "slice", "iter", "ops", "hash", "vec", "raw_vec", "de", "ser",
           "io", "syscalls", "heap", "interpreter", "instructions", "host", "db", "state",
           "trie", "nodes", "field", "scalar", "affine", "uint", "mul", "decode", "encode",
           "verify", "block", "executor", "handler", "memory", "stack", "precompile"]
TYPES = ["Vec<u8>", "RawVec<T,A>", "String", "U256", "Uint<256_usize,4_usize>", "Address",
         "B256", "Bytes", "FieldElement", "Scalar", "AffinePoint", "Sha256", "Keccak",
         "Interpreter", "SharedMemory", "Evm<EXT,DB>", "CacheDB<EmptyDB>", "Header",
         "Deserializer<R>", "HashMap<K,V,S>", "RawTable<T,A>", "BTreeMap<K,V>", "Account"]
TRAITS = ["core::fmt::Debug", "core::fmt::Write", "core::clone::Clone",
          "core::ops::drop::Drop", "core::iter::traits::iterator::Iterator",
          "core::ops::arith::Mul", "serde::de::Visitor", "alloy_rlp::decode::Decodable",
          "revm::db::Database", "digest::core_api::FixedOutputCore"]
FUNCTIONS = ["new", "fmt", "drop", "clone", "next", "write", "write_str", "read", "commit",
             "hash", "finalize", "update", "compress", "permute", "mul", "add", "square",
             "invert", "reduce", "from_bytes", "to_bytes", "decode", "encode", "deserialize",
             "visit_seq", "try_from", "verify", "execute", "run", "step", "call", "transact",
             "insert", "get", "get_mut", "reserve", "grow_one", "extend_from_slice", "push",
             "process_block", "sload", "sstore", "keccak256"]
LEAVES = ["memcpy", "memset", "memmove", "memcmp", "__rust_alloc", "__rust_dealloc",
          "__rust_realloc", "__udivdi3", "__umoddi3", "__mulsi3", "syscall_write",
          "syscall_hint_len", "syscall_hint_read", "syscall_sha256_extend",
          "syscall_sha256_compress", "syscall_keccak_permute", "syscall_secp256k1_add",
          "syscall_secp256k1_double", "syscall_bn254_add", "syscall_uint256_mulmod",
          "sys_alloc_aligned", "sys_rand", "rust_begin_unwind"]
HOSTILE = ["line\nbreak::in::name::h0f1e2d3c4b5a6978",
           "carriage\rreturn::h1234123412341234",
           "tab\there::h00000000cafef00d",
           "\"double\" and 'single' quotes::h5555aaaa5555aaaa",
           "C:\\path\\with\\backslashes::h0000111122223333",
           "bell\x07and\x1bescape::h9999888877776666",
           "caf\u00e9::\u03c0::\u2211::\u6f22\u5b57::\U0001f600::h4444333322221111",
           "",
           "semi;colons;in;a;name::h7777777777777777",
           "<T as core::cmp::PartialOrd<&'a str>>::lt & gt::h2468ace02468ace0",
           "trailing spaces   "]

START_MS = 1700000000000.0  # a fixed meta.startTime keeps the output reproducible


def hex16(rng):
    return "%016x" % rng.getrandbits(64)


def rust_name(rng, v0):
    """One demangled Rust symbol (rustc-demangle's Display form)."""
    def krate(name):
        return "%s[%s]" % (name, hex16(rng)[:rng.choice((8, 12, 16))]) if v0 else name

    def path(depth):
        return "::".join([krate(rng.choice(CRATES))] + rng.sample(MODULES, depth))

    fn = rng.choice(FUNCTIONS)
    shape = rng.random()
    if shape < 0.35:
        body = "%s::%s" % (path(rng.randint(1, 3)), fn)
    elif shape < 0.6:
        body = "<%s::%s as %s>::%s" % (path(rng.randint(0, 2)), rng.choice(TYPES),
                                      rng.choice(TRAITS), fn)
    elif shape < 0.7:
        body = "core::ptr::drop_in_place<%s::%s>" % (path(1), rng.choice(TYPES))
    elif shape < 0.82:
        body = "%s::%s::{{closure}}" % (path(rng.randint(1, 2)), fn)
    elif shape < 0.95:
        body = "%s::%s<%s>::%s" % (path(1), rng.choice(("Option", "Result", "Vec")),
                                  rng.choice(TYPES), fn)
    else:  # array types put "; " in names
        body = "<[%s; %d] as %s>::%s" % (rng.choice(("u8", "u32", "u64")),
                                        rng.choice((4, 8, 20, 32, 64)), rng.choice(TRAITS), fn)
    return body if v0 else "%s::h%s" % (body, hex16(rng))


def symbols(rng, count, hostile):
    """The ELF's function names: entry points, leaves, hostile ones, then Rust symbols."""
    names = ["__start", "main", "guest::main::h%s" % hex16(rng)] + LEAVES
    if hostile:
        names += HOSTILE
        names.append("<" + "alloc::vec::Vec<" * 380 + "u8" + ">" * 380 + " as Debug>::fmt")
    seen = set(names)
    while len(names) < count:
        n = rust_name(rng, rng.random() < 0.1)
        if n not in seen:
            seen.add(n)
            names.append(n)
    return names


def call_tree(rng, names, size, max_depth, hostile):
    """Stack nodes (parent, function) rooted at __start;main;guest::main, grown by
    attaching calls to recent nodes (deep, narrow stacks), and a self weight per node."""
    leaves = set(range(3, 3 + len(LEAVES)))
    leaf_list = sorted(leaves)
    odd = list(range(3 + len(LEAVES), 3 + len(LEAVES) + len(HOSTILE) + 1)) if hostile else []
    parent, func, depth = [None, 0, 1], [0, 1, 2], [1, 2, 3]
    on_path = [{0}, {0, 1}, {0, 1, 2}]
    inner = [2]  # nodes that may get children
    while len(parent) < size:
        p = inner[-1] if rng.random() < 0.45 else rng.choice(inner)
        if depth[p] >= max_depth:
            inner.remove(p)
            if not inner:
                inner = [2]
            continue
        r = rng.random()
        if r < 0.2:
            f = rng.choice(leaf_list)
        elif r < 0.22 and odd:
            f = rng.choice(odd)
        else:
            f = rng.randrange(3, len(names))
        if f in on_path[p]:
            continue
        parent.append(p)
        func.append(f)
        depth.append(depth[p] + 1)
        on_path.append(on_path[p] | {f})
        if f not in leaves:
            inner.append(len(parent) - 1)
    has_child = set(p for p in parent if p is not None)
    weight = []
    for node, f in enumerate(func):
        w = min(rng.paretovariate(1.2), 500.0)  # heavy-tailed, no single node dominating
        if node not in has_child:
            w *= 3
        if f in leaves and names[f].startswith(("mem", "syscall_")):
            w *= 4
        weight.append(w)
    weight[0] = weight[1] = 0.0005 * sum(weight)
    return parent, func, weight


def sample_runs(seed, samples, weights, mean_run, null_frac, leading_nulls):
    """(node or None, run length) pairs: consecutive samples often share a stack."""
    rng = random.Random(seed)
    nodes = range(len(weights))
    cum, acc = [], 0.0
    for w in weights:
        acc += w
        cum.append(acc)
    left = samples
    if leading_nulls:
        yield None, min(leading_nulls, left)
        left -= min(leading_nulls, left)
    p = 1.0 / mean_run if mean_run > 1 else 1.0
    while left > 0:
        for node in rng.choices(nodes, cum_weights=cum, k=1024):
            if null_frac and rng.random() < null_frac:
                node = None
            n = 1
            while rng.random() >= p and n < left:
                n += 1
            yield node, min(n, left)
            left -= min(n, left)
            if left == 0:
                return


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--samples", type=int, default=100000)
    ap.add_argument("-o", "--out", default="-", help="'-' for stdout; a .gz name is gzipped")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate", type=int, default=1, help="cycles per sample (TRACE_SAMPLE_RATE)")
    ap.add_argument("--functions", type=int, default=3000, help="symbols in the string table")
    ap.add_argument("--stacks", type=int, default=6000, help="distinct stacks in the call tree")
    ap.add_argument("--max-depth", type=int, default=48)
    ap.add_argument("--mean-run", type=float, default=12.0,
                    help="mean number of consecutive samples with the same stack")
    ap.add_argument("--null-frac", type=float, default=0.0005,
                    help="probability that a run of samples has a null stack")
    ap.add_argument("--leading-nulls", type=int, default=3)
    ap.add_argument("--nasty", dest="nasty", action="store_true", default=True,
                    help="add hostile names (the default)")
    ap.add_argument("--no-nasty", dest="nasty", action="store_false")
    ap.add_argument("--start-time", type=float, default=START_MS, help="meta.startTime, ms")
    a = ap.parse_args(argv)

    rng = random.Random(a.seed)
    names = symbols(rng, max(a.functions, 3 + len(LEAVES) + len(HOSTILE) + 2), a.nasty)
    parent, func, weight = call_tree(rng, names, max(a.stacks, 3), a.max_depth, a.nasty)
    string_order = list(range(len(names)))
    rng.shuffle(string_order)
    string_index = {f: i for i, f in enumerate(string_order)}
    runs = (a.seed * 1000003 + 7, a.samples, weight, a.mean_run, a.null_frac, a.leading_nulls)

    # Pass 1: ids in order of first appearance; a new sample's frames (root to leaf) come
    # before its stacks, as gecko_profile numbers them.
    stack_id, frame_id = {}, {}
    frame_rows, stack_rows = [], []
    for node, _ in sample_runs(*runs):
        if node is None or node in stack_id:
            continue
        chain = []
        while node is not None:
            chain.append(node)
            node = parent[node]
        chain.reverse()
        for n in chain:
            if func[n] not in frame_id:
                frame_id[func[n]] = len(frame_rows)
                frame_rows.append(string_index[func[n]])
        prefix = None
        for n in chain:
            if n not in stack_id:
                stack_id[n] = len(stack_rows)
                stack_rows.append((prefix, frame_id[func[n]]))
            prefix = stack_id[n]

    if a.out == "-":
        out = sys.stdout
    elif a.out.endswith(".gz"):
        out = gzip.open(a.out, "wt", encoding="utf-8", newline="")
    else:
        out = open(a.out, "w", encoding="utf-8", newline="")
    w = out.write
    w('{"meta":{"categories":[{"color":"blue","name":"Regular","subcategories":["Other"]}],'
      '"interval":0.001,"markerSchema":[],"pausedRanges":[],"pid":0,"processType":0,'
      '"product":"SP1 ZKVM","sampleUnits":{"eventDelay":"ms","threadCPUDelta":"\u00b5s",'
      '"time":"ms"},"shutdownTime":null,"startTime":%r,"version":24},"libs":[],'
      '"threads":[{"name":"Thread <0>","tid":0,"pid":1,"processType":"default",'
      '"processName":"SP1 ZKVM","registerTime":0.0,"unregisterTime":null,' % a.start_time)
    w('"frameTable":{"schema":{"location":0,"relevantForJS":1,"innerWindowID":2,'
      '"implementation":3,"optimizations":4,"line":5,"column":6,"category":7,'
      '"subcategory":8},"data":[')
    w(",".join("[%d,false,0,null,null,null,null,0,0]" % s for s in frame_rows))
    w(']},"stackTable":{"schema":{"prefix":0,"frame":1},"data":[')
    w(",".join("[%s,%d]" % ("null" if p is None else p, f) for p, f in stack_rows))
    w(']},"samples":{"schema":{"stack":0,"time":1,"eventDelay":2,"threadCPUDelta":3},'
      '"data":[')
    # Pass 2: the samples. Time is in ms from a start a little after the profile's,
    # computed as the profiler does (a Duration's as_secs_f64() * 1000.0), artefacts and all.
    tail = ",0.0,%d]" % a.rate
    ns = 30000 + a.seed % 1000 * 97
    step = a.rate * 1000
    chunk, sep = [], ""
    for node, n in sample_runs(*runs):
        head = "[null," if node is None else "[%d," % stack_id[node]
        for _ in range(n):
            secs, nanos = divmod(ns, 1000000000)
            chunk.append(head + repr((secs + nanos / 1e9) * 1000.0) + tail)
            ns += step
        if len(chunk) >= 50000:
            w(sep + ",".join(chunk))
            sep, chunk = ",", []
    if chunk:
        w(sep + ",".join(chunk))
    w(']},"markers":{"schema":{"name":0,"startTime":1,"endTime":2,"phase":3,"category":4,'
      '"data":5},"data":[]},"stringTable":[')
    w(",".join(json.dumps(names[f], ensure_ascii=False) for f in string_order))
    w(']}],"processes":[]}')
    if out is not sys.stdout:
        out.close()
    print("gen_sp1_profile: %d samples, %d stacks, %d frames, %d strings, rate %d"
          % (a.samples, len(stack_rows), len(frame_rows), len(names), a.rate), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
