"""Runs a command (its output discarded) and prints its peak resident size in KiB, or -1 when
it fails: the memory bounds of the shell suites (hostile.sh, import.sh, unsorted.sh, diff.sh).
    python3 tests/tools/peak_rss.py CMD [ARG...]"""
import resource
import subprocess
import sys

r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else -1)
