"""Random linalg-on-tensors chains for the differential harness (issue 26).

posenc-cpu-pipeline takes "posenc (and linalg on tensors)": whole imported
models are mostly plain linalg, and a miscompile there (i1 constants read as
packed bits) made every such model silently wrong. This module draws chains of
linalg.generic ops over every element type a model carries (i1, i8, i16, i32,
i64, f16, bf16, f32, f64), in the forms importers emit:

  elementwise  one to three arith ops in one body (binary ops, compare +
               select, casts between every pair of types that has a defined
               rounding), operands of the same shape;
  broadcast    an operand of fewer dims (a projected indexing map);
  reduction    a sum, max, min or and/or of one dim into a linalg.fill init;
  gather       tensor.extract in the body, indexed by an integer tensor
               (i8/i16/i32/i64/index, arith.index_cast) or by linalg.index
               arithmetic (a reversed axis), from the tensor or from a
               column slice of it, possibly expanded by a unit dimension
               (a strided view once bufferized: D13);

with operands that are function arguments, dense constants or splat
constants, i1 ones included. Every intermediate value has the type it is drawn
with; the chain's last value is the case's result (any of the nine types).

The expected result is computed here, in numpy, from the arith semantics
(never from posenc's output): integers wrap in two's complement (i1 `true` is
-1 when signed), floats round to nearest even in their own type after every op
(bf16 emulated on f32 bits). Elementwise float ops are correctly rounded on
both sides, so their results agree exactly; float sums depend on the order
(vectorized reductions reassociate), and each value carries a bound on that
difference, propagated through later ops: a sum of n terms may differ by
2 n eps sum|x| (eps: the type's unit roundoff), a rounded op on inputs that
may differ adds their propagated difference plus one ulp of the result.
Comparisons, float-to-int casts, divisions and gather indices only take
operands that are exact (bound 0), so integer and i1 results must match
bit for bit.
"""

import math

import numpy as np

import posenc_exec as pe

INTS = ("i1", "i8", "i16", "i32", "i64")
FLOATS = ("f16", "bf16", "f32", "f64")
TYPES = INTS + FLOATS
BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
EPS = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8, "f32": 2.0 ** -24, "f64": 2.0 ** -53}
# Smallest positive subnormal of each type: an ulp near zero.
TINY = {"f16": 2.0 ** -24, "bf16": 2.0 ** -133, "f32": 2.0 ** -149, "f64": 0.0}
# Values past these make a case retry another op (no overflow to inf).
LIMIT = {"f16": 1000.0, "bf16": 1e6, "f32": 1e6, "f64": 1e6}
NP_INPUT = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
            "i64": np.int64, "f16": np.float16, "f32": np.float32, "f64": np.float64}
MAX_ELEMENTS = 4096


# ----------------------------------------------------------------------------
# Values: numpy arrays in int64 (signed value; i1 as 0/1) or float64 (a value
# of the type), with a bound on how far the compiled value may be from it.
# ----------------------------------------------------------------------------

class Node:
    def __init__(self, name, elem, shape, value, err=None):
        self.name, self.elem, self.shape = name, elem, tuple(shape)
        self.value = value
        self.err = np.zeros(self.shape) if err is None else err

    @property
    def exact(self):
        return not np.any(self.err)

    @property
    def type(self):
        return tensor_type(self.shape, self.elem)


def tensor_type(shape, elem):
    return "tensor<" + "".join(f"{s}x" for s in shape) + elem + ">"


def wrap(x, elem):
    """Two's-complement wrap of int64 values to `elem` (i1: 0/1)."""
    bits = BITS[elem]
    if bits == 64:
        return x.astype(np.int64)
    if bits == 1:
        return (x & 1).astype(np.int64)
    half = 1 << (bits - 1)
    return ((x.astype(np.int64) + half) & ((1 << bits) - 1)) - half


def signed(x, elem):
    """The signed value (i1 true is -1)."""
    return -x if elem == "i1" else x


def unsigned(x, elem):
    """The unsigned value as uint64 (i64 -1 is 2^64 - 1)."""
    if elem == "i1":
        return x.astype(np.uint64)
    if BITS[elem] == 64:
        return x.astype(np.int64).view(np.uint64)
    return (x & ((1 << BITS[elem]) - 1)).astype(np.uint64)


