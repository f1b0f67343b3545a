"""PyTorch embedding modules to embbag MLIR (the library behind utils/torch-import).

    importer = Importer(model, example_inputs, weights="resource", dynamic=False)
    text = importer.emit()            # the module: func.func @forward + resources
    importer.tables                   # the tables, in @forward's argument order

The model is traced with torch.fx (symbolic tracing: the graph does not
depend on the input values). Every node of the graph must be one of

  placeholder        an example input: an argument of @forward
  call_module        nn.EmbeddingBag -> embbag.packed (2-D input) or
                     embbag.offsets (1-D input + offsets);
                     nn.Embedding -> embbag.packed sum over bags of one index,
                     between tensor.collapse_shape / tensor.expand_shape
  call_function      torch.cat / torch.stack -> tensor.empty of the result
                     and one tensor.insert_slice per operand
  output             the results of @forward, tuples and lists flattened

Anything else raises ImportError_ with a message naming the submodule or the
operation (and the line of the model that made it, when fx recorded it).

Shapes and types are computed here from the example inputs' types by the
ops' own rules (docs/Ops.md), not by running the model: torch 1.13 cannot run
every model this imports (nn.EmbeddingBag on bf16 tables on the CPU).
"""

import inspect
import operator
import os
import re
import traceback

import numpy as np
import torch
import torch.fx
import torch.nn as nn


class ImportError_(Exception):
    """An unsupported model: the message says what and why."""


# torch dtypes <-> MLIR element types.
FLOAT_TYPES = {
    torch.float32: "f32",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.float64: "f64",
}
INDEX_TYPES = {torch.int64: "i64", torch.int32: "i32"}
ELEMENT_TYPES = {**FLOAT_TYPES, **INDEX_TYPES}


class TensorType:
    """A ranked tensor type: `shape` holds ints, None for `?`."""

    def __init__(self, shape, elem):
        self.shape = tuple(shape)
        self.elem = elem

    @property
    def rank(self):
        return len(self.shape)

    def __str__(self):
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return "tensor<%s%s>" % (dims, self.elem)


class Value:
    """An SSA value of the emitted function and its type."""

    def __init__(self, name, type_):
        self.name = name
        self.type = type_


def _sanitize(name):
    """`name` as an MLIR identifier (SSA name suffix or resource key)."""
    name = re.sub(r"[^A-Za-z0-9_.]", "_", name)
    if not re.match(r"[A-Za-z_]", name):
        name = "_" + name
    return name


def _where(node):
    """` (FILE:LINE)` of the model's line that made `node`, when known."""
    loc = _source_loc(node)
    return " (%s:%d)" % loc if loc else ""


def _source_loc(node):
    """(file basename, line) of the innermost frame of the model's source in
    fx's recorded stack trace of `node`, or None."""
    trace = getattr(node, "stack_trace", None)
    if not trace:
        return None
    # fx records the innermost frame first: the first frame outside torch
    # and this importer is the model's line.
    torch_dir = os.path.dirname(torch.__file__)
    here = os.path.dirname(os.path.abspath(__file__))
    for path, line in re.findall(r'File "([^"]+)", line (\d+)', trace):
        if not path.startswith((torch_dir, here)):
            return os.path.basename(path), int(line)
    return None


