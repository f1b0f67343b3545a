#!/usr/bin/env python3
"""Prints the PTX held by the gpu.binary ops of an MLIR file.

`gpu-module-to-binary{format=isa}` (the end of --embbag-to-nvvm) stores each
kernel module's PTX as the `assembly` string of a #gpu.object, with MLIR's
escapes (\\0A newline, \\09 tab, \\22 quote). This prints it as text, each
binary after a `// gpu.binary @NAME` line, so that it can be read, checked
with FileCheck, or given to ptxas.

    embbag-opt k.mlir --embbag-to-nvvm | utils/extract-ptx.py > k.ptx
"""

import re
import sys


def unescape(text):
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)),
                  text).replace("\\\\", "\\")


def main():
    source = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    binaries = re.findall(r"gpu\.binary @(\w+)\s*(?:<[^>]*>)?\s*\[(.*?)\]\s*$",
                          source, re.S | re.M)
    if not binaries:
        sys.exit("extract-ptx: no gpu.binary in the input")
    for name, objects in binaries:
        for ptx in re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', objects):
            print(f"// gpu.binary @{name}")
            print(unescape(ptx))


if __name__ == "__main__":
    main()
