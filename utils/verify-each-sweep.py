#!/usr/bin/env python3
"""Runs embbag-opt --verify-each over every test and example input.

Each .mlir file under the given directories is run, split at `// -----`,
through each embbag pass and pipeline configuration below, with the IR
verified after every pass. Every run must either succeed or fail with a
diagnostic that has a location ("file:line:col: error:"). A crash, an
assertion, an "LLVM ERROR", a failure without a located error, a failure
on an op a pass made (IR that does not verify after an embbag pass), or a
timeout is reported with the command that reproduces it.

    verify-each-sweep.py --embbag-opt build/bin/embbag-opt test/ examples/
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

CONFIGS = [
    ["--embbag-verify-constants"],
    ["--convert-embbag-to-loops"],
    ["--convert-embbag-to-loops=checks=0 vector-bits=512 max-vectors=3"],
    ["--convert-embbag-to-linalg"],
    ["--convert-embbag-to-linalg=leave-unsupported"],
    ["--convert-embbag-assert-to-llvm"],
    ["--embbag-to-llvm"],
    ["--embbag-to-llvm=path=linalg"],
    ["--embbag-to-llvm=checks=0 vector-bits=128 max-vectors=1"],
    ["--embbag-to-llvm=parallel=1 prefetch-distance=0 unroll=2"],
    ["--embbag-to-llvm=parallel=1 batch-tables=1 batch-chunk=1"],
    ["--convert-embbag-to-gpu=leave-unsupported=1"],
    ["--embbag-to-llvm=path=gpu-loops"],
    ["--embbag-to-nvvm"],
]

LOCATED_ERROR = re.compile(r"^.+:\d+:\d+: error: ", re.MULTILINE)
# An error on an op a lowering made, not one of the input's: an upstream
# op that carries an embbag op's location (the lowering's ops take it) does
# not verify, e.g. "offset 1 is out-of-bounds: 0 >= 0" with the note "see
# current operation: ... tensor.extract_slice". The error's quoted source
# line holds the embbag op; the note names the failing op.
MADE_OP = re.compile(
    r"^.+:\d+:\d+: error: .*\n.*(?:= *|\")embbag\.\w+.*\n.*\^.*\n"
    r".+:\d+:\d+: note: see current operation: (?:%[^=]+= )?\"?"
    r"(?!embbag\.)[a-z_]+\.", re.MULTILINE)
BROKEN = re.compile(r"Assertion|LLVM ERROR|Stack dump|PLEASE submit|"
                    r"UNREACHABLE|Sanitizer|runtime error:")


def inputs(roots):
    for root in roots:
        for dirpath, _, files in os.walk(root):
            for name in sorted(files):
                if name.endswith(".mlir"):
                    yield os.path.join(dirpath, name)


def check(tool, path, config, timeout):
    cmd = [tool, "--verify-each", "--split-input-file", path] + config + \
        ["-o", os.devnull]
    shown = " ".join(cmd)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout} s: {shown}"
    if BROKEN.search(p.stderr) or p.returncode not in (0, 1):
        return f"exit code {p.returncode}: {shown}\n{p.stderr[-2000:]}"
    if p.returncode == 1 and not LOCATED_ERROR.search(p.stderr):
        return f"failed without a located error: {shown}\n{p.stderr[-2000:]}"
    if p.returncode == 1 and MADE_OP.search(p.stderr):
        return f"a pass made IR that does not verify: {shown}\n" \
            f"{p.stderr[-2000:]}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embbag-opt", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("roots", nargs="+")
    a = ap.parse_args()

    jobs = [(path, config) for path in inputs(a.roots) for config in CONFIGS]
    problems = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(check, a.embbag_opt, path, config, a.timeout)
                   for path, config in jobs]
        for future in futures:
            problem = future.result()
            if problem:
                problems.append(problem)
    for problem in problems:
        print("verify-each-sweep: " + problem)
    files = len({path for path, _ in jobs})
    print(f"verify-each-sweep: {files} files x {len(CONFIGS)} configurations, "
          f"{len(jobs) - len(problems)} clean, {len(problems)} broken")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
