#!/usr/bin/env python3
"""Differential test of table batching: many random ops in one function.

Each group is 2 to 7 (--max-tables) random cases of gen.py (and, with
--rowwise, of rowwise.py: quantized tables) put in one public function
`@tables`, which takes every operand (static or `?` shapes, as each case draws them) and
returns every result, so that `batch-tables` lowers them together: mixed
forms, reductions, clauses, element types, index types and row shapes in
one kernel. `@main` calls it ({no_inline}, nothing known at compile time)
and prints each result; each is compared with its case's expected value
(reference.py, or rowwise.py's oracle).

With --invalid-every M, every M-th group has one table whose inputs break
the runtime contract (gen.py's invalid cases): the program must stop with a
message naming that table's op at its line, whichever chunk of the loop (or
block of the launch) reads it; with --unbatched PIPELINE, with the same
message as the group compiled by PIPELINE (the ops lowered one by one).

    batch.py --seed 1 --count 40 --rowwise \\
        --pipeline='--embbag-to-llvm="parallel=1 batch-tables=1 batch-chunk=4"'

    # the GPU kernels in one launch per group, run on the host
    batch.py --seed 1 --count 20 --rowwise --sorted-segments \\
        --invalid-every 3 \\
        --pipeline='--embbag-to-llvm="path=gpu-loops parallel=1 batch-tables=1"' \\
        --unbatched='--embbag-to-llvm="path=gpu-loops"'

Ends with `batchtest: N groups, P passed, F failed`; exits non-zero on a
failure, whose module is kept (--keep-failures DIR) with the command that
reproduces it.
"""

import argparse
import os
import shlex
import shutil
import sys
import tempfile

import difftest  # noqa: E402  (re-executes with /usr/bin/python3 if needed)
import gen  # noqa: E402
import reference as ref  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def make_group(seed, group, rowwise, invalid, max_tables=7):
    """The cases of group `group`, 2 to `max_tables` (at most 16): each in
    the call placement (its operands are arguments of @tables); one of them
    runtime-invalid when `invalid`."""
    import numpy as np
    rng = np.random.default_rng([int(seed), int(group), 77])
    count = int(rng.integers(2, max_tables + 1))
    bad = int(rng.integers(count)) if invalid else -1
    cases = []
    for t in range(count):
        index = group * 16 + t
        if rowwise and t != bad and rng.random() < 0.3:
            import rowwise as rw
            case = rw.generate(seed, index)
        else:
            case = gen.generate(seed, index, invalid=(t == bad))
        case["placement"] = "call"
        cases.append(case)
    return cases


def expected_of(case):
    """The expected result, or None for a runtime-invalid case."""
    try:
        if case.get("rowwise"):
            import rowwise as rw
            return rw.expected(case)
        return gen.expected(case)
    except ref.ContractViolation:
        return None