def round_to(x, elem):
    """float64 values rounded to `elem` (once, to nearest even)."""
    if elem == "bf16":
        # f64 -> f32 -> bf16 rounds twice; 24 >= 2 * 8 + 2 bits makes that
        # the same as rounding once.
        return pe.from_bf16_bits(pe.to_bf16_bits(x.astype(np.float32))).astype(np.float64)
    with np.errstate(over="ignore"):  # past LIMIT: the op is not drawn
        return x.astype(NP_INPUT[elem]).astype(np.float64)


def ulp_err(result, elem):
    """One ulp of `result` in `elem`: a rounding that may go the other way."""
    return 2 * EPS[elem] * np.abs(result) + TINY[elem]


def literal(v, elem):
    if elem == "i1":
        return "true" if v else "false"
    if elem in INTS:
        return str(int(v))
    return repr(float(v))


def dense(values, elem):
    def rec(a):
        if a.ndim == 0:
            return literal(a[()], elem)
        return "[" + ", ".join(rec(x) for x in a) + "]"
    return rec(np.asarray(values))


def as_input(node):
    """The array posenc-run reads for an argument of `node`'s type."""
    if node.elem == "bf16":
        return pe.to_bf16_bits(node.value.astype(np.float32))
    if node.elem == "i1":
        return node.value.astype(np.bool_)
    return node.value.astype(NP_INPUT[node.elem])


def random_values(rng, elem, shape):
    if elem == "i1":
        return rng.integers(0, 2, shape).astype(np.int64)
    if elem in INTS:
        bits = BITS[elem]
        r = rng.random()
        if r < 0.4:  # small values: products and sums stay readable
            return rng.integers(-9, 10, shape).astype(np.int64)
        if bits == 64:
            return rng.integers(-(1 << 63), (1 << 63) - 1, shape, dtype=np.int64, endpoint=True)
        return rng.integers(-(1 << (bits - 1)), 1 << (bits - 1), shape).astype(np.int64)
    if rng.random() < 0.5:
        # Multiples of 1/64 in [-4, 4): exact in every float type.
        return rng.integers(-256, 256, shape).astype(np.float64) / 64
    return round_to(rng.uniform(-4, 4, shape), elem)


# ----------------------------------------------------------------------------
# Scalar ops of a generic body: (mlir text, numpy value, error bound)
# ----------------------------------------------------------------------------

INT_BINARY = ("addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui",
              "minui")
I1_BINARY = ("andi", "ori", "xori")
FLOAT_BINARY = ("addf", "subf", "mulf", "maximumf", "minimumf", "divf")
INT_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
FLOAT_PREDICATES = ("oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une")


def int_binary(op, a, b, elem):
    if op in ("addi", "subi", "muli"):
        with np.errstate(over="ignore"):
            r = {"addi": a + b, "subi": a - b, "muli": a * b}[op]
        return wrap(r, elem)
    if op in ("andi", "ori", "xori"):
        return {"andi": a & b, "ori": a | b, "xori": a ^ b}[op]
    if op in ("maxsi", "minsi"):
        f = np.maximum if op == "maxsi" else np.minimum
        return f(a, b)
    ua, ub = unsigned(a, elem), unsigned(b, elem)
    pick_a = ua >= ub if op == "maxui" else ua <= ub
    return np.where(pick_a, a, b)


def float_binary(op, a, b, ea, eb, elem):
    """(value, bound) of a float op; a bound needs exact operands for divf."""
    if op == "divf":
        with np.errstate(divide="ignore", invalid="ignore"):
            r = round_to(a / b, elem)
        return r, np.zeros(r.shape)
    if op in ("maximumf", "minimumf"):
        f = np.maximum if op == "maximumf" else np.minimum
        return f(a, b), np.maximum(ea, eb)
    r = round_to({"addf": a + b, "subf": a - b, "mulf": a * b}[op], elem)
    if op == "mulf":
        e = np.abs(a) * eb + np.abs(b) * ea + ea * eb
    else:
        e = ea + eb
    return r, np.where(e > 0, e + ulp_err(r, elem), 0.0)


