#!/usr/bin/env python3
"""The option table (`foldsvg --list-options`), docs/cli.md, the man page and the README agree.

    check_docs.py BIN ROOT      (ROOT: the source tree)

- every option of the table is documented in docs/cli.md (in the first cell of an option
  table row) and in docs/foldsvg.1 (on the line after a .TP, where the man page defines
  options);
- every option those tables and entries define is in the table (no documented option
  that the program lacks);
- every option docs/cli.md mentions anywhere, and every option the README shows in a code
  span of its own (`--title`) or on a `foldsvg ...` command line, is in the table.
- where --nameattr is documented (cli.md's row, the man page's entry, the README) it says
  that a nameattr file is code (its keys run script in the SVG and the report).
(tests/options.sh checks --help and the completion against the same table.)
Prints what disagrees and "docs: N passed, M failed". Python 3 standard library only.
"""
import os
import re
import subprocess
import sys

LONG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
SHORT = re.compile(r"(?<![\w-])-[a-zA-Z](?![\w-])")


def table_options(binary):
    """Every option of the table, long and short: NAME<TAB>SHORT<TAB>..."""
    out = subprocess.run([binary, "--list-options"], capture_output=True, text=True,
                         check=True).stdout
    opts = set()
    for line in out.splitlines():
        name, short = line.split("\t")[:2]
        opts.add("--" + name)
        if short:
            opts.add("-" + short)
    return opts


def cli_md(path):
    """Options defined in the first cell of table rows, and every option mentioned."""
    defined, mentioned = set(), set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            mentioned.update(LONG.findall(line))
            if line.startswith("| `-"):
                cell = line.split("|")[1]
                defined.update(LONG.findall(cell) + SHORT.findall(cell))
    return defined, mentioned


def man_page(path):
    """Options on the lines that follow .TP (the man page's option entries)."""
    defined = set()
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for prev, line in zip(lines, lines[1:]):
        if prev.strip() == ".TP":
            text = re.sub(r"\\f[BIRP]", "", line).replace("\\-", "-")
            text = re.sub(r"^\.(BI|BR|B|IR|I)\s+", "", text)
            defined.update(LONG.findall(text) + SHORT.findall(text))
    return defined


def readme_options(path):
    """Options in code spans that start with one, and on foldsvg command lines (other
    programs' options, as `cmake --install`, are not foldsvg's)."""
    found = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            for span in re.findall(r"`([^`]+)`", line):
                if span.startswith("-"):
                    found.update(LONG.findall(span))
            if line.startswith("foldsvg "):
                found.update(LONG.findall(line.split("#")[0]))
    return found


CODE = re.compile(r"nameattr\W+file\W+is\W+code", re.I)


def nameattr_is_code(root):
    """The places that document --nameattr and do not say that its file is code."""
    missing = []
    with open(os.path.join(root, "docs", "cli.md"), encoding="utf-8") as f:
        rows = [l for l in f if l.startswith("| `--nameattr")]
    if len(rows) != 1 or not CODE.search(rows[0]):
        missing.append("docs/cli.md")
    with open(os.path.join(root, "docs", "foldsvg.1"), encoding="utf-8") as f:
        man = f.read()
    entry = re.search(r"\.BI \\-\\-nameattr .*?(?=\n\.(TP|SS|SH))", man, re.S)
    if not entry or not CODE.search(re.sub(r"\\f[BIRP]", "", entry.group(0))):
        missing.append("docs/foldsvg.1")
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        if not CODE.search(f.read().replace("`", "")):
            missing.append("README.md")
    return missing


def main(argv):
    binary, root = argv
    want = table_options(binary)
    problems = []
    if len(want) < 40:
        problems.append("--list-options lists only %d options" % len(want))
    md_defined, md_mentioned = cli_md(os.path.join(root, "docs", "cli.md"))
    man_defined = man_page(os.path.join(root, "docs", "foldsvg.1"))
    readme = readme_options(os.path.join(root, "README.md"))
    checks = [
        ("in the option table but not defined in docs/cli.md", want - md_defined),
        ("in the option table but not defined in docs/foldsvg.1", want - man_defined),
        ("defined in docs/cli.md but not in the option table", md_defined - want),
        ("defined in docs/foldsvg.1 but not in the option table", man_defined - want),
        ("mentioned in docs/cli.md but not in the option table", md_mentioned - want),
        ("mentioned in README.md but not in the option table", readme - want),
        ("documents --nameattr without saying that its file is code", nameattr_is_code(root)),
    ]
    passed = failed = 0
    for what, bad in checks:
        if bad:
            failed += 1
            problems.append("%s: %s" % (what, " ".join(sorted(bad))))
        else:
            passed += 1
    for p in problems:
        print("FAIL " + p)
    print("%d options in the table" % len(want))
    print("docs: %d passed, %d failed" % (passed, failed + (len(want) < 40)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
