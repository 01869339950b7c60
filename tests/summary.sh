#!/bin/sh
# --summary end to end: every rule fires on a profile made for it and none on a flat one, in
# text, Markdown and JSON (checked against the shape docs/summary.md documents), on a
# realistic SP1 profile, with --per, --summary-threshold and --diff; names escaped for each
# format; "What stands out" in the HTML reports (one profile, sections, a diff).
#   tests/summary.sh BIN SOURCE_DIR
set -u
bin=$(realpath "$1"); src=$(realpath "$2")
here=$src/tests; data=$src/tests/data/summary
. "$here/lib.sh"
check_json() { # check_json NAME FILE [--diff]
    if python3 "$here/tools/check_summary_json.py" "$src/docs/summary.md" "$2" ${3:-} >json.err 2>&1; then
        ok
    else
        bad "$1: JSON not of the documented shape: $(head -c 300 json.err)"
    fi
}

# every rule, in order, with its numbers
expect 0 text "$bin" --summary "$data/every-rule.folded"
for rule in callees bottleneck memory-copy precompile software-fallback setup; do
    has "rule $rule" out "- [$rule] "
done
has input out "Input: $data/every-rule.folded"
has top5 out "Self time: top 5 of 9 functions"
has callees out "[callees] run: 100.0% inclusive (6,300 cycles), 0.0% self; callees execute 38.1%, verify 31.7%, state 15.9% of it: drill in"
has copy out "[memory-copy] memcpy: 17.5% self (1,100 cycles); callers alloc::vec::Vec<T>::clone 54.5%, parse 27.3%: the call site is the real cost"
has fallback out "[software-fallback] secp256k1 in software: 31.7% inclusive (2,000 cycles)"
hasnt main-pass-through out "[callees] main:"
hasnt copy-once out "[bottleneck] memcpy"
# as the report: sentences ranked by the time they concern, at most 8 (the rest counted,
# every one in the JSON), then the precompiles
sed -n '/^What stands out/,/^In short/p' out | grep '^- \[' | grep -v '^- \[precompile\]' |
    sed 's/^[^(]*(\([0-9,]*\) cycles.*/\1/' | tr -d , >cycles
sort -rn cycles | cmp -s - cycles && ok || bad "sentences not ranked by cycles: $(tr '\n' ' ' <cycles)"
[ "$(wc -l <cycles)" -eq 8 ] && ok || bad "not 8 sentences shown: $(wc -l <cycles)"
has more out "- and 2 more (--top-format json lists every finding)"
sed -n '/^What stands out/,/^In short/p' out | grep '^- ' | tail -1 | grep -q '^- \[precompile\]' && ok ||
    bad "the precompiles do not come last"