def emit_group(cases):
    """The module: @tables with every op, a printer per result, @main."""
    lines, decls = [], set()
    params, arg_types, op_lines, results = [], [], [], []
    main_lines, call_args = [], []
    for t, case in enumerate(cases):
        lines.append("// table %d: %s" % (t, gen.describe(case)))
        masks = case["dyn"]
        names, types = {}, []
        for name, shape, elt, scalar, value in gen._operands(case):
            arg = "t%d_%s" % (t, name)
            names[name] = arg
            st = elt if scalar else gen.tensor_type(shape, elt)
            dt = elt if scalar else gen.tensor_type(shape, elt, masks[name])
            params.append("%%%s: %s" % (arg, dt))
            types.append(dt)
            if scalar:
                main_lines.append("  %%%s = arith.constant %d : %s"
                                  % (arg, value, elt))
            else:
                main_lines.append("  %%%s_c = arith.constant %s : %s"
                                  % (arg, gen.dense(value, elt), st))
                source = arg + "_c"
                if dt != st:
                    main_lines.append("  %%%s = tensor.cast %%%s : %s to %s"
                                      % (arg, source, st, dt))
                    source = arg
                call_args.append(("%" + source, dt))
                continue
            call_args.append(("%" + arg, dt))
        res_type, res_dyn = gen.result_type_of(case, masks,
                                               num_segments_const=False)
        op_lines.append("  %%r%d = %s" % (t, gen._op_text(case, names, types,
                                                         res_type)))
        results.append((res_type, res_dyn))
        pelt = gen.PRINT_AS[case["etype"]]
        decls.add("func.func private @%s(memref<*x%s>) attributes "
                  "{ llvm.emit_c_interface }" % (gen.PRINT_FN[pelt], pelt))
    lines.append("")
    lines.extend(sorted(decls))
    lines.append("")
    res_types = [r[0] for r in results]
    lines.append("func.func @tables(%s) -> (%s) {" % (", ".join(params),
                                                    ", ".join(res_types)))
    lines.extend(op_lines)
    lines.append("  return %s : %s" % (", ".join("%%r%d" % t for t in
                                                 range(len(cases))),
                                       ", ".join(res_types)))
    lines.append("}")
    for t, case in enumerate(cases):
        res_type, res_dyn = results[t]
        lines.append("")
        lines.append("func.func @print_%d(%%result: %s) {" % (t, res_type))
        lines.extend(printer(case, res_type, res_dyn))
        lines.append("  return")
        lines.append("}")
    lines.append("")
    lines.append("func.func @main() {")
    lines.extend(main_lines)
    lines.append("  %%r:%d = call @tables(%s) {no_inline}" % (
        len(cases), ", ".join(a for a, _ in call_args)))
    lines.append("      : (%s) -> (%s)" % (", ".join(t for _, t in call_args),
                                          ", ".join(res_types)))
    for t in range(len(cases)):
        lines.append("  call @print_%d(%%r#%d) : (%s) -> ()"
                     % (t, t, res_types[t]))
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def printer(case, res_type, res_dyn):
    """The body printing %result: gen.py's epilogue, whose printing
    function always takes a memref here (one declaration per function for
    all the results)."""
    etype, shape = case["etype"], gen.expected_shape(case)
    pelt = gen.PRINT_AS[etype]
    if pelt != etype:
        return gen._epilogue(etype, shape, res_dyn, res_type)
    rank = len(shape)
    dims = "x".join(["?" if res_dyn[k] else str(shape[k]) for k in range(rank)]
                    + [etype])
    btype = "memref<%s, strided<[%s], offset: ?>>" % (
        dims, ", ".join(["?"] * rank))
    return ["  %%buf = bufferization.to_buffer %%result : %s to %s"
            % (res_type, btype),
            "  %%printed = memref.cast %%buf : %s to memref<*x%s>"
            % (btype, etype),
            "  call @%s(%%printed) : (memref<*x%s>) -> ()"
            % (gen.PRINT_FN[pelt], etype)]


def op_line(module, table):
    """The line number (from 1) of table `table`'s op in `module`."""
    prefix = "  %%r%d = embbag." % table
    for number, line in enumerate(module.splitlines(), 1):
        if line.startswith(prefix):
            return number
    raise ValueError("no op of table %d" % table)


def stop_line(stderr):
    """The first line of `stderr` that names an embbag op, or None."""
    for line in (stderr or "").splitlines():
        if "embbag." in line:
            return line
    return None


def split_prints(stdout):
    """The printMemref outputs of `stdout`, one string each."""
    marker = "Unranked Memref"
    parts = stdout.split(marker)[1:]
    return [marker + p for p in parts]


def check_group(args, cases, path):
    """(ok, status, report lines) of the module at `path`."""
    report = []
    compile_cmd = [args.embbag_opt] + shlex.split(args.pipeline) + [path]
    run_cmd = [args.mlir_runner, "-e", "main", "-entry-point-result=void",
               "-shared-libs=" + args.shared_libs]
    rc, out, err = difftest.run(compile_cmd, timeout=args.timeout)
    if rc != 0:
        report.append("  compile failed (exit %s):" % rc)
        report.extend("    " + l for l in err.strip().splitlines()[:30])
        return False, "compile error", report, compile_cmd, run_cmd
    rc, rout, rerr = difftest.run(run_cmd, stdin=out, timeout=args.timeout)
    exps = [expected_of(c) for c in cases]
    invalid = [t for t, e in enumerate(exps) if e is None]
    if invalid:
        with open(path) as f:
            module = f.read()
        names = ["embbag.%s at %s:%d:" % (cases[t]["op"], path,
                                           op_line(module, t))
                 for t in invalid]
        stop = stop_line(rerr)
        if rc == 0 or rc is None or not any(n in (stop or "")
                                            for n in names):
            report.append("  expected a stop naming %s, got exit %s; stderr:"
                          % (" or ".join(names), rc))
            report.extend("    " + l for l in rerr.strip().splitlines()[:10])
            return False, "invalid input not detected", report, compile_cmd, \
                run_cmd
        if args.unbatched:
            same, lines = same_stop(args, path, stop)
            report.extend(lines)
            if not same:
                return False, "another stop than unbatched", report, \
                    compile_cmd, run_cmd
        return True, "stopped", report, compile_cmd, run_cmd
    if rc != 0:
        report.append("  run failed (exit %s):" % rc)
        report.extend("    " + l for l in (rerr or "").strip().splitlines()[:20])
        return False, "runtime error", report, compile_cmd, run_cmd
    prints = split_prints(rout)
    if len(prints) != len(cases):
        report.append("  printed %d results for %d tables"
                      % (len(prints), len(cases)))
        return False, "missing output", report, compile_cmd, run_cmd
    ok = True
    for t, (case, exp, text) in enumerate(zip(cases, exps, prints)):
        try:
            sizes, vals = difftest.parse_memref(text)
        except ValueError as e:
            report.append("  table %d: cannot parse the output: %s" % (t, e))
            ok = False
            continue
        diff = difftest.compare(case, exp, sizes, vals)
        if diff:
            report.append("  table %d (%s):" % (t, gen.describe(case)))
            report.extend("    " + l for l in diff)
            ok = False
    return ok, "passed" if ok else "wrong result", report, compile_cmd, run_cmd


