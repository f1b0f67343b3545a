#!/usr/bin/env python3
"""Prints the PTX held by the gpu.binary ops of an MLIR file.

`gpu-module-to-binary{format=isa}` (the end of --embbag-to-nvvm) stores each
kernel module's PTX as the `assembly` string of a #gpu.object, with MLIR's
escapes (\\0A newline, \\09 tab, \\22 quote). This prints it as text, each
binary after a `// gpu.binary @NAME` line, so that it can be read, checked
with FileCheck, or given to ptxas.

    embbag-opt k.mlir --embbag-to-nvvm | utils/extract-ptx.py > k.ptx

With --param-bytes it prints instead, for each kernel entry, the bytes of
its parameters as ptxas lays them out (each aligned to its size): what PTX
bounds (4352 bytes before ISA 8.1, 32764 from 8.1 on).

    embbag-opt k.mlir --embbag-to-nvvm | utils/extract-ptx.py --param-bytes
"""

import re
import sys


def unescape(text):
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)),
                  text).replace("\\\\", "\\")


PARAM_BYTES = {"8": 1, "16": 2, "32": 4, "64": 8}


def param_bytes(ptx):
    """(entry name, parameter bytes) of each .entry of `ptx`."""
    for name, params in re.findall(r"\.entry\s+(\w+)\s*\((.*?)\)", ptx, re.S):
        size = 0
        for bits in re.findall(r"\.param\s+\.[a-z](8|16|32|64)\b", params):
            width = PARAM_BYTES[bits]
            size = (size + width - 1) // width * width + width
        yield name, size


def ptx_modules(source):
    """(gpu.binary name, PTX) of each object of the gpu.binary ops of the
    MLIR text `source`."""
    for name, objects in re.findall(
            r"gpu\.binary @(\w+)\s*(?:<[^>]*>)?\s*\[(.*?)\]\s*$", source,
            re.S | re.M):
        for ptx in re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', objects):
            yield name, unescape(ptx)


def main():
    args = [a for a in sys.argv[1:] if a != "--param-bytes"]
    sizes = "--param-bytes" in sys.argv[1:]
    source = open(args[0]).read() if args else sys.stdin.read()
    modules = list(ptx_modules(source))
    if not modules:
        sys.exit("extract-ptx: no gpu.binary in the input")
    for name, ptx in modules:
        if sizes:
            for entry, size in param_bytes(ptx):
                limit = 4352 if size <= 4352 else 32764
                print(f"{entry}: {size} parameter bytes"
                      f"{' (over 4352: PTX ISA 8.1)' if limit > 4352 else ''}"
                      f"{' (OVER THE LIMIT)' if size > limit else ''}")
            continue
        print(f"// gpu.binary @{name}")
        print(ptx)

if __name__ == "__main__":
    main()
