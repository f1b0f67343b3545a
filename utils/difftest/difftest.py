#!/usr/bin/env python3
"""Differential tester of the embbag lowering against reference.py.

For each random case (gen.py) it writes a standalone MLIR module, compiles it
with `embbag-opt --embbag-to-llvm`, runs it with `mlir-runner`, parses the
printed memref and compares it with the NumPy reference (reference.py).
Runtime-invalid cases (about 10%) must compile, then stop with a non-zero exit
status and a message on stderr naming the op (e.g. `embbag.offsets`).

    difftest.py --seed 1 --count 300                 # the lit test's run
    difftest.py --seed 7 --count 5000 --jobs 2       # a long run
    difftest.py --seed 1 --count 1000 --parse-only   # parse + verify only
    difftest.py --seed 1 --count 300 --mock          # check the harness itself
    difftest.py --oracle torch --seed 1 --count 120  # torch as the oracle
    difftest.py --oracle rowwise --seed 1 --count 100  # quantized tables

Ends with the line `difftest: N cases, P passed, F failed` and exits non-zero
when a case fails; each failure prints the case file (kept) and a diff.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

try:
    import numpy as np
except ImportError:  # e.g. a pyenv python without numpy: use the system one
    _sys_py = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(_sys_py) and \
            os.path.exists(_sys_py) and not os.environ.get("DIFFTEST_REEXEC"):
        os.environ["DIFFTEST_REEXEC"] = "1"
        os.execv(_sys_py, [_sys_py] + sys.argv)
    sys.exit("difftest: numpy is required (apt-get install python3-numpy)")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import reference as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))

# Tolerances: relative to |expected|, plus a tiny absolute one for printing.
# printMemrefF32/F64 print 6 significant digits (relative error <= 5e-6).
# The generated float inputs keep every sum exact in the accumulation type,
# so sums must match up to printing; a mean adds the division's rounding, and
# for f16 / bf16 the rounding of that quotient to T may differ by one ulp of T
# when the lowering divides differently (e.g. multiplies by 1 / count).
RTOL = {
    ("f32", "sum"): 1e-5, ("f32", "mean"): 1e-5,
    ("f64", "sum"): 1e-5, ("f64", "mean"): 1e-5,
    ("f16", "sum"): 1e-5, ("f16", "mean"): 2.0 ** -9,
    ("bf16", "sum"): 1e-5, ("bf16", "mean"): 2.0 ** -6,
    # max is exact (the tolerance is printMemref's 6 digits); sqrtn rounds
    # like mean, plus a square root (and the weights' norm summed in another
    # order).
    ("f32", "max"): 1e-5, ("f64", "max"): 1e-5, ("f16", "max"): 1e-5,
    ("bf16", "max"): 1e-5,
    ("f32", "sqrtn"): 1e-5, ("f64", "sqrtn"): 1e-5, ("f16", "sqrtn"): 2.0 ** -9,
    ("bf16", "sqrtn"): 2.0 ** -6,
}
ATOL = 1e-7

# How a stop message may name the input of each check (only reported, with
# --verbose: when several checks fail, which one fires first is not fixed).
CHECK_WORDS = {"index": r"(?<!default )ind(ex|ices)", "default": r"default",
               "offset": r"offset", "segment_id": r"segment[ _]id",
               "num_segments": r"num_segments|number of segments",
               "padding_idx": r"padding_idx"}

NUM_RE = re.compile(r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def default_tool(name, fallbacks):
    for f in fallbacks:
        if f and os.path.exists(f):
            return f
    found = shutil.which(name)
    return found or fallbacks[-1]


def parse_memref(stdout):
    """(sizes, values) of the first printMemref output in `stdout`; values
    are Python ints or floats in row-major order (empty when a size is 0,
    printMemref then prints garbage)."""
    k = stdout.find("Unranked Memref")
    if k < 0:
        raise ValueError("no 'Unranked Memref' in the output")
    text = stdout[k:]
    m = re.search(r"sizes = \[([^\]]*)\]", text)
    d = text.find("data =")
    if not m or d < 0:
        raise ValueError("malformed printMemref output")
    sizes = [int(s) for s in m.group(1).split(",") if s.strip()]
    total = 1
    for s in sizes:
        total *= s
    if total == 0:
        return sizes, []
    body = text[d + len("data ="):]
    # Only this memref: stop at a following print, if any.
    nxt = body.find("Unranked Memref")
    if nxt >= 0:
        body = body[:nxt]
    toks = NUM_RE.findall(body)
    vals = []
    for t in toks:
        if re.fullmatch(r"[-+]?\d+", t):
            vals.append(int(t))
        else:
            vals.append(float(t))
    if len(vals) != total:
        raise ValueError("printed %d values for sizes %s" % (len(vals), sizes))
    return sizes, vals


def compare(case, exp, sizes, vals):
    """A list of lines describing the differences (empty when equal)."""
    diff = []
    exp = np.asarray(exp)
    if list(exp.shape) != sizes:
        return ["sizes: expected %s, got %s" % (list(exp.shape), sizes)]
    if exp.size == 0:
        return []
    etype = case["etype"]
    flat_exp = list(exp.ravel())
    # Row-wise quantized cases (rowwise.py) bring a bound per element.
    flat_tol = None
    if case.get("tol") is not None:
        flat_tol = list(np.asarray(case["tol"], dtype=np.float64).ravel())
    bad = 0
    for k, (e, g) in enumerate(zip(flat_exp, vals)):
        if ref.is_int(etype):
            gi = ref.wrap_int(int(g), etype) if isinstance(g, int) else None
            ok = gi == int(e)
            shown = gi if gi is not None else g
        else:
            g = float(g)
            e = float(e)
            if flat_tol is None:
                tol = ATOL + RTOL[(etype, case["reduction"])] * abs(e)
            else:
                tol = ref.rowwise_tolerance(etype, e, g, flat_tol[k])
            # Equal infinities (an f16 sum that overflows) differ by NaN.
            ok = (g == e or abs(g - e) <= tol
                  or (np.isnan(g) and np.isnan(e)))
            shown = g
        if not ok:
            bad += 1
            if bad <= 12:
                pos = np.unravel_index(k, exp.shape)
                diff.append("  at %s: expected %r, got %r"
                            % (list(int(p) for p in pos), e, shown))
    if bad:
        diff.insert(0, "%d of %d elements differ:" % (bad, exp.size))
        if bad > 12:
            diff.append("  ...")
    return diff


def run(cmd, stdin=None, timeout=None):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %s s" % timeout


class Runner:
    def __init__(self, args):
        self.a = args
        # The cases and their expected values: the NumPy reference (gen) or
        # torch (torch_oracle), imported only when asked for.
        if args.oracle == "torch":
            import torch_oracle
            self.oracle = torch_oracle
        elif args.oracle == "rowwise":
            import rowwise
            self.oracle = rowwise
        else:
            self.oracle = gen
        self.workdir = tempfile.mkdtemp(prefix="difftest-")
        self.faildir = args.keep_failures
        self.lock = threading.Lock()

    def fail_dir(self):
        with self.lock:
            if not self.faildir:
                self.faildir = tempfile.mkdtemp(prefix="difftest-failures-")
            os.makedirs(self.faildir, exist_ok=True)
            return self.faildir

    def compile_cmd(self, path):
        a = self.a
        if a.parse_only:
            return [a.embbag_opt] + shlex.split(a.parse_args) + [path, "-o",
                                                            os.devnull]
        if a.mock:
            return [a.mlir_opt] + MOCK_PIPELINE + [path]
        return [a.embbag_opt] + shlex.split(a.pipeline) + [path]

    def run_cmd(self):
        a = self.a
        return [a.mlir_runner, "-e", "main", "-entry-point-result=void",
                "-shared-libs=" + a.shared_libs]

    def one(self, index):
        """Runs case `index`; returns (ok, status, report lines)."""
        a = self.a
        case = self.oracle.generate(a.seed, index)
        try:
            exp = self.oracle.expected(case)
            invalid = False
        except ref.ContractViolation:
            exp = None
            invalid = True
        if invalid and (a.mock or a.skip_invalid):
            return True, "skipped", []
        text = gen.emit_module(case, mock_result=exp if a.mock else None)
        name = "case-%d-%05d.mlir" % (a.seed, index)
        path = os.path.join(self.workdir, name)
        with open(path, "w") as f:
            f.write(text)
        report = []
        ok, status = self._check(case, exp, invalid, path, report)
        if ok:
            os.unlink(path)
        else:
            keep = os.path.join(self.fail_dir(), name)
            shutil.copyfile(path, keep)
            os.unlink(path)
            report = [l.replace(path, keep) for l in report]
            report.insert(0, "FAIL %s (%s): %s" % (keep, gen.describe(case),
                                                 status))
            report.append("  reproduce: %s" % self.repro(keep))
        return ok, status, report

    def repro(self, path):
        a = self.a
        if a.parse_only:
            return shlex.join(self.compile_cmd(path))
        return "%s | %s" % (shlex.join(self.compile_cmd(path)),
                            shlex.join(self.run_cmd()))

    def _check(self, case, exp, invalid, path, report):
        a = self.a
        rc, out, err = run(self.compile_cmd(path), timeout=a.timeout)
        if rc != 0:
            report.append("  compile failed (exit %s):" % rc)
            report.extend("    " + l for l in err.strip().splitlines()[:30])
            return False, "compile error"
        if a.parse_only:
            return True, "parsed"
        rc, rout, rerr = run(self.run_cmd(), stdin=out, timeout=a.timeout)
        opname = "embbag." + case["op"]
        if invalid:
            expect = "; ".join("%s: %s" % c for c in case["checks"])
            if rc == 0:
                report.append("  expected a runtime failure naming %s "
                              "(contract: %s), but the program exited 0"
                              % (opname, expect))
                report.extend("    " + l for l in rout.strip().splitlines()[:10])
                return False, "invalid input not detected"
            if rc is None:
                report.append("  timed out (expected a stop naming %s)" % opname)
                return False, "timeout"
            if opname not in rerr:
                report.append("  exit %s as expected, but stderr does not name "
                              "%s (contract: %s); stderr:" % (rc, opname, expect))
                report.extend("    " + l for l in rerr.strip().splitlines()[:10])
                return False, "message without the op name"
            if a.verbose:
                first = [l for l in rerr.splitlines() if opname in l][0]
                report.append("  stopped as expected: %s" % first[:200])
                words = [CHECK_WORDS[c[0]] for c in case["checks"]]
                if not any(re.search(w, rerr, re.I) for w in words):
                    report.append("  note: the message names none of the "
                                  "broken inputs (%s)" % expect)
            return True, "stopped"
        if rc != 0:
            report.append("  run failed (exit %s):" % rc)
            report.extend("    " + l for l in (rerr or "").strip().splitlines()[:20])
            return False, "runtime error"
        try:
            sizes, vals = parse_memref(rout)
        except ValueError as e:
            report.append("  cannot parse the output: %s" % e)
            report.extend("    " + l for l in rout.strip().splitlines()[:10])
            return False, "unparsable output"
        diff = compare(case, exp, sizes, vals)
        if diff:
            report.extend("  " + l for l in diff)
            return False, "wrong result"
        return True, "passed"


MOCK_PIPELINE = [
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--buffer-deallocation-pipeline", "--convert-bufferization-to-memref",
    "--convert-linalg-to-loops", "--convert-vector-to-scf", "--lower-affine",
    "--convert-scf-to-cf", "--expand-strided-metadata",
    "--finalize-memref-to-llvm", "--convert-to-llvm",
    "--reconcile-unrealized-casts",
]


def main(argv=None):
    llvm_bin = "/usr/lib/llvm-22/bin"
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1, help="case sequence (default 1)")
    p.add_argument("--count", type=int, default=100, help="number of cases")
    p.add_argument("--start", type=int, default=0,
                   help="first case index (to rerun one case: --start K --count 1)")
    p.add_argument("--embbag-opt",
                   default=default_tool("embbag-opt", [
                       os.path.join(ROOT, "build", "bin", "embbag-opt")]),
                   help="embbag-opt binary (default: build/bin/embbag-opt)")
    p.add_argument("--pipeline", default="--embbag-to-llvm",
                   help="embbag-opt arguments that lower a case to the LLVM "
                        "dialect (default: --embbag-to-llvm)")
    p.add_argument("--mlir-runner", default=default_tool(
        "mlir-runner", [os.path.join(llvm_bin, "mlir-runner")]))
    p.add_argument("--mlir-opt", default=default_tool(
        "mlir-opt", [os.path.join(llvm_bin, "mlir-opt")]),
        help="upstream mlir-opt, only for --mock")
    p.add_argument("--shared-libs", default=None,
                   help="comma-separated runtime libraries (default: "
                        "libmlir_runner_utils and libmlir_c_runner_utils next "
                        "to mlir-runner)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    p.add_argument("--timeout", type=float, default=300,
                   help="seconds per compile or run")
    p.add_argument("--keep-failures", metavar="DIR", default=None,
                   help="directory for the failing case files (default: a new "
                        "temporary directory)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="one line per case")
    p.add_argument("--parse-only", action="store_true",
                   help="only parse and verify each case with embbag-opt")
    p.add_argument("--skip-invalid", action="store_true",
                   help="skip the runtime-invalid cases (for pipelines "
                        "without checks, e.g. --embbag-to-llvm=checks=false)")
    p.add_argument("--parse-args", default="", metavar="ARGS",
                   help="extra embbag-opt arguments for --parse-only, e.g. "
                        "--parse-args=--embbag-verify-constants")
    p.add_argument("--oracle", choices=["numpy", "torch", "rowwise"],
                   default="numpy",
                   help="where the cases and expected values come from: "
                        "reference.py's cases of the whole dialect (default), "
                        "torch_oracle.py's cases of the part that "
                        "torch.nn.functional.embedding_bag implements, "
                        "computed by torch, or rowwise.py's cases of "
                        "row-wise quantized tables (torch-prepacked; "
                        "expected values from torch's quantized bag kernels "
                        "where they apply, else from reference.py)")
    p.add_argument("--sorted-segments", action="store_true",
                   help="generate sorted segment ids only (the GPU kernels "
                        "need them sorted, and stop on others)")
    p.add_argument("--mock", action="store_true",
                   help="self-test of the harness: replace each op by a "
                        "constant holding the reference result and lower with "
                        "upstream mlir-opt passes (runtime-invalid cases are "
                        "skipped)")
    a = p.parse_args(argv)
    gen.SORTED_SEGMENTS = a.sorted_segments
    if a.shared_libs is None:
        libdir = os.path.join(os.path.dirname(os.path.dirname(
            os.path.realpath(a.mlir_runner))), "lib")
        a.shared_libs = ",".join(os.path.join(libdir, l) for l in (
            "libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))

    runner = Runner(a)
    indices = range(a.start, a.start + a.count)
    passed = failed = skipped = 0
    try:
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for index, (ok, status, report) in zip(
                    indices, pool.map(runner.one, indices)):
                if status == "skipped":
                    skipped += 1
                elif ok:
                    passed += 1
                else:
                    failed += 1
                if a.verbose:
                    print("case %d:%d: %s" % (a.seed, index, status), flush=True)
                if report and (not ok or a.verbose):
                    print("\n".join(report), flush=True)
    finally:
        shutil.rmtree(runner.workdir, ignore_errors=True)
    total = passed + failed
    extra = " (%d runtime-invalid cases skipped)" % skipped if skipped else ""
    print("difftest: %d cases, %d passed, %d failed%s" % (total, passed, failed,
                                                        extra))
    if failed and runner.faildir:
        print("difftest: failing cases kept in %s" % runner.faildir)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
