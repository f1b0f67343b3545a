"""Prints the dialect versions recorded in an MLIR bytecode file.

Reads the file format (mlir/docs/BytecodeFormat.md) as far as the string
and dialect sections: one line per dialect, "NAME: version BYTES" with the
hex bytes its writeVersion wrote, or "NAME: unversioned".
"""

import sys


def varint(data, pos):
    first = data[pos]
    if first & 1:
        return first >> 1, pos + 1
    if first == 0:
        return int.from_bytes(data[pos + 1 : pos + 9], "little"), pos + 9
    n = (first & -first).bit_length()  # trailing zeros + 1 = bytes used
    return int.from_bytes(data[pos : pos + n], "little") >> n, pos + n


def sections(data):
    assert data[:4] == b"ML\xefR", "not MLIR bytecode"
    _, pos = varint(data, 4)
    pos = data.index(b"\0", pos) + 1  # producer string
    while pos < len(data):
        ident = data[pos]
        length, pos = varint(data, pos + 1)
        if ident & 0x80:
            alignment, pos = varint(data, pos)
            while pos % alignment:
                pos += 1
        yield ident & 0x7F, data[pos : pos + length]
        pos += length


def main(path):
    data = open(path, "rb").read()
    found = dict(sections(data))
    strings_data = found[0]
    count, pos = varint(strings_data, 0)
    sizes = []
    for _ in range(count):
        size, pos = varint(strings_data, pos)
        sizes.append(size)
    strings = [None] * count
    end = len(strings_data)
    for i, size in zip(reversed(range(count)), sizes):
        strings[i] = strings_data[end - size : end - 1].decode()
        end -= size
    dialects = found[1]
    count, pos = varint(dialects, 0)
    for _ in range(count):
        value, pos = varint(dialects, pos)
        name, versioned = strings[value >> 1], value & 1
        if not versioned:
            print(f"{name}: unversioned")
            continue
        assert dialects[pos] == 7, "expected a dialect version section"
        length, pos = varint(dialects, pos + 1)
        print(f"{name}: version {dialects[pos:pos + length].hex()}")
        pos += length


if __name__ == "__main__":
    main(sys.argv[1])
