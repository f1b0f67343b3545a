#!/usr/bin/env python3
"""Trains examples/train/dlrm_train.mlir's model in PyTorch and compares.

The model's initial parameters, its batch and the learning rate are read
from the constants of @main in the .mlir file, so both trainings start from
the same values: three nn.EmbeddingBag tables (offsets sum; 2-D input mean;
weighted sum over sorted segments, as offsets), their pooled rows
concatenated, nn.Linear(12, 1), the mean squared error and torch.optim.SGD.
The MLIR program is compiled with embbag-opt --embbag-to-llvm and run with
mlir-runner; its printed losses ("loss X", one per step) and its trained
user table must match PyTorch's within TOLERANCE (relative, plus an
absolute 1e-6: the program prints 6 significant digits, and the two sum in
different orders).

  examples/train/check.py [--example F] [--embbag-opt P] [--mlir-runner P]
                          [--shared-libs L]
"""

import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "dlrm_train.mlir")
TOLERANCE = 1e-4


def read_constants(text):
    """{name: numpy array or float} of the `%name = arith.constant` ops."""
    found = {}
    pattern = re.compile(
        r"%(\w+) = arith\.constant (dense<(.*?)>|(-?[0-9.e+-]+))\s*:\s*"
        r"([^\n]+)", re.S)
    for name, _, dense, scalar, type_ in pattern.findall(text):
        if dense:
            found[name] = np.array(json.loads(dense))
        elif "index" not in type_:
            found[name] = float(scalar)
    return found


def steps_of(text):
    return int(re.search(r"%steps = arith\.constant (\d+)", text).group(1))


def train_in_torch(c, steps):
    """The losses of each step (before its update) and the user table."""
    torch.manual_seed(0)
    user = torch.nn.EmbeddingBag(8, 4, mode="sum")
    item = torch.nn.EmbeddingBag(6, 4, mode="mean")
    ctx = torch.nn.EmbeddingBag(5, 4, mode="sum")
    head = torch.nn.Linear(12, 1)
    with torch.no_grad():
        for module, name in ((user, "user0"), (item, "item0"), (ctx, "ctx0")):
            module.weight.copy_(torch.tensor(c[name], dtype=torch.float32))
        head.weight.copy_(torch.tensor(c["w0"], dtype=torch.float32)[None, :])
        head.bias.fill_(c["bias0"])
    params = [user.weight, item.weight, ctx.weight, head.weight, head.bias]
    opt = torch.optim.SGD(params, lr=c["lr"])
    uid = torch.tensor(c["uid"])
    uoff = torch.tensor(c["uoff"])
    iid = torch.tensor(c["iid"])
    cid = torch.tensor(c["cid"])
    cseg = c["cseg"]
    # Sorted segment ids as offsets: segment s starts at its first id.
    coff = torch.tensor(np.searchsorted(cseg, np.arange(4)))
    cw = torch.tensor(c["cw"], dtype=torch.float32)
    y = torch.tensor(c["y"], dtype=torch.float32)
    losses = []
    for _ in range(steps):
        x = torch.cat([user(uid, uoff), item(iid),
                       ctx(cid, coff, per_sample_weights=cw)], dim=1)
        loss = torch.nn.functional.mse_loss(head(x)[:, 0], y)
        losses.append(loss.item())
        opt.zero_grad()
        loss.backward()
        opt.step()
    return losses, user.weight.detach().numpy()


def run_mlir(args):
    lowered = subprocess.run(
        [args.embbag_opt, args.example, "--embbag-to-llvm"],
        check=True, capture_output=True, text=True).stdout
    out = subprocess.run(
        [args.mlir_runner, "-e", "main", "-entry-point-result=void",
         "-shared-libs=" + args.shared_libs],
        input=lowered, check=True, capture_output=True, text=True).stdout
    losses = [float(v) for v in re.findall(r"^loss (\S+)$", out, re.M)]
    rows = re.findall(r"\[([-0-9., e+]+)\]", out.split("data =", 1)[1])
    table = np.array([[float(v) for v in r.split(",")] for r in rows])
    return losses, table


def close(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(
        np.all(np.abs(a - b) <= TOLERANCE * np.abs(b) + 1e-6))


def main():
    llvm = "/usr/lib/llvm-22"
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--example", default=EXAMPLE,
                   help="the .mlir program (default: dlrm_train.mlir)")
    p.add_argument("--embbag-opt", default="embbag-opt")
    p.add_argument("--mlir-runner", default=os.path.join(llvm, "bin",
                                                         "mlir-runner"))
    p.add_argument("--shared-libs", default=",".join(
        os.path.join(llvm, "lib", lib)
        for lib in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")))
    args = p.parse_args()
    text = open(args.example).read()
    expected, expected_table = train_in_torch(read_constants(text),
                                              steps_of(text))
    got, table = run_mlir(args)
    for step, (g, e) in enumerate(zip(got, expected)):
        print("step %2d: loss %.6g (PyTorch %.6g)" % (step, g, e))
    falls = all(b < a for a, b in zip(got, got[1:]))
    ok = close(got, expected) and close(table, expected_table) and falls
    print("losses %s PyTorch's within %g; %s; trained user table %s" % (
        "match" if close(got, expected) else "DIFFER from", TOLERANCE,
        "the loss falls at every step" if falls else "the loss does NOT fall",
        "matches" if close(table, expected_table) else "DIFFERS"))
    print("OK" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