def compare_int(pred, a, b, elem):
    if pred in ("eq", "ne"):
        r = (a == b) if pred == "eq" else (a != b)
    elif pred[0] == "s":
        sa, sb = signed(a, elem), signed(b, elem)
        r = {"slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb, "sge": sa >= sb}[pred]
    else:
        ua, ub = unsigned(a, elem), unsigned(b, elem)
        r = {"ult": ua < ub, "ule": ua <= ub, "ugt": ua > ub, "uge": ua >= ub}[pred]
    return r.astype(np.int64)


def compare_float(pred, a, b):
    # No NaN is ever drawn or produced: ordered and unordered forms agree.
    r = {"oeq": a == b, "one": a != b, "olt": a < b, "ole": a <= b, "ogt": a > b,
         "oge": a >= b, "ueq": a == b, "une": a != b}[pred]
    return r.astype(np.int64)


def cast(src, dst, x, e):
    """(arith op, value, bound) of casting a value of `src` to `dst`, or None
    when no cast is drawn between them (or the values do not allow it)."""
    if src == dst:
        return None
    if src in INTS and dst in INTS:
        if BITS[dst] > BITS[src]:
            return [("extsi", wrap(signed(x, src), dst), e),
                    ("extui", unsigned(x, src).astype(np.int64), e)]
        return [("trunci", wrap(x, dst), e)]
    if src in INTS and dst in FLOATS:
        sv = signed(x, src).astype(np.float64)
        uv = unsigned(x, src).astype(np.float64)
        # int -> f64 rounds once; f64 -> dst again: 53 >= 2 * 24 + 2 bits.
        forms = [("sitofp", round_to(sv, dst), e)]
        if src != "i64":  # uint64 -> float64 of values past 2^63 needs care
            forms.append(("uitofp", round_to(uv, dst), e))
        return forms
    if src in FLOATS and dst in INTS:
        if dst == "i1" or np.any(e) or not len(x):
            return None
        bound = 2.0 ** (BITS[dst] - 1)
        if np.any(np.abs(x) >= bound):
            return None
        return [("fptosi", np.trunc(x).astype(np.int64), e)]
    # float -> float: extf to a wider type, truncf to a narrower one; f16 and
    # bf16 are not converted into each other, nor f64 into bf16 (whether the
    # backend rounds twice there is not what this checks).
    order = {"f16": 1, "bf16": 1, "f32": 2, "f64": 3}
    if {src, dst} == {"f16", "bf16"} or (src, dst) == ("f64", "bf16"):
        return None
    if order[dst] > order[src]:
        return [("extf", x, e)]
    r = round_to(x, dst)
    return [("truncf", r, np.where(e > 0, e + ulp_err(r, dst), 0.0))]


# ----------------------------------------------------------------------------
# The chain
# ----------------------------------------------------------------------------

def is_projection(sub, shape):
    """Whether `sub` is `shape` with leading dims dropped (a broadcast)."""
    return len(sub) <= len(shape) and tuple(shape[len(shape) - len(sub):]) == tuple(sub)


def broadcast(node, shape):
    """`node`'s value and bound broadcast to `shape` (leading dims added)."""
    idx = (None,) * (len(shape) - len(node.shape)) + (slice(None),) * len(node.shape)
    return (np.broadcast_to(node.value[idx], shape), np.broadcast_to(node.err[idx], shape))


class Body:
    """The inputs and scalar ops of one elementwise generic being built."""

    def __init__(self, chain, shape):
        self.chain, self.shape = chain, shape
        self.inputs, self.block, self.lines = [], [], []

    def use(self, node):
        """The block argument of `node` (added once), its value and bound."""
        for n, b in zip(self.inputs, self.block):
            if n is node:
                break
        else:
            self.inputs.append(node)
            self.block.append(self.chain.fresh("x"))
            b = self.block[-1]
        value, err = broadcast(node, self.shape)
        return b, value, err

    def operand(self, elem, exact=False):
        return self.use(self.chain.operand(elem, self.shape, exact))


class Chain:
    """Builds one case: lines of its function body, its arguments, its nodes."""

    def __init__(self, case, rng):
        self.case, self.rng = case, rng
        self.count = 0
        self.nodes = []
        self.kinds = []

    def fresh(self, stem):
        self.count += 1
        return self.case.name(f"{stem}{self.count}")

    def line(self, text):
        self.case.line(text)

    def argument(self, node, array):
        node.name = self.case.arg(f"a{self.count}", array, node.type)
        self.count += 1
        return node

    def source(self, elem, shape, values=None, allow_const=True):
        """A function argument, a dense constant or a splat constant."""
        rng = self.rng
        r = rng.random() if allow_const else 1.0
        if values is None and r < 0.25:
            v = random_values(rng, elem, ())
            node = Node(self.fresh("splat"), elem, shape, np.full(shape, v))
            self.line(f"{node.name} = arith.constant dense<{literal(v, elem)}> : {node.type}")
            self.kinds.append(f"splat-{elem}")
        elif r < 0.45 and math.prod(shape) <= 256:
            value = random_values(rng, elem, shape) if values is None else values
            node = Node(self.fresh("dense"), elem, shape, value)
            self.line(f"{node.name} = arith.constant dense<{dense(value, elem)}> : {node.type}")
            self.kinds.append(f"dense-{elem}")
        else:
            value = random_values(rng, elem, shape) if values is None else values
            node = self.argument(Node(None, elem, shape, value), None)
            self.case.inputs[-1] = as_input(node)
            self.kinds.append(f"arg-{elem}")
        self.nodes.append(node)
        return node

    def operand(self, elem, shape, exact=False):
        """A node of `elem` whose shape is `shape` or a projection of it
        (leading dims dropped: a broadcast), existing or fresh."""
        rng = self.rng
        fits = [n for n in self.nodes if n.elem == elem and is_projection(n.shape, shape)
                and (n.exact or not exact)]
        if fits and rng.random() < 0.4:
            node = fits[int(rng.integers(len(fits)))]
        else:
            sub = shape
            if len(shape) > 1 and rng.random() < 0.3:
                sub = shape[int(rng.integers(1, len(shape))):]
            node = self.source(elem, sub)
        if node.shape != shape:
            self.kinds.append(f"broadcast-{elem}")
        return node

    def empty(self, shape, elem):
        name = self.fresh("empty")
        self.line(f"{name} = tensor.empty() : {tensor_type(shape, elem)}")
        return name

    def generic(self, out_shape, out_elem, inputs, block, maps, iterators, lines, result,
                out_arg, init=None):
        """Emits a linalg.generic; `maps` are the loop dims of each input."""
        rank = len(iterators)
        dims = ", ".join(f"d{i}" for i in range(rank))

        def amap(ds):
            return f"affine_map<({dims}) -> ({', '.join(f'd{d}' for d in ds)})>"

        out_dims = [i for i, it in enumerate(iterators) if it == "parallel"]
        indexing = ", ".join([amap(m) for m in maps] + [amap(out_dims)])
        its = ", ".join(f'"{it}"' for it in iterators)
        out = init if init is not None else self.empty(out_shape, out_elem)
        name = self.fresh("g")
        rtype = tensor_type(out_shape, out_elem)
        ins = ""
        if inputs:
            ins = (f" ins({', '.join(n.name for n in inputs)} : "
                   f"{', '.join(n.type for n in inputs)})")
        self.line(f"{name} = linalg.generic {{indexing_maps = [{indexing}], "
                  f"iterator_types = [{its}]}}{ins} outs({out} : {rtype}) {{")
        args = [f"{b}: {n.elem}" for b, n in zip(block, inputs)] + [f"{out_arg}: {out_elem}"]
        self.line(f"^bb0({', '.join(args)}):")
        self.kinds.append(f"value-{out_elem}")
        for text in lines:
            self.line("  " + text)
        self.line(f"  linalg.yield {result} : {out_elem}")
        self.line(f"}} -> {rtype}")
        return name

    # --- elementwise ---------------------------------------------------------

    def elementwise(self, x):
        """One to three arith ops on `x` and other operands in one generic."""
        rng = self.rng
        body = Body(self, x.shape)
        name, value, err = body.use(x)
        cur = (x.elem, name, value, err)
        labels = []
        for _ in range(int(rng.choice([1, 1, 2, 3]))):
            step = None
            for _ in range(6):
                step = self.scalar_op(body, *cur)
                if step is not None:
                    break
            if step is None:
                break
            text, elem, value, err, label = step
            if elem in FLOATS and np.any(np.abs(value) > LIMIT[elem]):
                break
            result = self.fresh("s")
            body.lines.append(f"{result} = {text}")
            cur = (elem, result, value, err)
            labels.append(label)
        if not body.lines:
            return None
        elem, result, value, err = cur
        maps = [tuple(range(len(x.shape) - len(n.shape), len(x.shape))) for n in body.inputs]
        name = self.generic(x.shape, elem, body.inputs, body.block, maps,
                            ["parallel"] * len(x.shape), body.lines, result, self.fresh("o"))
        self.kinds.extend(labels)
        return Node(name, elem, x.shape, np.ascontiguousarray(value), np.ascontiguousarray(err))

    def scalar_op(self, body, elem, src, value, err):
        """One arith op on the scalar `src`: (text, elem, value, bound, label)
        or None when the drawn op does not apply."""
        rng = self.rng
        kind = str(rng.choice(["binary", "binary", "compare", "select", "cast"]))
        if kind == "binary":
            if elem == "i1":
                op = str(rng.choice(I1_BINARY))
            elif elem in INTS:
                op = str(rng.choice(INT_BINARY))
            else:
                op = str(rng.choice(FLOAT_BINARY))
            exact = op == "divf"
            if exact and np.any(err):
                return None
            name, v, e = body.operand(elem, exact)
            if elem in INTS:
                r = int_binary(op, value, v, elem)
                return f"arith.{op} {src}, {name} : {elem}", elem, r, err, f"{op}-{elem}"
            if exact and np.any(v == 0):
                return None
            r, e2 = float_binary(op, value, v, err, e, elem)
            return f"arith.{op} {src}, {name} : {elem}", elem, r, e2, f"{op}-{elem}"
        if kind == "compare":
            if np.any(err):
                return None
            name, v, _ = body.operand(elem, exact=True)
            if elem in INTS:
                pred = str(rng.choice(INT_PREDICATES if elem != "i1" else ("eq", "ne")))
                r = compare_int(pred, value, v, elem)
                return (f"arith.cmpi {pred}, {src}, {name} : {elem}", "i1", r,
                        np.zeros(r.shape), f"cmpi-{elem}")
            pred = str(rng.choice(FLOAT_PREDICATES))
            r = compare_float(pred, value, v)
            return (f"arith.cmpf {pred}, {src}, {name} : {elem}", "i1", r, np.zeros(r.shape),
                    f"cmpf-{elem}")
        if kind == "select":
            if elem == "i1":  # the current value is the condition
                t = str(rng.choice(TYPES))
                na, va, ea = body.operand(t)
                nb, vb, eb = body.operand(t)
                r, e = np.where(value != 0, va, vb), np.where(value != 0, ea, eb)
                return f"arith.select {src}, {na}, {nb} : {t}", t, r, e, f"select-{t}"
            nc, vc, _ = body.operand("i1")
            nb, vb, eb = body.operand(elem)
            r, e = np.where(vc != 0, value, vb), np.where(vc != 0, err, eb)
            return f"arith.select {nc}, {src}, {nb} : {elem}", elem, r, e, f"select-{elem}"
        dst = str(rng.choice(TYPES))
        forms = cast(elem, dst, value, err)
        if not forms:
            return None
        op, r, e = forms[int(rng.integers(len(forms)))]
        return f"arith.{op} {src} : {elem} to {dst}", dst, r, e, f"{op}-{elem}-{dst}"

    # --- reduction -----------------------------------------------------------

    def reduction(self, x):
        """Reduces one dim of `x` (rank >= 2) into a filled init."""
        rng = self.rng
        rank = len(x.shape)
        dim = int(rng.integers(rank))
        out_shape = x.shape[:dim] + x.shape[dim + 1:]
        elem = x.elem
        if elem == "i1":
            op = str(rng.choice(("andi", "ori", "xori")))
        elif elem in INTS:
            op = str(rng.choice(("addi", "maxsi", "minsi", "muli", "xori")))
        else:
            op = str(rng.choice(("addf", "addf", "maximumf", "minimumf")))
        init = random_values(rng, elem, ())
        moved = np.moveaxis(x.value, dim, -1)
        moved_err = np.moveaxis(x.err, dim, -1)
        terms = moved.shape[-1]
        acc = np.full(out_shape, init)
        if elem in INTS:
            for k in range(terms):
                acc = int_binary(op, acc, moved[..., k], elem)
            err = np.zeros(out_shape)
        elif op == "addf":
            for k in range(terms):
                acc = round_to(acc + moved[..., k], elem)
            # A reassociated sum differs from this order by at most
            # 2 n eps sum|x| (both orders), on top of its inputs' bounds.
            total = abs(float(init)) + np.sum(np.abs(moved), axis=-1)
            err = (np.sum(moved_err, axis=-1) + 2 * (terms + 1) * EPS[elem] * total
                   + 2 * (terms + 1) * TINY[elem])
        else:
            f = np.maximum if op == "maximumf" else np.minimum
            acc = f(acc, f.reduce(moved, axis=-1))
            err = np.max(moved_err, axis=-1)
        if elem in FLOATS and np.any(np.abs(acc) + err > LIMIT[elem]):
            return None
        cst = self.fresh("init")
        # An i1 constant is a typed bool attribute: `true`, no `: i1`.
        suffix = "" if elem == "i1" else f" : {elem}"
        self.line(f"{cst} = arith.constant {literal(init, elem)}{suffix}")
        empty = self.empty(out_shape, elem)
        fill = self.fresh("fill")
        rtype = tensor_type(out_shape, elem)
        self.line(f"{fill} = linalg.fill ins({cst} : {elem}) outs({empty} : {rtype}) -> {rtype}")
        iterators = ["parallel"] * rank
        iterators[dim] = "reduction"
        block, out_arg, s = self.fresh("x"), self.fresh("o"), self.fresh("s")
        name = self.generic(out_shape, elem, [x], [block], [tuple(range(rank))], iterators,
                            [f"{s} = arith.{op} {block}, {out_arg} : {elem}"], s, out_arg,
                            init=fill)
        self.kinds.append(f"reduce-{op}-{elem}")
        return Node(name, elem, out_shape, acc, err)

    # --- gather --------------------------------------------------------------

    def column_view(self, x):
        """x[..., o:o + w] (an extract_slice), possibly expanded by a trailing
        unit dimension: (name, type, shape, value, err, extra index)."""
        rng, rank, cols = self.rng, len(x.shape), x.shape[-1]
        w = int(rng.integers(1, cols))
        o = int(rng.integers(0, cols - w + 1))
        shape = x.shape[:-1] + (w,)
        view = self.fresh("view")
        self.line(f"{view} = tensor.extract_slice {x.name}[{', '.join(['0'] * (rank - 1) + [str(o)])}] "
                  f"[{', '.join(map(str, shape))}] [{', '.join(['1'] * rank)}] : "
                  f"{x.type} to {tensor_type(shape, x.elem)}")
        value, err = x.value[..., o:o + w], x.err[..., o:o + w]
        vtype, extra = tensor_type(shape, x.elem), []
        if rng.random() < 0.5:
            groups = [[d] for d in range(rank - 1)] + [[rank - 1, rank]]
            expanded = self.fresh("view")
            self.line(f"{expanded} = tensor.expand_shape {view} {groups} output_shape "
                      f"[{', '.join(map(str, shape + (1,)))}] : {vtype} into "
                      f"{tensor_type(shape + (1,), x.elem)}")
            view, vtype = expanded, tensor_type(shape + (1,), x.elem)
            zero = self.fresh("c")
            self.line(f"{zero} = arith.constant 0 : index")
            extra = [zero]
        self.kinds.append(f"gather-view-{x.elem}")
        return Node(view, x.elem, shape, value, err), vtype, extra

    def gather(self, x):
        """out[i, j...] = x[idx[i, j...], j...] with idx an integer tensor, or
        x[n - 1 - i, j...] (linalg.index arithmetic); x may be a column view
        of the drawn tensor."""
        rng = self.rng
        xtype, extra = x.type, []
        if len(x.shape) >= 2 and x.shape[-1] >= 2 and rng.random() < 0.3:
            x, xtype, extra = self.column_view(x)
        rank, rows = len(x.shape), x.shape[0]
        dims = [self.fresh("i") for _ in range(rank)]
        lines = [f"{dims[d]} = linalg.index {d} : index" for d in range(1, rank)]
        inputs, block = [], []
        if rng.random() < 0.6:
            out_shape = (int(rng.integers(1, 2 * rows + 2)),) + x.shape[1:]
            if math.prod(out_shape) > MAX_ELEMENTS:
                return None
            itype = str(rng.choice(("i8", "i16", "i32", "i64", "index")))
            if itype == "i8" and rows > 127:
                itype = "i32"
            rows_of = rng.integers(0, rows, out_shape).astype(np.int64)
            if itype == "index":
                idx = self.argument(Node(None, "index", out_shape, rows_of), rows_of)
            else:
                idx = self.source(itype, out_shape, values=rows_of)
            inputs, block = [idx], [self.fresh("x")]
            cast_op = "arith.index_cast" if itype != "index" else None
            if cast_op:
                lines.append(f"{dims[0]} = arith.index_cast {block[0]} : {itype} to index")
            else:
                dims[0] = block[0]
            self.kinds.append(f"gather-{itype}-{x.elem}")
        else:
            out_shape = x.shape
            last, i0 = self.fresh("last"), self.fresh("i")
            self.line(f"{last} = arith.constant {rows - 1} : index")
            lines.append(f"{i0} = linalg.index 0 : index")
            lines.append(f"{dims[0]} = arith.subi {last}, {i0} : index")
            rows_of = np.broadcast_to(
                (rows - 1 - np.arange(rows)).reshape((-1,) + (1,) * (rank - 1)), out_shape)
            self.kinds.append(f"gather-reversed-{x.elem}")
        rest = tuple(np.indices(out_shape)[1:])
        value = x.value[(rows_of,) + rest]
        err = x.err[(rows_of,) + rest]
        v = self.fresh("v")
        lines.append(f"{v} = tensor.extract {x.name}[{', '.join(dims + extra)}] : {xtype}")
        name = self.generic(out_shape, x.elem, inputs, block, [tuple(range(rank))] * len(inputs),
                            ["parallel"] * rank, lines, v, self.fresh("o"))
        return Node(name, x.elem, out_shape, value, err)


def draw_shape(rng, extent):
    rank = int(rng.choice([1, 2, 2, 3]))
    dims = [extent(rng, 1, 40) for _ in range(rank)]
    while math.prod(dims) > MAX_ELEMENTS:
        i = dims.index(max(dims))
        dims[i] = max(1, dims[i] // 2)
    return tuple(dims)


def gen_linalg(case, rng, extent):
    """Fills `case` with a chain of 2-6 steps; its result has a drawn type."""
    chain = Chain(case, rng)
    shape = draw_shape(rng, extent)
    x = chain.source(str(rng.choice(TYPES)), shape, allow_const=False)
    for _ in range(int(rng.integers(2, 7))):
        r = rng.random()
        nxt = None
        if r < 0.15 and len(x.shape) >= 2:
            nxt = chain.reduction(x)
        elif r < 0.3:
            nxt = chain.gather(x)
        if nxt is None:
            nxt = chain.elementwise(x)
        if nxt is not None:
            x = nxt
            chain.nodes.append(x)
    # The result is also drawn to be of any type: a last cast where needed.
    want = str(rng.choice(TYPES))
    if want != x.elem:
        forms = cast(x.elem, want, x.value, x.err)
        if forms and want in FLOATS:
            forms = [f for f in forms if not np.any(np.abs(f[1]) > LIMIT[want])]
        if forms:
            op, value, err = forms[int(rng.integers(len(forms)))]
            body = Body(chain, x.shape)
            b, _, _ = body.use(x)
            s = chain.fresh("s")
            name = chain.generic(x.shape, want, [x], [b], [tuple(range(len(x.shape)))],
                                 ["parallel"] * len(x.shape),
                                 [f"{s} = arith.{op} {b} : {x.elem} to {want}"], s,
                                 chain.fresh("o"))
            chain.kinds.append(f"{op}-{x.elem}-{want}")
            x = Node(name, want, x.shape, value, err)
    case.result, case.rtype, case.elem = x.name, x.type, x.elem
    case.expect, case.tol = x.value, x.err
    case.coverage = coverage(chain.kinds, x.elem)
    kinds = sorted(set(k for k in chain.kinds if not k.startswith("value-")))
    case.desc = (f"linalg {x.elem}{list(x.shape)} {len(case.body)} lines: "
                 + ",".join(kinds[:12]) + (",..." if len(kinds) > 12 else ""))
    return case


FORMS = ("argument", "dense", "splat", "result", "intermediate", "elementwise", "broadcast",
         "reduction", "gather")
ELEMENTWISE = set(INT_BINARY) | set(FLOAT_BINARY) | {"cmpi", "cmpf", "select"}


def coverage(kinds, result_elem):
    """The (form, type) pairs a case exercises (FORMS x TYPES)."""
    pairs = {("result", result_elem)}
    for k in kinds:
        parts = k.split("-")
        head, elem = parts[0], parts[-1]
        if elem not in TYPES:
            continue
        form = {"arg": "argument", "dense": "dense", "splat": "splat",
                "value": "intermediate", "broadcast": "broadcast", "reduce": "reduction",
                "gather": "gather"}.get(head)
        if form is None and head in ELEMENTWISE:
            form = "elementwise"
        if form is None and len(parts) == 3:  # casts: op-src-dst
            pairs.add(("elementwise", parts[1]))
            form = "elementwise"
        if form:
            pairs.add((form, elem))
    return pairs