expect 0 json "$bin" --summary --top-format json "$data/every-rule.folded"
[ "$(grep -o '"rule": *"' out | wc -l)" -eq 11 ] && ok || bad "the JSON does not hold all 11 findings: $(grep -o '"rule": *"' out | wc -l)"

# --top N, --per K
expect 0 top "$bin" --summary --top 2 "$data/every-rule.folded"
has top2 out "Self time: top 2 of 9 functions"
expect 0 per "$bin" --summary --per 100 "$data/every-rule.folded"
has per out "[bottleneck] alu: 31.7% self (20.00 cycles)"

# JSON: the documented shape, the same findings
expect 0 json "$bin" --summary --top-format json "$data/every-rule.folded"
cp out every.json; check_json every-rule every.json
python3 - every.json <<'PY' >rules 2>&1 || bad "json: $(cat rules)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["per"] == 1 and d["total"] == 6300 and d["count_name"] == "cycles", d
assert len(d["self"]) == 5 and len(d["inclusive"]) == 5
f = [x for x in d["findings"] if x["rule"] == "memory-copy"][0]
assert f["function"] == "memcpy" and f["value"] == 1100 and abs(f["share"] - 17.4603) < 1e-3, f
assert [r["function"] for r in f["related"]] == ["alloc::vec::Vec<T>::clone", "parse"], f
assert f["related"][0]["value"] == 600 and abs(f["related"][0]["share"] - 54.5455) < 1e-3
assert f["detail"].startswith("memcpy: 17.5% self (1,100 cycles); callers"), f
print(" ".join(sorted({x["rule"] for x in d["findings"]})))
PY
has json-rules rules "bottleneck callees memory-copy precompile setup software-fallback"
expect 0 json-per "$bin" --summary --top-format json --per 100 "$data/every-rule.folded"
cp out per.json; check_json per per.json
has json-per-key per.json '"per": 100'

# no false alarms on a flat profile
expect 0 flat "$bin" --summary "$data/flat.folded"
has flat out "What stands out: nothing: no rule fired (see --summary-threshold)."
hasnt flat-none out "- ["
expect 0 flat-json "$bin" --summary --top-format json "$data/flat.folded"
cp out flat.json; check_json flat flat.json
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["findings"] == []' flat.json && ok || bad "flat: findings in JSON"

# thresholds: settable, bounded, named in the error
expect 0 threshold "$bin" --summary --summary-threshold bottleneck=40 --summary-threshold setup=20 "$data/every-rule.folded"
hasnt threshold-bottleneck out "[bottleneck]"
hasnt threshold-setup out "[setup]"
has threshold-callees out "[callees] run:"
expect 2 threshold-bad-rule "$bin" --summary --summary-threshold hot=3 "$data/every-rule.folded"
has threshold-bad-rule err "invalid value 'hot=3' for --summary-threshold: expected RULE=PCT: RULE one of callees, bottleneck, memory-copy, precompile, software-fallback, setup, PCT from 0 to 100"
expect 2 threshold-bad-pct "$bin" --summary --summary-threshold callees=101 "$data/every-rule.folded"
expect 0 threshold-html "$bin" --summary-threshold callees=50 "$data/every-rule.folded" -o t.html
hasnt threshold-html err "does nothing"
expect 0 threshold-svg "$bin" --summary-threshold callees=50 "$data/every-rule.folded" -o t.svg
has threshold-svg err "--summary-threshold does nothing here"

# Markdown: names in code spans; pipes escaped in table cells only
expect 0 markdown "$bin" --summary --top-format markdown "$data/names.folded"
has md-heading out "### What stands out"
has md-item out '- **memory-copy** · `memcpy`: 50.0% self (500 cycles); callers `` `x` `` 100.0%'
has md-cell out '| `a\|b` |'
has md-list out 'callees `a|b` 50.0%, '
hasnt md-no-warning err "does nothing"

# JSON: quotes, backslashes and bytes that are not UTF-8 in names
printf 'main;say "hi" \\ now 60\nmain;bad\377byte 40\n' >quote.folded
expect 0 json-escape "$bin" --summary --top-format json quote.folded
cp out quote.json; check_json quote quote.json
python3 - quote.json <<'PY' >q.err 2>&1 && ok || bad "json-escape: $(cat q.err)"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
names = [f["function"] for f in d["findings"] if f["rule"] == "bottleneck"]
assert names[0] == 'say "hi" \\ now', names
assert names[1] == "bad\ufffdbyte", names
b = [f for f in d["findings"] if f["rule"] == "bottleneck"][0]
assert b["detail"].startswith('say "hi" \\ now: 60.0% self'), b
PY

# text and HTML keep names whole and escaped
expect 0 html "$bin" "$data/names.folded" -o names.html
has html-block names.html '<div class="fs-findings"><h3>What stands out</h3>'
has html-escaped names.html '<code>&lt;T as Clone&gt;::clone&amp;x</code>'
expect 0 html-dark "$bin" --theme dark "$data/every-rule.folded" -o dark.html
has html-rule dark.html '<li data-rule="software-fallback"><span class="fs-rule">software-fallback</span>'
expect 0 sections "$bin" --sections "$data/every-rule.folded" "$data/flat.folded" -o s.html
[ "$(grep -o 'class="fs-findings"' s.html | wc -l)" -eq 2 ] && ok || bad "sections: not one block per section"
has sections-flat s.html 'Nothing stands out: no rule fired (see --summary-threshold).'

# a realistic SP1 profile (tests/tools/gen_sp1_profile.py -n 20000 --seed 23 --stacks 300
# --functions 400 --no-nasty)
expect 0 sp1 "$bin" --summary --strip-rust-hash "$data/sp1-seed23.json.gz"
has sp1-precompile out "[precompile] syscall_secp256k1_add: 2,577 cycles (12.9%); callers "
has sp1-keccak out "[precompile] syscall_keccak_permute: 1,858 cycles (9.3%)"
hasnt sp1-io out "[precompile] syscall_hint_read"
has sp1-copy out "[memory-copy] memset: 5.1% self (1,028 cycles)"
expect 0 sp1-json "$bin" --summary --top-format json "$data/sp1-seed23.json.gz"
cp out sp1.json; check_json sp1 sp1.json
# the guide's report, whole (issue 45, 5): the sample rate, one paragraph, the trace to open
expect 0 sp1-guide "$bin" --summary "$data/sp1-seed23.json.gz"
has sp1-rate out "Sample rate: one sample every "
has sp1-inshort out "In short: Structurally, "
has sp1-target out "The most actionable target is "
has sp1-samply out "(open it in the Firefox Profiler: samply load $data/sp1-seed23.json.gz)"
python3 - sp1.json "$data/sp1-seed23.json.gz" <<'PY' && ok || bad "sp1 JSON: the rate, the paragraph, the trace"
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["sample_rate"], int) and d["sample_rate"] > 0, d["sample_rate"]
assert d["interpretation"].startswith("Structurally, "), d["interpretation"]
assert d["trace"] == sys.argv[2], d["trace"]
PY
expect 0 folded-guide "$bin" --summary "$data/every-rule.folded"
has folded-inshort out "In short: "
hasnt folded-no-rate out "Sample rate"
hasnt folded-no-trace out "samply load"
expect 0 md-guide "$bin" --summary --top-format markdown "$data/sp1-seed23.json.gz"
has md-inshort out "### In short"
has md-samply out "samply load $data/sp1-seed23.json.gz\`"
expect 0 flat-guide "$bin" --summary "$data/flat.folded"
has flat-inshort out "In short: No rule fired"

