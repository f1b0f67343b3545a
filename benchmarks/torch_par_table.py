#!/usr/bin/python3
"""Prints the Markdown table of the parallel embbag kernel timed in torch's
process (torch_bench.py --par-kernels): per case, torch and embbag
`parallel=1` on 1 and 2 threads, and each one's 2T/1T speed-up.

Usage: torch_par_table.py TORCH.TSV
"""
import sys


def main():
    times = {}  # name -> {threads: (torch ms, par ms)}
    with open(sys.argv[1]) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 5 or fields[4] == "-":
                continue
            name, threads = fields[0], int(fields[1])
            times.setdefault(name, {})[threads] = (float(fields[2]),
                                                   float(fields[4]))
    print("| case | torch 1T ms | torch 2T ms | torch 2T/1T "
          "| par 1T ms | par 2T ms | par 2T/1T |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for name, t in times.items():
        if 1 not in t or 2 not in t:
            continue
        (torch1, par1), (torch2, par2) = t[1], t[2]
        print(f"| {name} | {torch1:.3f} | {torch2:.3f} | {torch1 / torch2:.2f}x "
              f"| {par1:.3f} | {par2:.3f} | {par1 / par2:.2f}x |")


if __name__ == "__main__":
    main()