class _Tracer(torch.fx.Tracer):
    """fx's tracer, plus

    - modules held in plain Python lists, tuples and dicts (attributes of the
      model or of its submodules), which are not registered submodules: they
      are named by their attribute path (`tables.0`, `bags.user`) so that
      their calls are recorded like those of registered ones;
    - forward(self, *inputs): one placeholder per example input, passed as
      separate proxies (torch 1.13's own handling of *args fails on Python
      3.11), so that forward may index or iterate its *inputs.
    """

    def __init__(self, extra_modules, num_inputs):
        super().__init__()
        self.record_stack_traces = True
        self.extra_modules = extra_modules  # id(module) -> path
        self.num_inputs = num_inputs

    def path_of_module(self, mod):
        try:
            return super().path_of_module(mod)
        except NameError:
            if id(mod) in self.extra_modules:
                return self.extra_modules[id(mod)]
            raise

    def create_args_for_root(self, root_fn, is_module, concrete_args=None):
        sig = inspect.signature(inspect.unwrap(root_fn))
        params = list(sig.parameters.values())[1:]  # self
        positional = [p for p in params if p.kind in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        varargs = [p for p in params
                   if p.kind == inspect.Parameter.VAR_POSITIONAL]
        required = [p for p in positional if p.default is inspect.Parameter.empty]
        for p in params:
            if (p.kind == inspect.Parameter.KEYWORD_ONLY
                    and p.default is inspect.Parameter.empty):
                raise ImportError_(
                    "forward's keyword-only argument '%s' has no default: "
                    "forward must take the example inputs positionally" % p.name)
        n = self.num_inputs
        if n < len(required):
            raise ImportError_(
                "example_inputs() gives %d tensors, forward needs at least %d (%s)"
                % (n, len(required), ", ".join(p.name for p in required)))
        if n > len(positional) and not varargs:
            raise ImportError_(
                "example_inputs() gives %d tensors, forward takes at most %d"
                % (n, len(positional)))
        names = [p.name for p in positional[:n]]
        names += ["%s_%d" % (varargs[0].name, k)
                  for k in range(n - len(names))] if varargs else []
        proxies = [self.create_proxy("placeholder", name, (), {})
                   for name in names]
        return root_fn, [self.root] + proxies


def _unregistered_modules(model):
    """[(path, module)] of the modules held in plain lists, tuples and dicts
    that are attributes of `model` or of its submodules (recursively, also
    inside such modules and their children), in attribute order. Registered
    submodules are left out: fx names those itself."""
    registered = {id(m) for m in model.modules()}
    found = []
    seen = set()

    def visit_module(mod, prefix):
        for attr, value in vars(mod).items():
            if not attr.startswith("_") and isinstance(value, (list, tuple, dict)):
                visit_container(value, prefix + attr)

    def visit_container(value, path):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            sub = "%s.%s" % (path, key)
            if isinstance(item, nn.Module):
                if id(item) in registered or id(item) in seen:
                    continue
                for name, child in item.named_modules():
                    if id(child) not in seen:
                        seen.add(id(child))
                        found.append((sub + "." + name if name else sub, child))
                        visit_module(child, (sub + "." + name if name else sub) + ".")
            elif isinstance(item, (list, tuple, dict)):
                visit_container(item, sub)

    for name, mod in model.named_modules():
        visit_module(mod, name + "." if name else "")
    return found


def _module_label(mod):
    """nn.EmbeddingBag, nn.Linear, or the class name of a user's module."""
    cls = type(mod)
    if cls.__module__.startswith("torch.nn"):
        return "nn." + cls.__name__
    return cls.__name__


def _torch_function_name(target):
    if target in (torch.cat, torch.concat):
        return "cat"
    if target is torch.stack:
        return "stack"
    return None


def _function_label(target):
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__name__", repr(target))
    if target in vars(operator).values():
        return "operator.%s" % name
    if module.startswith("torch"):
        return "torch.%s" % name
    return "%s.%s" % (module, name) if module else name


class Table:
    """An embedding table: a parameter of the model, read by @forward."""

    def __init__(self, name, param):
        self.name = name  # the parameter's qualified name
        self.param = param
        self.type = TensorType(param.shape, FLOAT_TYPES[param.dtype])
        self.value = None  # its Value in @forward


class Importer:
    """The embbag MLIR of `model` called on `inputs` (see the module doc)."""

    def __init__(self, model, inputs, weights="resource", dynamic=False):
        if weights not in ("resource", "args"):
            raise ValueError("weights must be 'resource' or 'args'")
        if not isinstance(model, nn.Module):
            raise ImportError_("make_model() returned %s, not an nn.Module"
                               % type(model).__name__)
        if not isinstance(inputs, (tuple, list)):
            inputs = (inputs,)
        for k, x in enumerate(inputs):
            if not isinstance(x, torch.Tensor):
                raise ImportError_("example input %d is a %s, not a tensor"
                                   % (k, type(x).__name__))
            if x.dtype not in ELEMENT_TYPES:
                raise ImportError_(
                    "example input %d has dtype %s: the inputs are indices "
                    "(int64, int32), offsets or per-sample weights (float32, "
                    "float16, bfloat16, float64)" % (k, x.dtype))
        self.model = model
        self.inputs = tuple(inputs)
        self.weights = weights
        self.dynamic = dynamic
        extra = _unregistered_modules(model)
        self.extra_order = extra
        self.extra_modules = {id(m): path for path, m in extra}
        self.modules = dict(model.named_modules())
        self.modules.update(extra)
        self.graph = self._trace()
        self.tables = self._collect_tables()

    # -- tracing ---------------------------------------------------------

    def _trace(self):
        tracer = _Tracer(self.extra_modules, len(self.inputs))
        try:
            return tracer.trace(self.model)
        except ImportError_:
            raise
        except Exception as e:  # fx's errors: data-dependent control flow, ...
            frames = [f for f in traceback.extract_tb(e.__traceback__)
                      if not f.filename.startswith(os.path.dirname(torch.__file__))
                      and f.filename != __file__]
            where = ""
            if frames:
                where = " at %s:%d" % (os.path.basename(frames[-1].filename),
                                       frames[-1].lineno)
            hint = ""
            if isinstance(e, torch.fx.proxy.TraceError):
                hint = (" (forward is traced symbolically: it must not depend "
                        "on the values of its inputs)")
            raise ImportError_("torch.fx could not trace the model%s: %s: %s%s"
                               % (where, type(e).__name__, e, hint)) from None

    def _module(self, node):
        return self.modules[node.target]

    def _collect_tables(self):
        """The tables the traced graph reads, in named_parameters() order
        (then those of unregistered modules, in attribute order); a table
        shared by several modules is one table."""
        used = set()
        for node in self.graph.nodes:
            if node.op == "call_module":
                mod = self._module(node)
                if isinstance(mod, (nn.EmbeddingBag, nn.Embedding)):
                    if mod.weight.dtype not in FLOAT_TYPES:
                        raise ImportError_(
                            "submodule '%s' (%s)%s: table of dtype %s (float32, "
                            "float16, bfloat16 or float64 only)"
                            % (node.target, _module_label(mod), _where(node),
                               mod.weight.dtype))
                    used.add(id(mod.weight))
        named = list(self.model.named_parameters())
        named += [(path + ".weight", m.weight) for path, m in self.extra_order
                  if isinstance(m, (nn.EmbeddingBag, nn.Embedding))]
        tables = []
        seen = set()
        for name, param in named:
            if id(param) in used and id(param) not in seen:
                seen.add(id(param))
                tables.append(Table(name, param))
        return tables

    # -- emission --------------------------------------------------------

    def emit(self):
        """The MLIR module, as text."""
        self.lines = []
        self.names = set()
        self.values = {}  # fx node -> Value
        self.constants = {}  # (value, type) -> SSA name
        self.dim_names = {}  # (SSA name, dimension) -> its tensor.dim
        args = []
        for table in self.tables:
            self._check_table(table)
            if self.weights == "args":
                table.value = Value(self._fresh(table.name), table.type)
                args.append(table.value)
        table_by_param = {id(t.param): t for t in self.tables}
        self.table_by_param = table_by_param
        placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        for node, x in zip(placeholders, self.inputs):
            shape = [None] * x.dim() if self.dynamic else list(x.shape)
            value = Value(self._fresh(node.name), TensorType(shape, ELEMENT_TYPES[x.dtype]))
            self.values[node] = value
            args.append(value)
        if self.weights == "resource":
            for table in self.tables:
                table.value = Value(self._fresh(table.name), table.type)
                self._op("%s = arith.constant dense_resource<%s> : %s"
                         % (table.value.name, self._resource_key(table), table.type))
        results = []
        for node in self.graph.nodes:
            if node.op == "placeholder":
                continue
            if node.op == "call_module":
                self.values[node] = self._call_module(node)
            elif node.op == "call_function":
                self.values[node] = self._call_function(node)
            elif node.op == "call_method":
                raise ImportError_(
                    "operation '%s' (tensor method)%s is not supported: the model "
                    "may only call nn.EmbeddingBag / nn.Embedding modules and "
                    "torch.cat / torch.stack on their outputs"
                    % (node.target, _where(node)))
            elif node.op == "get_attr":
                raise ImportError_(
                    "reading the attribute '%s'%s is not supported: tensors of the "
                    "model may only be used as the tables of nn.EmbeddingBag / "
                    "nn.Embedding" % (node.target, _where(node)))
            elif node.op == "output":
                results = self._outputs(node.args[0])
        if not results:
            raise ImportError_("forward returns no tensor")
        signature = ", ".join("%s: %s" % (v.name, v.type) for v in args)
        result_types = [str(v.type) for v in results]
        rtypes = (result_types[0] if len(results) == 1
                  else "(%s)" % ", ".join(result_types))
        out = ["module {",
               "  func.func @forward(%s) -> %s {" % (signature, rtypes)]
        out += ["    " + line for line in self.lines]
        out.append("    return %s : %s" % (", ".join(v.name for v in results),
                                           ", ".join(result_types)))
        out.append("  }")
        out.append("}")
        text = "\n".join(out) + "\n"
        if self.weights == "resource" and self.tables:
            text += self._resources()
        return text

    def _fresh(self, hint):
        base = "%" + _sanitize(hint)
        name, k = base, 0
        while name in self.names:
            k += 1
            name = "%s_%d" % (base, k)
        self.names.add(name)
        return name

    def _op(self, line):
        self.lines.append(line)

    def _resource_key(self, table):
        if not hasattr(table, "key"):
            keys = {getattr(t, "key", None) for t in self.tables}
            base = _sanitize(table.name)
            key, k = base, 0
            while key in keys:
                k += 1
                key = "%s_%d" % (base, k)
            table.key = key
        return table.key

    def _resources(self):
        lines = ["", "{-#", "  dialect_resources: {", "    builtin: {"]
        entries = []
        for table in self.tables:
            data = table.param.detach().contiguous().cpu()
            if data.dtype == torch.bfloat16:
                raw = data.view(torch.int16).numpy().astype("<i2").tobytes()
            else:
                raw = data.numpy().astype(data.numpy().dtype.newbyteorder("<")).tobytes()
            # A blob: its alignment as a little-endian 32-bit word, then the
            # elements' bytes, little endian.
            align = data.element_size().to_bytes(4, "little")
            entries.append('      %s: "0x%s%s"' % (self._resource_key(table),
                                                   align.hex().upper(),
                                                   raw.hex().upper()))
        lines.append(",\n".join(entries))
        lines += ["    }", "  }", "#-}"]
        return "\n".join(lines) + "\n"

    def _check_table(self, table):
        if table.param.dim() != 2:
            raise ImportError_("table '%s' has %d dimensions, not 2"
                               % (table.name, table.param.dim()))

    def _value(self, node, arg, what):
        if not isinstance(arg, torch.fx.Node):
            raise ImportError_("%s of '%s'%s is %r, not a tensor computed by "
                               "forward" % (what, node.target, _where(node), arg))
        return self.values[arg]

    def _loc(self, node, label):
        src = _source_loc(node)
        if src:
            return ' loc("%s"("%s":%d:0))' % (label, src[0], src[1])
        return ' loc("%s")' % label

    def _constant(self, value, elem):
        """An arith.constant, made once per value and type."""
        key = (value, elem)
        if key not in self.constants:
            name = self._fresh("c%d" % value if elem == "index"
                               else "c%d_%s" % (value, elem))
            self._op("%s = arith.constant %d : %s" % (name, value, elem))
            self.constants[key] = name
        return self.constants[key]

    def _index_constant(self, value):
        return self._constant(value, "index")

    def _dims(self, value):
        """The sizes of `value` as expand_shape operands: ints or SSA names
        of `tensor.dim` for the dynamic ones."""
        out = []
        for k, d in enumerate(value.type.shape):
            if d is None:
                key = (value.name, k)
                if key not in self.dim_names:
                    name = self._fresh(value.name[1:] + "_dim%d" % k)
                    self._op("%s = tensor.dim %s, %s : %s"
                             % (name, value.name, self._index_constant(k),
                                value.type))
                    self.dim_names[key] = name
                out.append(self.dim_names[key])
            else:
                out.append(d)
        return out

    def _expand(self, value, groups, sizes, elem, loc=""):
        """tensor.expand_shape of `value` into `sizes` (ints or SSA names)."""
        shape = [d if isinstance(d, int) else None for d in sizes]
        result = Value(self._fresh(value.name[1:] + "_expanded"),
                       TensorType(shape, elem))
        if any(sum(not isinstance(sizes[k], int) for k in g) > 1 for g in groups):
            # MLIR 22's expand-strided-metadata crashes on a memref.expand_shape
            # that splits one dimension into several dynamic ones: such an
            # expansion is a tensor.reshape (memref.reshape) instead.
            shape_name = self._fresh(result.name[1:] + "_shape")
            self._op("%s = tensor.from_elements %s : tensor<%dxindex>"
                     % (shape_name, ", ".join(
                         d if not isinstance(d, int) else self._index_constant(d)
                         for d in sizes), len(sizes)))
            self._op("%s = tensor.reshape %s(%s) : (%s, tensor<%dxindex>) -> %s%s"
                     % (result.name, value.name, shape_name, value.type,
                        len(sizes), result.type, loc))
            return result
        self._op("%s = tensor.expand_shape %s %s output_shape [%s] : %s into %s%s"
                 % (result.name, value.name, _groups(groups),
                    ", ".join(str(d) for d in sizes), value.type, result.type, loc))
        return result

    def _collapse(self, value, groups, loc=""):
        shape = []
        for g in groups:
            dims = [value.type.shape[k] for k in g]
            shape.append(None if None in dims else int(np.prod(dims, dtype=np.int64)))
        result = Value(self._fresh(value.name[1:] + "_collapsed"),
                       TensorType(shape, value.type.elem))
        self._op("%s = tensor.collapse_shape %s %s : %s into %s%s"
                 % (result.name, value.name, _groups(groups), value.type,
                    result.type, loc))
        return result

    # -- modules ---------------------------------------------------------

    def _call_module(self, node):
        mod = self._module(node)
        if isinstance(mod, nn.EmbeddingBag):
            return self._embedding_bag(node, mod)
        if isinstance(mod, nn.Embedding):
            return self._embedding(node, mod)
        raise ImportError_(
            "submodule '%s' (%s)%s is not supported: the importer handles "
            "nn.EmbeddingBag and nn.Embedding (and torch.cat / torch.stack of "
            "their outputs)" % (node.target, _module_label(mod), _where(node)))

    def _bind(self, node, mod):
        try:
            bound = inspect.signature(type(mod).forward).bind(
                None, *node.args, **node.kwargs)
        except TypeError as e:
            raise ImportError_("call of '%s'%s: %s" % (node.target, _where(node), e))
        return bound.arguments

    def _table(self, node, mod):
        if mod.max_norm is not None:
            raise ImportError_(
                "submodule '%s' (%s)%s has max_norm=%s: renormalizing the table's "
                "rows in place while reading them is not supported (the table "
                "would change with every call)"
                % (node.target, _module_label(mod), _where(node), mod.max_norm))
        return self.table_by_param[id(mod.weight)].value

    def _indices(self, node, arg, what):
        value = self._value(node, arg, what)
        if value.type.elem not in ("i32", "i64"):
            raise ImportError_("%s of '%s'%s has element type %s: indices are "
                               "int64 or int32" % (what, node.target, _where(node),
                                                   value.type.elem))
        return value

    def _embedding_bag(self, node, mod):
        # scale_grad_by_freq and sparse change the gradient only: the forward
        # computation does not depend on them.
        table = self._table(node, mod)
        args = self._bind(node, mod)
        indices = self._indices(node, args.get("input"), "the input")
        offsets = args.get("offsets")
        weights = args.get("per_sample_weights")
        d = table.type.shape[1]
        elem = table.type.elem
        loc = self._loc(node, node.target)
        if weights is not None:
            weights = self._value(node, weights, "per_sample_weights")
            if mod.mode != "sum":
                raise ImportError_(
                    "submodule '%s' (nn.EmbeddingBag)%s: per_sample_weights with "
                    "mode='%s' (only mode='sum' takes weights, as in PyTorch)"
                    % (node.target, _where(node), mod.mode))
            if weights.type.elem != elem:
                raise ImportError_(
                    "submodule '%s' (nn.EmbeddingBag)%s: per_sample_weights of "
                    "element type %s, table of %s (they must be the same)"
                    % (node.target, _where(node), weights.type.elem, elem))
            if weights.type.rank != indices.type.rank:
                raise ImportError_(
                    "submodule '%s' (nn.EmbeddingBag)%s: per_sample_weights must "
                    "have the input's shape" % (node.target, _where(node)))
        pad = None
        if mod.padding_idx is not None:
            pad = self._constant(mod.padding_idx, indices.type.elem)
        if indices.type.rank == 2:
            if offsets is not None:
                raise ImportError_(
                    "submodule '%s' (nn.EmbeddingBag)%s: a 2-D input takes no "
                    "offsets" % (node.target, _where(node)))
            if mod.include_last_offset:
                # PyTorch's offsets of a 2-D input are the starts of its rows;
                # include_last_offset makes the last start the end of the
                # last bag: the bags are the rows but the last one.
                indices = self._drop_last_row(indices, loc)
                if weights is not None:
                    weights = self._drop_last_row(weights, loc)
            operands = [table, indices]
            text = "embbag.packed %s %s[%s]" % (mod.mode, table.name, indices.name)
            batch = indices.type.shape[0]
        elif indices.type.rank == 1:
            if offsets is None:
                raise ImportError_(
                    "submodule '%s' (nn.EmbeddingBag)%s: a 1-D input needs "
                    "offsets" % (node.target, _where(node)))
            offsets = self._indices(node, offsets, "offsets")
            if offsets.type.rank != 1:
                raise ImportError_("submodule '%s' (nn.EmbeddingBag)%s: offsets "
                                   "must be 1-D" % (node.target, _where(node)))
            if offsets.type.elem != indices.type.elem:
                raise ImportError_(
                    "submodule '%s' (nn.EmbeddingBag)%s: input of %s, offsets of "
                    "%s (embbag needs one index type: give both the same dtype)"
                    % (node.target, _where(node), indices.type.elem,
                       offsets.type.elem))
            operands = [table, indices, offsets]
            text = "embbag.offsets %s %s[%s] offsets(%s)" % (
                mod.mode, table.name, indices.name, offsets.name)
            if mod.include_last_offset:
                text += " include_last_offset"
            n = offsets.type.shape[0]
            batch = None if n is None else n - 1 if mod.include_last_offset else n
        else:
            raise ImportError_(
                "submodule '%s' (nn.EmbeddingBag)%s: input of %d dimensions "
                "(1-D with offsets, or 2-D)" % (node.target, _where(node),
                                               indices.type.rank))
        types = [str(v.type) for v in operands]
        if pad is not None:
            text += " padding_idx(%s)" % pad
            types.append(indices.type.elem)
        if weights is not None:
            text += " weights(%s)" % weights.name
            types.append(str(weights.type))
        result = Value(self._fresh(node.name), TensorType([batch, d], elem))
        self._op("%s = %s : (%s) -> %s%s" % (result.name, text, ", ".join(types),
                                              result.type, loc))
        return result

    def _drop_last_row(self, value, loc):
        """tensor.extract_slice of all rows of the 2-D `value` but the last."""
        sizes = self._dims(value)
        if isinstance(sizes[0], int):
            rows = max(sizes[0] - 1, 0)
        else:
            # rows - 1, and no bags (not -1) when there are no rows.
            less = self._fresh(value.name[1:] + "_rows_but_one")
            self._op("%s = arith.subi %s, %s : index"
                     % (less, sizes[0], self._index_constant(1)))
            rows = self._fresh(value.name[1:] + "_num_bags")
            self._op("%s = arith.maxsi %s, %s : index"
                     % (rows, less, self._index_constant(0)))
        result = Value(self._fresh(value.name[1:] + "_bags"),
                       TensorType([rows if isinstance(rows, int) else None,
                                   value.type.shape[1]], value.type.elem))
        self._op("%s = tensor.extract_slice %s[0, 0] [%s, %s] [1, 1] : %s to %s%s"
                 % (result.name, value.name, rows, sizes[1], value.type,
                    result.type, loc))
        return result

    def _embedding(self, node, mod):
        # padding_idx only keeps the padding row's gradient at zero: the
        # forward computation reads that row like any other, so it is not
        # passed to the op (which would skip it). scale_grad_by_freq and
        # sparse change the gradient only.
        table = self._table(node, mod)
        args = self._bind(node, mod)
        indices = self._indices(node, args.get("input"), "the input")
        loc = self._loc(node, node.target)
        d = table.type.shape[1]
        elem = table.type.elem
        rank = indices.type.rank
        # The indices as [n, 1]: n bags of one index.
        if rank == 0:
            bags = self._expand(indices, [], [1, 1], indices.type.elem, loc)
        else:
            flat = indices if rank == 1 else self._collapse(
                indices, [list(range(rank))], loc)
            n = self._dims(flat)[0]
            bags = self._expand(flat, [[0, 1]], [n, 1], indices.type.elem, loc)
        rows = Value(self._fresh(node.name + "_rows"),
                     TensorType([bags.type.shape[0], d], elem))
        self._op("%s = embbag.packed sum %s[%s] : (%s, %s) -> %s%s"
                 % (rows.name, table.name, bags.name, table.type, bags.type,
                    rows.type, loc))
        if rank == 1:
            return rows
        if rank == 0:
            return self._collapse(rows, [[0, 1]], loc)
        sizes = self._dims(indices) + [d]
        groups = [list(range(rank)), [rank]]
        return self._expand(rows, groups, sizes, elem, loc)

    # -- functions -------------------------------------------------------

    def _call_function(self, node):
        kind = _torch_function_name(node.target)
        if kind is None:
            raise ImportError_(
                "operation '%s'%s is not supported: the model may only call "
                "nn.EmbeddingBag / nn.Embedding modules and torch.cat / "
                "torch.stack on their outputs"
                % (_function_label(node.target), _where(node)))
        label = "torch." + kind
        args = list(node.args)
        kwargs = dict(node.kwargs)
        tensors = args.pop(0) if args else kwargs.pop("tensors", None)
        dim = args.pop(0) if args else kwargs.pop("dim", 0)
        if args or kwargs:
            raise ImportError_("%s%s: unsupported arguments %s"
                               % (label, _where(node),
                                  ", ".join(list(map(repr, args)) + list(kwargs))))
        if not isinstance(tensors, (list, tuple)) or not tensors:
            raise ImportError_("%s%s needs a non-empty list of tensors"
                               % (label, _where(node)))
        if not isinstance(dim, int):
            raise ImportError_("%s%s: dim must be a constant int, not %r"
                               % (label, _where(node), dim))
        values = [self._value(node, t, "an operand") for t in tensors]
        elems = {v.type.elem for v in values}
        ranks = {v.type.rank for v in values}
        if len(elems) > 1:
            raise ImportError_("%s%s of element types %s: the operands must have "
                               "one element type" % (label, _where(node),
                                                     ", ".join(sorted(elems))))
        if len(ranks) > 1:
            raise ImportError_("%s%s of tensors of different ranks"
                               % (label, _where(node)))
        rank = ranks.pop()
        loc = self._loc(node, label)
        if kind == "stack":
            if not -(rank + 1) <= dim <= rank:
                raise ImportError_("%s%s: dim %d out of range for rank %d"
                                   % (label, _where(node), dim, rank))
            dim = dim % (rank + 1)
        else:
            if rank == 0 or not -rank <= dim < rank:
                raise ImportError_("%s%s: dim %d out of range for rank %d"
                                   % (label, _where(node), dim, rank))
            dim = dim % rank
            if len(values) == 1:
                return values[0]
        return self._join(kind, values, dim, label, node, loc)

    def _join(self, kind, values, dim, label, node, loc):
        """torch.cat / torch.stack of `values` along `dim`: each value is
        inserted (tensor.insert_slice) into a tensor.empty of the result's
        shape. Unlike tensor.concat, which bufferizes to copies, this lets
        each embbag kernel write its bags straight into the result
        (eliminate-empty-tensors)."""
        rank = values[0].type.rank
        joined = dim if kind == "cat" else None  # the operands' dimension
        sizes = [self._dims(v) for v in values]
        common = []  # the operands' sizes, but along `joined`
        for k in range(rank):
            if k == joined:
                common.append(None)
                continue
            static = {s[k] for s in sizes if isinstance(s[k], int)}
            if len(static) > 1:
                raise ImportError_("%s%s: the operands' dimension %d differ (%s)"
                                   % (label, _where(node), k,
                                      ", ".join(map(str, sorted(static)))))
            dynamic = [s[k] for s in sizes if not isinstance(s[k], int)]
            common.append(static.pop() if static else dynamic[0])
            # Sizes known only at run time must agree, or the insertion
            # would write out of the result: a runtime check.
            for other in dynamic:
                if other is not common[k]:
                    self._check_equal(common[k], other,
                                      "%s%s: the operands' dimension %d differ"
                                      % (label, _where(node), k), loc)
        # Where each operand goes along `dim`.
        starts = [0]
        for s in sizes:
            starts.append(self._add(starts[-1], s[dim] if kind == "cat" else 1))
        if kind == "cat":
            result_sizes = list(common)
            result_sizes[dim] = starts[-1]
        else:
            result_sizes = common[:dim] + [len(values)] + common[dim:]
        shape = [d if isinstance(d, int) else None for d in result_sizes]
        result_type = TensorType(shape, values[0].type.elem)
        empty = self._fresh(node.name + "_init")
        self._op("%s = tensor.empty(%s) : %s%s"
                 % (empty, ", ".join(d for d in result_sizes
                                     if not isinstance(d, int)),
                    result_type, loc))
        current = empty
        for k, (v, s) in enumerate(zip(values, sizes)):
            offsets = [0] * len(result_sizes)
            offsets[dim] = starts[k]
            if kind == "cat":
                slice_sizes = list(s)
            else:
                # A rank-reducing insertion: the unit dimension is dropped.
                slice_sizes = s[:dim] + [1] + s[dim:]
            name = self._fresh(node.name if k == len(values) - 1
                               else "%s_part%d" % (node.name, k))
            self._op("%s = tensor.insert_slice %s into %s[%s] [%s] [%s] : %s into %s%s"
                     % (name, v.name, current, ", ".join(map(str, offsets)),
                        ", ".join(map(str, slice_sizes)),
                        ", ".join(["1"] * len(result_sizes)), v.type,
                        result_type, loc))
            current = name
        return Value(current, result_type)

    def _add(self, a, b):
        """a + b of sizes (ints or index SSA names)."""
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if a == 0:
            return b
        if b == 0:
            return a
        names = [x if not isinstance(x, int) else self._index_constant(x)
                 for x in (a, b)]
        name = self._fresh("size")
        self._op("%s = arith.addi %s, %s : index" % (name, names[0], names[1]))
        return name

    def _check_equal(self, a, b, message, loc):
        """A runtime check (the embbag lowerings' kind: stderr and abort, or
        a status with embbag-aot --checks=status) that sizes a == b."""
        ok = self._fresh("same_size")
        self._op("%s = arith.cmpi eq, %s, %s : index" % (ok, a, b))
        self._op('cf.assert %s, "%s" {embbag.runtime_check}%s' % (ok, message, loc))

    def _outputs(self, out):
        results = []

        def flatten(x):
            if isinstance(x, (tuple, list)):
                for item in x:
                    flatten(item)
            elif isinstance(x, torch.fx.Node):
                results.append(self.values[x])
            else:
                raise ImportError_("forward returns %r: only tensors, tuples and "
                                   "lists of tensors are supported" % (x,))

        flatten(out)
        return results


def _groups(groups):
    return "[%s]" % ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups)


def load_model_file(path):
    """(make_model, example_inputs) of the Python file `path`."""
    import importlib.util
    import sys

    if not os.path.exists(path):
        raise ImportError_("%s: no such file" % path)
    spec = importlib.util.spec_from_file_location(
        "_embbag_model_" + re.sub(r"\W", "_", os.path.basename(path)), path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    for name in ("make_model", "example_inputs"):
        if not callable(getattr(module, name, None)):
            raise ImportError_("%s defines no function %s()" % (path, name))
    return module.make_model, module.example_inputs