# --summary with another output: both written, the summary on stdout
expect 0 with-svg "$bin" --summary "$data/every-rule.folded" -o both.svg
has with-svg-out out "What stands out:"
[ -s both.svg ] && ok || bad "with-svg: no SVG"
expect 2 stdout-twice "$bin" --summary "$data/every-rule.folded" -o -
has stdout-twice err "--summary prints on standard output"

# --diff: the same rules explain the change
expect 0 diff "$bin" --diff "$data/before.folded" "$data/after.folded" --summary
has diff-title out "What explains the change:"
has diff-fallback out "[software-fallback] keccak in software: inclusive +1,800 cycles (new), most in tiny_keccak::keccakf"
has diff-copy out "[memory-copy] memcpy: self +600 cycles (+200.00%); callers parse +600"
has diff-syscall out "[precompile] syscall_keccak_permute: -50 cycles (-100.00%)"
expect 0 diff-json "$bin" --diff "$data/before.folded" "$data/after.folded" --summary --top-format json
cp out diff.json; check_json diff diff.json --diff
expect 0 diff-html "$bin" --diff "$data/before.folded" "$data/after.folded" -o d.html
has diff-html d.html '<h3>What explains the change</h3>'
# a differential input (two counts a line) gets the summary of its change too
printf '%s\n' "main;run;execute;keccak256;syscall_keccak_permute 50 0" \
    "main;run;execute;keccak256;tiny_keccak::keccakf 0 1800" >two.folded
expect 0 two-columns "$bin" --summary two.folded
has two-columns out "[software-fallback] keccak in software: inclusive +1,800 cycles (new)"

finish summary
