#!/usr/bin/env python3
"""A small FileCheck for the GPU machine, which has no LLVM: checks stdin
against the CHECK / CHECK-NEXT lines of a lit test (literal text with
{{regex}} parts, in order, CHECK-NEXT on the line after the last match),
so that benchmarks/gpu/run.sh can run the programs of the `REQUIRES: cuda`
tests on libraries built on the build machine and check them as lit does.

    filecheck.py TEST_FILE < OUTPUT       # exit 0 if every line matched
"""
import re
import sys


def pattern(text):
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile("".join(p if i % 2 else re.escape(p)
                              for i, p in enumerate(parts)))


def main():
    checks = []
    for line in open(sys.argv[1]):
        m = re.search(r"\bCHECK(-NEXT)?:\s?(.*)$", line)
        if m:
            checks.append((bool(m.group(1)), pattern(m.group(2).strip())))
    lines = sys.stdin.read().splitlines()
    pos = 0
    for is_next, regex in checks:
        candidates = [pos] if is_next else range(pos, len(lines))
        found = next((i for i in candidates
                      if i < len(lines) and regex.search(lines[i])), None)
        if found is None:
            print(f"filecheck: no match for {regex.pattern!r} from line "
                  f"{pos + 1}", file=sys.stderr)
            return 1
        pos = found + 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
