#!/usr/bin/env python3
"""Seeds embbag-fuzz with the inputs of the lit tests and the examples.

Every .mlir file under the given directories is split at the `// -----`
markers of -split-input-file, as embbag-opt would split it, and each piece is
written to OUT_DIR under the hash of its text (so that re-running is
idempotent and duplicates collapse).

    make-corpus.py OUT_DIR test/ examples/
"""

import hashlib
import os
import re
import sys

SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)


def pieces(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for piece in SPLIT.split(text):
        if piece.strip():
            yield piece


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out_dir, roots = argv[1], argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    written = 0
    for root in roots:
        for dirpath, _, files in os.walk(root):
            for name in sorted(files):
                if not name.endswith(".mlir"):
                    continue
                for piece in pieces(os.path.join(dirpath, name)):
                    data = piece.encode()
                    digest = hashlib.sha1(data).hexdigest()
                    with open(os.path.join(out_dir, digest), "wb") as f:
                        f.write(data)
                    written += 1
    print(f"make-corpus: {written} seed inputs in {out_dir}")
    if written == 0:
        sys.exit("make-corpus: no .mlir inputs found")


if __name__ == "__main__":
    main(sys.argv)
