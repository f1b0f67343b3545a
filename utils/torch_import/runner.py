"""Runs an imported @forward natively: embbag-aot + ctypes.

    lib = compile_forward(mlir_text, workdir, embbag_aot="embbag-aot")
    outputs = lib.call(args, output_shapes)   # torch tensors in, torch tensors out

embbag-aot exports every public function through MLIR's C interface, one
result at most. compile_forward therefore makes @forward private and adds a
public wrapper, @forward_into, that takes @forward's arguments followed by
one memref per result and writes each result into its memref
(bufferization.materialize_in_destination): the caller owns every buffer.
The wrapper's types are read from @forward's signature as the importer
writes it (one line).
"""

import ctypes
import os
import re
import subprocess

import numpy as np
import torch

# MLIR element type -> (numpy dtype of the buffer, torch dtype).
BUFFER_TYPES = {
    "f32": (np.float32, torch.float32),
    "f64": (np.float64, torch.float64),
    "f16": (np.float16, torch.float16),
    "bf16": (np.int16, torch.bfloat16),  # bits; viewed as bfloat16
    "i64": (np.int64, torch.int64),
    "i32": (np.int32, torch.int32),
}

SIGNATURE_RE = re.compile(r"^  func\.func @forward\((.*)\) -> (.*) \{$", re.M)
TENSOR_RE = re.compile(r"tensor<([^>]*)>")


class RunError(Exception):
    pass


def element_type(tensor_type):
    return TENSOR_RE.fullmatch(tensor_type).group(1).split("x")[-1]


def parse_signature(text):
    """([argument types], [result types]) of @forward in `text`."""
    m = SIGNATURE_RE.search(text)
    if not m:
        raise RunError("no `func.func @forward(...)` line in the module")
    args = re.findall(r"%[^:]+: (tensor<[^>]*>)", m.group(1))
    results = ["tensor<%s>" % t for t in TENSOR_RE.findall(m.group(2))]
    return args, results


def harness(text):
    """`text` with @forward private and the public @forward_into wrapper."""
    args, results = parse_signature(text)
    text = SIGNATURE_RE.sub(lambda m: m.group(0).replace(
        "func.func @forward", "func.func private @forward"), text, count=1)
    params = ["%%a%d: %s" % (k, t) for k, t in enumerate(args)]
    params += ["%%o%d: %s" % (k, t.replace("tensor<", "memref<"))
               for k, t in enumerate(results)]
    call_results = "%r" if len(results) == 1 else "%%r:%d" % len(results)
    lines = ["  func.func @forward_into(%s) {" % ", ".join(params),
             "    %s = func.call @forward(%s) : (%s) -> (%s)"
             % (call_results, ", ".join("%%a%d" % k for k in range(len(args))),
                ", ".join(args), ", ".join(results))]
    for k, t in enumerate(results):
        r = "%r" if len(results) == 1 else "%%r#%d" % k
        lines.append("    bufferization.materialize_in_destination %s in restrict "
                     "writable %%o%d : (%s, %s) -> ()"
                     % (r, k, t, t.replace("tensor<", "memref<")))
    lines += ["    return", "  }"]
    # Before the line that closes the module.
    close = text.index("\n}\n")
    return text[:close + 1] + "\n".join(lines) + text[close:], args, results


def _descriptor_type(rank):
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank),
                   ("strides", ctypes.c_int64 * rank)]
    return type("MemRef%dD" % rank, (ctypes.Structure,), {"_fields_": fields})


def _descriptor(array):
    """A memref descriptor of the C-contiguous numpy `array`."""
    desc = _descriptor_type(array.ndim)()
    desc.allocated = desc.aligned = array.ctypes.data
    desc.offset = 0
    for k in range(array.ndim):
        desc.sizes[k] = array.shape[k]
        desc.strides[k] = array.strides[k] // array.itemsize
    return desc


def _to_buffer(tensor, tensor_type):
    elem = element_type(tensor_type)
    np_type, torch_type = BUFFER_TYPES[elem]
    if tensor.dtype != torch_type:
        raise RunError("an argument of type %s gets a %s tensor"
                       % (tensor_type, tensor.dtype))
    t = tensor.detach().contiguous().cpu()
    if elem == "bf16":
        t = t.view(torch.int16)
    return np.ascontiguousarray(t.numpy(), dtype=np_type)


class Forward:
    """@forward_into of a compiled library."""

    def __init__(self, path, args, results):
        self.lib = ctypes.CDLL(path)
        self.fn = self.lib._mlir_ciface_forward_into
        self.fn.restype = None
        self.args = args
        self.results = results

    def call(self, tensors, output_shapes):
        """@forward on `tensors` (torch tensors, in argument order); the
        results, whose shapes the caller gives, as torch tensors."""
        if len(tensors) != len(self.args):
            raise RunError("@forward takes %d arguments, got %d"
                           % (len(self.args), len(tensors)))
        buffers = [_to_buffer(t, ty) for t, ty in zip(tensors, self.args)]
        outs = []
        for shape, ty in zip(output_shapes, self.results):
            np_type = BUFFER_TYPES[element_type(ty)][0]
            outs.append(np.zeros(tuple(shape), dtype=np_type))
        descs = [_descriptor(b) for b in buffers + outs]
        self.fn(*[ctypes.byref(d) for d in descs])
        results = []
        for out, ty in zip(outs, self.results):
            t = torch.from_numpy(out)
            if element_type(ty) == "bf16":
                t = t.view(torch.bfloat16)
            results.append(t)
        return results


LLVM_LIB = "/usr/lib/llvm-22/lib"


def compile_forward(text, workdir, embbag_aot="embbag-aot", checks="abort",
                    pipeline_options=""):
    """Compiles the imported module `text` in `workdir`; a Forward.
    `pipeline_options` go to embbag-to-llvm (--pipeline-options); with
    parallel=1 the library links LLVM's libomp."""
    source, args, results = harness(text)
    path = os.path.join(workdir, "forward.mlir")
    with open(path, "w") as f:
        f.write(source)
    lib = os.path.join(workdir, "libforward.so")
    cmd = [embbag_aot, path, "-o", lib, "--checks=" + checks]
    if pipeline_options:
        cmd.append("--pipeline-options=" + pipeline_options)
    if re.search(r"\bparallel=(1|true)\b", pipeline_options):
        cmd += ["-Xlinker-arg=-L" + LLVM_LIB, "-Xlinker-arg=-lomp",
                "-Xlinker-arg=-Wl,-rpath," + LLVM_LIB]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RunError("embbag-aot failed on %s:\n%s" % (path, proc.stderr))
    return Forward(lib, args, results)
