#!/usr/bin/env python3
"""Runs the README's GitHub Actions example (the ```yaml block of "A regression gate in CI")
as a script, end to end, on two real profiles (FlameGraph's Java perf recordings in
tests/data/compat-diff/inputs), and checks what a pull request would see.

    ci_example.py BIN REPO

Each `run:` step runs with `sh -e` (GitHub's shell is bash -e; the steps are POSIX) in an
empty repository, as Actions runs it: `${{ steps.ID.outputs.KEY }}` from what the step
wrote to $GITHUB_OUTPUT, the other `${{ ... }}` made up, the first failing step ends the
job. Stand-ins: `uses:` steps and "Install foldsvg" are skipped (BIN is on PATH); `cargo`
copies the profile of the case to $TRACE_FILE (the README's SP1 workflow); `gh` keeps the
comment's body. The baseline is made with the README's own command. Cases: no change
(passes), a regression (the comment says failed, the last step fails), an improvement
(passes). Python 3 standard library only."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

COMMENT_LIMIT = 65000


def workflow(readme):
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"```yaml\n(# \.github/workflows/cycles\.yml.*?)```", text, re.S)
    if not m:
        sys.exit("ci_example: no cycles.yml block in the README")
    base = re.search(r"`(foldsvg \S+ -o bench/baseline\.folded\.gz)`", text)
    if not base:
        sys.exit("ci_example: the README does not say how the baseline is written")
    return m.group(1), base.group(1)


def steps(yaml):
    """The steps of the one job: name, id, uses, run (a YAML subset: what the block uses)."""
    lines = yaml.split("\n")
    out, cur, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^      - (\w[\w-]*):\s*(.*)$", line)
        k = re.match(r"^        (\w[\w-]*):\s*(.*)$", line)
        if m:
            cur = {m.group(1): m.group(2)}
            out.append(cur)
        elif k and cur is not None:
            cur[k.group(1)] = k.group(2)
        else:
            i += 1
            continue
        key = (m or k).group(1)
        if cur[key] in ("|", ""):  # a block or a mapping: the lines indented deeper
            indent = len(line) - len(line.lstrip()) + (2 if m else 0)
            body = []
            i += 1
            while i < len(lines) and (lines[i].strip() == "" or
                                      len(lines[i]) - len(lines[i].lstrip()) > indent):
                body.append(lines[i].strip() if not lines[i].strip() else lines[i][indent + 2:])
                i += 1
            cur[key] = "\n".join(body).rstrip() + "\n"
            continue
        i += 1
    return out


def expand(script, outputs):
    def one(m):
        expr = m.group(1).strip()
        s = re.match(r"steps\.([\w-]+)\.outputs\.([\w-]+)$", expr)
        if s:
            return outputs.get(s.group(1), {}).get(s.group(2), "")
        return {"github.event.pull_request.number": "7", "github.token": "t0ken"}[expr]
    return re.sub(r"\$\{\{(.*?)\}\}", one, script)


def stub(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)


def run_job(yaml, base_cmd, bin_dir, baseline_src, profile, work):
    """Returns (the failed step's name or None, the comment posted, the step summary)."""
    repo = os.path.join(work, "repo")
    stubs = os.path.join(work, "stubs")
    for d in (repo, stubs, os.path.join(repo, "bench")):
        os.makedirs(d)
    stub(os.path.join(stubs, "cargo"), 'cp "$CASE_PROFILE" "$TRACE_FILE"\n')
    stub(os.path.join(stubs, "gh"),
         '[ "$1 $2 $3 $4 $5" = "pr comment 7 --body-file comment.md" ] || exit 9\n'
         '[ "$GH_TOKEN" = t0ken ] || exit 8\ncp "$5" "$CASE_POSTED"\n')
    env = dict(os.environ, PATH=stubs + os.pathsep + bin_dir + os.pathsep + os.environ["PATH"],
               RUNNER_TEMP=work, CASE_POSTED=os.path.join(work, "posted.md"),
               GITHUB_STEP_SUMMARY=os.path.join(work, "summary.md"),
               FOLDSVG_REPOSITORY="https://example.org/foldsvg.git")
    # the baseline, as the README says to write it: from the accepted run's profile
    shutil.copy(baseline_src, os.path.join(repo, "profile.json"))
    subprocess.run(["sh", "-ec", base_cmd + " -q"], cwd=repo, env=env, check=True)
    os.remove(os.path.join(repo, "profile.json"))
    env["CASE_PROFILE"] = profile
    outputs = {}
    for st in steps(yaml):
        if "uses" in st or st.get("name") == "Install foldsvg":
            continue
        out_file = os.path.join(work, "output")
        open(out_file, "w").close()
        step_env = dict(env, GITHUB_OUTPUT=out_file)
        for line in st.get("env", "").splitlines():
            k, _, v = line.partition(":")
            step_env[k.strip()] = expand(v.strip(), outputs)
        r = subprocess.run(["sh", "-ec", expand(st["run"], outputs)], cwd=repo, env=step_env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if "id" in st:
            outputs[st["id"]] = dict(l.split("=", 1) for l in open(out_file).read().splitlines()
                                     if "=" in l)
        if r.returncode != 0:
            return st.get("name"), read(env["CASE_POSTED"]), read(env["GITHUB_STEP_SUMMARY"])
    return None, read(env["CASE_POSTED"]), read(env["GITHUB_STEP_SUMMARY"])


def read(path):
    return open(path, encoding="utf-8").read() if os.path.exists(path) else None


def main():
    bin_path, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    yaml, base_cmd = workflow(os.path.join(repo, "README.md"))
    named = [s.get("name") for s in steps(yaml)]
    for want in ("Install foldsvg", "Profile", "Compare with the baseline", "Comment",
                 "Fail on a regression"):
        if want not in named:
            sys.exit("ci_example: no step %r in the README's workflow: %r" % (want, named))
    bin_dir = tempfile.mkdtemp()
    os.symlink(bin_path, os.path.join(bin_dir, "foldsvg"))
    inputs = os.path.join(repo, "tests", "data", "compat-diff", "inputs")
    java1, java2 = os.path.join(inputs, "java-01.folded"), os.path.join(inputs, "java-02.folded")
    cases = [  # name, baseline's profile, the pull request's profile, failed step, verdict
        ("unchanged", java1, java1, None, "passed, all 2 thresholds hold"),
        ("regression", java2, java1, "Fail on a regression", "failed, 2 of 2 thresholds broken"),
        ("improvement", java1, java2, None, "passed, all 2 thresholds hold"),
    ]
    bad = 0
    for name, base, prof, want_failed, verdict in cases:
        work = tempfile.mkdtemp()
        try:
            failed, posted, summary = run_job(yaml, base_cmd, bin_dir, base, prof, work)
            problems = []
            if failed != want_failed:
                problems.append("the job failed at %r, not %r" % (failed, want_failed))
            if not posted:
                problems.append("no comment was posted")
            else:
                first = posted.split("\n", 1)[0]
                if verdict not in first:
                    problems.append("the comment's first line is %r" % first)
                if len(posted) > COMMENT_LIMIT:
                    problems.append("the comment has %d characters" % len(posted))
                if summary != posted:
                    problems.append("the step summary is not the comment")
            if not os.path.isfile(os.path.join(work, "repo", "diff.html")):
                problems.append("no diff.html artifact")
            if problems:
                bad += 1
                print("FAIL %s: %s" % (name, "; ".join(problems)))
        finally:
            shutil.rmtree(work)
    shutil.rmtree(bin_dir)
    print("ci_example: %d passed, %d failed" % (len(cases) - bad, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
