#!/usr/bin/env python3
"""Imports a model, compiles @forward, runs it and compares with PyTorch.

    check.py MODEL.py [--weights=resource|args] [--dynamic]
             [--mlir OUT.mlir] [--embbag-aot PATH] [--workdir DIR]
             [--pipeline-options "OPTIONS"]

Imports MODEL.py as utils/torch-import does (or takes the file
utils/torch-import wrote, --mlir, which needs a make_model() that builds the
same weights every time, e.g. seeded), compiles it with embbag-aot (the
embbag-to-llvm pipeline, checks on, with --pipeline-options or else the
options of the model file's `PIPELINE_OPTIONS = "..."` line) and calls @forward through ctypes on
example_inputs() (with --weights=args, the tables first). Prints each
output's max abs error against the model run by PyTorch, then `OK` or
`FAIL`; exits non-zero on FAIL.

The reference is the model itself. Where torch cannot run it (nn.EmbeddingBag
on bf16 tables: torch 1.13 has no CPU kernel), it is the model run on float64
copies of its tables and inputs, rounded to bf16, which is what embbag
computes (accumulation in f32, one rounding).
"""

import argparse
import copy
import os
import re
import shutil
import sys
import tempfile

try:
    import torch
except ImportError:  # a python without torch: use Debian's
    _sys_py = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(_sys_py) and \
            os.path.exists(_sys_py) and not os.environ.get("TORCH_IMPORT_REEXEC"):
        os.environ["TORCH_IMPORT_REEXEC"] = "1"
        os.execv(_sys_py, [_sys_py] + sys.argv)
    sys.exit("check.py: PyTorch is required (apt-get install python3-torch)")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import importer  # noqa: E402
import runner  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))

# Allowed |got - expected| <= ATOL + RTOL * |expected|, by the output's type.
# f32: the sums' order differs from torch's; f16 / bf16: embbag accumulates
# in f32 and rounds once, torch's kernels may round more often: a few ulps.
TOLERANCES = {
    torch.float64: (1e-12, 1e-12),
    torch.float32: (1e-6, 1e-5),
    torch.float16: (1e-3, 4 * 2.0 ** -10),
    torch.bfloat16: (1e-2, 4 * 2.0 ** -7),
}


def flatten(x):
    if isinstance(x, (tuple, list)):
        return [t for item in x for t in flatten(item)]
    return [x]


def reference(model, inputs, result_types):
    """The model's outputs (flattened), computed by torch; `result_types`
    (@forward's) give the dtypes when the model runs in float64."""
    with torch.no_grad():
        try:
            return flatten(model(*inputs))
        except RuntimeError:
            if not any(p.dtype == torch.bfloat16 for p in model.parameters()):
                raise
        wide = copy.deepcopy(model).double()
        wide_inputs = [x.double() if x.is_floating_point() else x for x in inputs]
        outs = flatten(wide(*wide_inputs))
    dtypes = [runner.BUFFER_TYPES[runner.element_type(t)][1] for t in result_types]
    return [o.to(d) for o, d in zip(outs, dtypes)]


def model_pipeline_options(path):
    """The model file's `PIPELINE_OPTIONS = "..."` line (the options of
    embbag-to-llvm it is compiled with), or ""."""
    with open(path) as f:
        m = re.search(r'^PIPELINE_OPTIONS = "([^"]*)"$', f.read(), re.M)
    return m.group(1) if m else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", metavar="MODEL.py")
    parser.add_argument("--weights", choices=("resource", "args"),
                        default="resource")
    parser.add_argument("--dynamic", action="store_true")
    parser.add_argument("--mlir", help="the file utils/torch-import wrote")
    parser.add_argument("--embbag-aot", default=None,
                        help="default: build/bin/embbag-aot, else on PATH")
    parser.add_argument("--workdir", help="keep the compiled files here")
    parser.add_argument("--pipeline-options", default=None,
                        help="options of embbag-to-llvm (default: the "
                             "model file's PIPELINE_OPTIONS line, if any)")
    args = parser.parse_args()

    aot = args.embbag_aot
    if aot is None:
        built = os.path.join(ROOT, "build", "bin", "embbag-aot")
        aot = built if os.path.exists(built) else shutil.which("embbag-aot")
    if not aot:
        sys.exit("check.py: no embbag-aot (build it, or pass --embbag-aot)")

    options = args.pipeline_options
    if options is None:
        options = model_pipeline_options(args.model)
    if options:
        print("pipeline options: %s" % options)

    try:
        make_model, example_inputs = importer.load_model_file(args.model)
        model = make_model()
        inputs = tuple(example_inputs())
        imp = importer.Importer(model, inputs, weights=args.weights,
                                dynamic=args.dynamic)
        if args.mlir:
            with open(args.mlir) as f:
                text = f.read()
        else:
            text = imp.emit()
    except importer.ImportError_ as e:
        print("check.py: import error: %s" % e, file=sys.stderr)
        return 1

    try:
        result_types = runner.parse_signature(text)[1]
    except runner.RunError as e:
        print("check.py: %s" % e, file=sys.stderr)
        print("FAIL")
        return 1
    expected = reference(model, inputs, result_types)
    tables = [t.param for t in imp.tables] if args.weights == "args" else []

    workdir = args.workdir or tempfile.mkdtemp(prefix="torch-import-check-")
    os.makedirs(workdir, exist_ok=True)
    try:
        forward = runner.compile_forward(text, workdir, embbag_aot=aot,
                                         pipeline_options=options)
        got = forward.call(list(tables) + list(inputs),
                           [tuple(e.shape) for e in expected])
    except runner.RunError as e:
        print("check.py: %s" % e, file=sys.stderr)
        print("FAIL")
        return 1
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)

    ok = len(got) == len(expected)
    if not ok:
        print("@forward has %d results, the model %d outputs"
              % (len(got), len(expected)))
    for k, (g, e) in enumerate(zip(got, expected)):
        dtype = g.dtype
        if tuple(g.shape) != tuple(e.shape):
            print("output %d: shape %s, expected %s"
                  % (k, list(g.shape), list(e.shape)))
            ok = False
            continue
        g64, e64 = g.double(), e.double()
        err = (g64 - e64).abs()
        max_err = err.max().item() if err.numel() else 0.0
        atol, rtol = TOLERANCES[dtype]
        good = bool((err <= atol + rtol * e64.abs()).all())
        print("output %d: %s %s, max abs error %.3g%s"
              % (k, str(dtype).replace("torch.", ""), list(g.shape), max_err,
                 "" if good else "  (over the tolerance)"))
        ok = ok and good
    print("OK" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