def same_stop(args, path, stop):
    """(whether the group compiled with --unbatched stops with the message
    `stop`, report lines)."""
    compile_cmd = [args.embbag_opt] + shlex.split(args.unbatched) + [path]
    rc, out, err = difftest.run(compile_cmd, timeout=args.timeout)
    if rc != 0:
        return False, ["  unbatched: compile failed (exit %s): %s"
                       % (rc, err.strip()[:300])]
    run_cmd = [args.mlir_runner, "-e", "main", "-entry-point-result=void",
               "-shared-libs=" + args.shared_libs]
    rc, _, rerr = difftest.run(run_cmd, stdin=out, timeout=args.timeout)
    unbatched = stop_line(rerr)
    if unbatched == stop:
        return True, []
    return False, ["  batched stop:   %s" % stop,
                   "  unbatched stop: %s (exit %s)" % (unbatched, rc)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=20, help="groups")
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--max-tables", type=int, default=7,
                   choices=range(2, 17), metavar="[2-16]",
                   help="the most tables of a group (default 7)")
    p.add_argument("--rowwise", action="store_true",
                   help="quantized tables too (needs python3-torch)")
    p.add_argument("--invalid-every", type=int, default=0,
                   help="every M-th group has one runtime-invalid table")
    p.add_argument("--skip-invalid", action="store_true",
                   help="skip the groups with a runtime-invalid table (for "
                        "checks=0)")
    p.add_argument("--sorted-segments", action="store_true",
                   help="sorted segment ids only (the GPU kernels need them "
                        "sorted)")
    p.add_argument("--unbatched", metavar="PIPELINE",
                   help="a group with a runtime-invalid table must stop with "
                        "the message it stops with through PIPELINE too")
    p.add_argument("--embbag-opt",
                   default=difftest.default_tool(
                       "embbag-opt", [os.path.join(ROOT, "build", "bin",
                                                   "embbag-opt")]))
    p.add_argument("--pipeline",
                   default='--embbag-to-llvm="parallel=1 batch-tables=1"')
    p.add_argument("--mlir-runner",
                   default=difftest.default_tool(
                       "mlir-runner", ["/usr/lib/llvm-22/bin/mlir-runner"]))
    p.add_argument("--shared-libs", required=True)
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--keep-failures")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args(argv)
    gen.SORTED_SEGMENTS = a.sorted_segments

    workdir = tempfile.mkdtemp(prefix="batchtest-")
    passed = failed = skipped = 0
    for g in range(a.start, a.start + a.count):
        invalid = bool(a.invalid_every) and g % a.invalid_every == 0
        cases = make_group(a.seed, g, a.rowwise, invalid, a.max_tables)
        if a.skip_invalid and any(expected_of(c) is None for c in cases):
            skipped += 1
            continue
        path = os.path.join(workdir, "group-%d-%04d.mlir" % (a.seed, g))
        with open(path, "w") as f:
            f.write(emit_group(cases))
        ok, status, report, ccmd, rcmd = check_group(a, cases, path)
        if a.verbose:
            print("group %d: %d tables: %s" % (g, len(cases), status))
        if ok:
            passed += 1
            continue
        failed += 1
        keep_dir = a.keep_failures or tempfile.mkdtemp(prefix="batchtest-failures-")
        os.makedirs(keep_dir, exist_ok=True)
        keep = os.path.join(keep_dir, os.path.basename(path))
        shutil.copyfile(path, keep)
        print("FAIL %s: %s" % (keep, status))
        for line in report:
            print(line)
        print("  reproduce: %s %s | %s" % (
            shlex.join(ccmd[:-1]), keep, shlex.join(rcmd)))
    shutil.rmtree(workdir, ignore_errors=True)
    print("batchtest: %d groups, %d passed, %d failed%s"
          % (passed + failed, passed, failed,
             " (%d with a runtime-invalid table skipped)" % skipped
             if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
