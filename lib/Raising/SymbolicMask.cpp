//===- SymbolicMask.cpp - masks of dynamic length, read symbolically ------===//
//
// evaluateKeyMaskedTensor reads a mask element by element, which needs its
// shape. At a dynamic sequence length the mask is read symbolically instead:
// the element at logit (b, h, i, j) as a formula in b, h, i, j — integers
// affine in them (aranges, offsets), booleans a conjunction of `e >= 0`
// atoms and entries `keys[b', j']` of the one [B, Sk] i1 tensor that is not
// computed from indices. A formula equal to `i - j >= 0 and keys[b, j]`
// holds for every length, so the mask is causal with that key mask (and
// `j - i + L >= 0` adds a window of L keys to the left). Dynamic sizes are
// symbols: a [B*S] flattening reads as `b * S + j`, and a flat index `x * S
// + j` splits back into (x, j) when the loop j ranges over [0, S) (ONNX's
// GatherND of the mask).
//
//===----------------------------------------------------------------------===//

#include "AttentionTerms.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// `expr >= 0` (key empty), or `keys[b, k]` (key set).
struct Atom {
  AffineExpr expr, b, k;
  bool isKey() const { return static_cast<bool>(b); }
};

/// An integer (affine in the logit's indices) or a boolean (false, or the
/// conjunction of `atoms`).
struct Sym {
  AffineExpr value; // integers
  bool isFalse = false;
  SmallVector<Atom> atoms;
  bool isInt() const { return static_cast<bool>(value); }
};

/// Whether `expr >= 0` is decided for non-negative indices: every
/// coefficient and the constant of one sign.
/// `expr` as coefficients of d0..d(n-1) and a constant (last), if linear.
static bool flatten(AffineExpr expr, int64_t factor,
                    SmallVectorImpl<int64_t> &flat) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    flat.back() += factor * c.getValue();
    return true;
  }
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    if (d.getPosition() + 1 >= flat.size())
      return false;
    flat[d.getPosition()] += factor;
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return false;
  if (bin.getKind() == AffineExprKind::Add)
    return flatten(bin.getLHS(), factor, flat) &&
           flatten(bin.getRHS(), factor, flat);
  if (bin.getKind() == AffineExprKind::Mul)
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return flatten(bin.getLHS(), factor * c.getValue(), flat);
  return false;
}

std::optional<bool> decide(AffineExpr expr, unsigned numDims) {
  SmallVector<int64_t> flat(numDims + 1, 0);
  if (!flatten(expr, 1, flat))
    return std::nullopt;
  if (llvm::all_of(flat, [](int64_t c) { return c >= 0; }))
    return true;
  if (llvm::all_of(ArrayRef(flat).drop_back(),
                   [](int64_t c) { return c <= 0; }) &&
      flat.back() < 0)
    return false;
  return std::nullopt;
}

/// A dynamic size, as a symbol of the formulas: dimension `dim` of `of`.
struct SizeSymbol {
  Value of;
  int64_t dim;
};

class SymbolicEvaluator {
public:
  SymbolicEvaluator(unsigned numDims) : numDims(numDims) {}

  FailureOr<Sym> at(Value tensor, ArrayRef<AffineExpr> index, int depth = 0);
  Value keys;
  /// The dynamic sizes the formulas name, symbol k is `symbols[k]`.
  SmallVector<SizeSymbol> symbols;
  /// Facts the formulas rely on: loop `first` ranges over [0, symbol
  /// `second`) (a flat index `x * S + j` split back into `x` and `j`).
  SmallVector<std::pair<unsigned, unsigned>> extents;

private:
  /// The symbol of dimension `dim` of `of`: one symbol per size that value
  /// bounds prove equal.
  AffineExpr symbol(Value of, int64_t dim) {
    for (auto [k, sym] : llvm::enumerate(symbols))
      if (haveSameDim(sym.of, sym.dim, of, dim))
        return getAffineSymbolExpr(k, of.getContext());
    symbols.push_back({of, dim});
    return getAffineSymbolExpr(symbols.size() - 1, of.getContext());
  }
  /// The size of dimension `d` of `type` (of `of`) as an expression.
  AffineExpr size(Value of, RankedTensorType type, int64_t d) {
    if (type.isDynamicDim(d))
      return symbol(of, d);
    return getAffineConstantExpr(type.getDimSize(d), of.getContext());
  }
  /// `f` as `x * S + y` with `S` the symbol `s` and `y` a loop index, whose
  /// range [0, S) is recorded in `extents`: `(x, y)`.
  std::optional<std::pair<AffineExpr, AffineExpr>> split(AffineExpr f,
                                                         AffineExpr s);
  FailureOr<Sym> constantTensor(DenseIntElementsAttr dense,
                                ArrayRef<AffineExpr> index);

  FailureOr<Sym> scalar(Value v, linalg::GenericOp generic,
                        ArrayRef<AffineExpr> loops, int depth);
  Sym atom(AffineExpr expr) {
    Sym s;
    if (std::optional<bool> known = decide(expr, numDims))
      s.isFalse = !*known;
    else
      s.atoms.push_back({expr, {}, {}});
    return s;
  }
  /// An i1 constant (false or the empty conjunction) or an integer.
  static Sym constant(Type type, const APInt &c) {
    Sym s;
    if (type.isInteger(1))
      s.isFalse = c.isZero();
    else
      s.value = getAffineConstantExpr(c.getSExtValue(), type.getContext());
    return s;
  }
  static Sym conjunction(Sym a, const Sym &b) {
    a.isFalse |= b.isFalse;
    a.atoms.append(b.atoms);
    return a;
  }
  unsigned numDims;
  /// Elements read in all: the formula is a tree over the producers' DAG
  /// (`x and x` reads x twice), so a bound keeps compile time bounded.
  int64_t budget = 4096;
};

FailureOr<Sym> SymbolicEvaluator::at(Value tensor, ArrayRef<AffineExpr> index,
                                     int depth) {
  if (depth > 64 || --budget < 0)
    return failure();
  auto type = cast<RankedTensorType>(tensor.getType());
  Operation *def = tensor.getDefiningOp();
  // A splat constant or a fill.
  Attribute splat;
  if (matchPattern(tensor, m_Constant(&splat))) {
    if (auto dense = dyn_cast<DenseElementsAttr>(splat);
        dense && dense.isSplat() && isa<IntegerType>(type.getElementType())) {
      return constant(type.getElementType(), dense.getSplatValue<APInt>());
    }
    if (auto dense = dyn_cast<DenseIntElementsAttr>(splat);
        dense && !type.getElementType().isInteger(1))
      return constantTensor(dense, index);
  }
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(def)) {
    APInt c;
    if (!matchPattern(fill.value(), m_ConstantInt(&c)))
      return failure();
    return constant(type.getElementType(), c);
  }
  // Reshapes: unit dimensions added or dropped; a group of two sizes
  // flattened row-major (ONNX's GatherND of a [B, S] mask at `b * S + j`).
  auto regroup = [&](Value source, ArrayRef<ReassociationIndices> groups,
                     bool expand) -> FailureOr<Sym> {
    Value expandedValue = expand ? tensor : source;
    auto expanded = cast<RankedTensorType>(expandedValue.getType());
    auto srcType = cast<RankedTensorType>(source.getType());
    SmallVector<AffineExpr> srcIndex(
        srcType.getRank(), getAffineConstantExpr(0, tensor.getContext()));
    for (auto [g, group] : llvm::enumerate(groups)) {
      auto nonUnit = llvm::filter_to_vector(
          group, [&](int64_t e) { return expanded.getDimSize(e) != 1; });
      if (nonUnit.size() > 2)
        return failure();
      if (nonUnit.empty())
        continue;
      if (nonUnit.size() == 1) {
        if (expand)
          srcIndex[g] = index[nonUnit.front()];
        else
          srcIndex[nonUnit.front()] = index[g];
        continue;
      }
      int64_t outer = nonUnit[0], inner = nonUnit[1];
      AffineExpr stride = size(expandedValue, expanded, inner);
      if (expand) {
        srcIndex[g] = index[outer] * stride + index[inner];
        continue;
      }
      auto parts = split(index[g], stride);
      if (!parts)
        return failure();
      srcIndex[outer] = parts->first;
      srcIndex[inner] = parts->second;
    }
    return at(source, srcIndex, depth + 1);
  };
  // A slice with unit strides and static offsets; a concat read at a
  // constant index along its axis.
  if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(def)) {
    if (!slice.hasUnitStride() ||
        slice.getSourceType().getRank() != type.getRank() ||
        ShapedType::isDynamicShape(slice.getStaticOffsets()))
      return failure();
    SmallVector<AffineExpr> srcIndex;
    for (auto [x, offset] : llvm::zip(index, slice.getStaticOffsets()))
      srcIndex.push_back(x + offset);
    return at(slice.getSource(), srcIndex, depth + 1);
  }
  if (auto concat = dyn_cast_or_null<tensor::ConcatOp>(def)) {
    auto c = dyn_cast<AffineConstantExpr>(index[concat.getDim()]);
    if (!c)
      return failure();
    int64_t at0 = c.getValue();
    for (Value piece : concat.getInputs()) {
      int64_t n =
          cast<RankedTensorType>(piece.getType()).getDimSize(concat.getDim());
      if (ShapedType::isDynamic(n))
        return failure();
      if (at0 < n) {
        SmallVector<AffineExpr> pieceIndex(index);
        pieceIndex[concat.getDim()] =
            getAffineConstantExpr(at0, tensor.getContext());
        return this->at(piece, pieceIndex, depth + 1);
      }
      at0 -= n;
    }
    return failure();
  }
  if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(def))
    return regroup(expand.getSrc(), expand.getReassociationIndices(), true);
  if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(def))
    return regroup(collapse.getSrc(), collapse.getReassociationIndices(),
                   false);
  if (auto generic = dyn_cast_or_null<linalg::GenericOp>(def)) {
    if (generic.getNumResults() == 1 &&
        generic.getNumParallelLoops() == generic.getNumLoops() &&
        generic.getIndexingMapsArray().back().isIdentity()) {
      Value yielded = generic.getBody()->getTerminator()->getOperand(0);
      FailureOr<Sym> s = scalar(yielded, generic, index, depth);
      if (succeeded(s))
        return s;
    }
  }
  // The one [B, Sk] i1 tensor the indices do not compute: the key mask.
  if (type.getRank() == 2 && type.getElementType().isInteger(1) &&
      (!keys || keys == tensor)) {
    keys = tensor;
    Sym s;
    s.atoms.push_back({AffineExpr(), index[0], index[1]});
    return s;
  }
  return failure();
}

FailureOr<Sym> SymbolicEvaluator::scalar(Value v, linalg::GenericOp generic,
                                         ArrayRef<AffineExpr> loops,
                                         int depth) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != generic.getBody() ||
        arg.getArgNumber() >= generic.getNumDpsInputs())
      return failure();
    OpOperand *in = generic.getDpsInputOperand(arg.getArgNumber());
    SmallVector<AffineExpr> index;
    for (AffineExpr e : generic.getMatchingIndexingMap(in).getResults())
      index.push_back(e.replaceDimsAndSymbols(loops, {}));
    return at(in->get(), index, depth + 1);
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return failure();
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return constant(v.getType(), c);
  // A size from above the generic (through index casts): a symbol.
  if (!generic->isAncestor(op)) {
    Value x = v;
    while (auto cast = x.getDefiningOp<arith::IndexCastOp>())
      x = cast.getIn();
    auto dim = x.getDefiningOp<tensor::DimOp>();
    std::optional<int64_t> d = dim ? dim.getConstantIndex() : std::nullopt;
    if (!d)
      return failure();
    Sym s;
    s.value = size(dim.getSource(),
                   cast<RankedTensorType>(dim.getSource().getType()), *d);
    return s;
  }
  auto operand = [&](unsigned i) {
    return scalar(op->getOperand(i), generic, loops, depth);
  };
  if (auto index = dyn_cast<linalg::IndexOp>(op)) {
    if (index->getParentOp() != generic)
      return failure();
    Sym s;
    s.value = loops[index.getDim()];
    return s;
  }
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
    return operand(0);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp,
          arith::CmpIOp>(op)) {
    FailureOr<Sym> a = operand(0), b = operand(1);
    if (failed(a) || failed(b))
      return failure();
    if (isa<arith::AndIOp>(op)) {
      if (a->isInt() || b->isInt())
        return failure();
      return conjunction(*a, *b);
    }
    if (!a->isInt() || !b->isInt())
      return failure();
    Sym s;
    if (isa<arith::AddIOp>(op))
      s.value = a->value + b->value;
    else if (isa<arith::SubIOp>(op))
      s.value = a->value - b->value;
    else if (isa<arith::MulIOp>(op)) {
      if (!a->value.isSymbolicOrConstant() && !b->value.isSymbolicOrConstant())
        return failure();
      s.value = a->value * b->value;
    }
    if (s.isInt())
      return s;
    AffineExpr x = a->value, y = b->value;
    switch (cast<arith::CmpIOp>(op).getPredicate()) {
    case arith::CmpIPredicate::sle:
      return atom(y - x);
    case arith::CmpIPredicate::slt:
      return atom(y - x - 1);
    case arith::CmpIPredicate::sge:
      return atom(x - y);
    case arith::CmpIPredicate::sgt:
      return atom(x - y - 1);
    case arith::CmpIPredicate::eq:
      return conjunction(atom(x - y), atom(y - x));
    default:
      return failure();
    }
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    FailureOr<Sym> cond = operand(0);
    if (failed(cond) || cond->isInt() ||
        (!cond->isFalse && !cond->atoms.empty()))
      return failure();
    return operand(cond->isFalse ? 2 : 1);
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    SmallVector<AffineExpr> index;
    for (unsigned i = 1; i < op->getNumOperands(); ++i) {
      FailureOr<Sym> x = operand(i);
      if (failed(x) || !x->isInt())
        return failure();
      index.push_back(x->value);
    }
    return at(extract.getTensor(), index, depth + 1);
  }
  return failure();
}

std::optional<std::pair<AffineExpr, AffineExpr>>
SymbolicEvaluator::split(AffineExpr f, AffineExpr s) {
  // The terms of the sum: multiples of `s` form x, the rest y.
  SmallVector<AffineExpr> terms{f}, xs, ys;
  while (!terms.empty()) {
    AffineExpr t = terms.pop_back_val();
    auto bin = dyn_cast<AffineBinaryOpExpr>(t);
    if (bin && bin.getKind() == AffineExprKind::Add) {
      terms.append({bin.getLHS(), bin.getRHS()});
      continue;
    }
    if (bin && bin.getKind() == AffineExprKind::Mul &&
        (bin.getRHS() == s || bin.getLHS() == s)) {
      xs.push_back(bin.getRHS() == s ? bin.getLHS() : bin.getRHS());
      continue;
    }
    if (t == s) {
      xs.push_back(getAffineConstantExpr(1, s.getContext()));
      continue;
    }
    ys.push_back(t);
  }
  if (ys.size() != 1 || xs.empty())
    return std::nullopt;
  auto y = dyn_cast<AffineDimExpr>(ys.front());
  if (!y)
    return std::nullopt;
  AffineExpr x = xs.front();
  for (AffineExpr e : ArrayRef(xs).drop_front())
    x = x + e;
  // 0 <= y < S must hold: y is a loop whose extent is S (checked by the
  // caller), or a static S (the loop's extent then must be at most S).
  if (auto sym = dyn_cast<AffineSymbolExpr>(s))
    extents.push_back({y.getPosition(), sym.getPosition()});
  else
    return std::nullopt;
  return std::make_pair(x, AffineExpr(y));
}

/// An integer constant whose elements are affine in their index (`arange`
/// tables, batch indices): that function of `index`.
FailureOr<Sym> SymbolicEvaluator::constantTensor(DenseIntElementsAttr dense,
                                                 ArrayRef<AffineExpr> index) {
  auto type = cast<RankedTensorType>(dense.getType());
  int64_t rank = type.getRank();
  if (dense.getNumElements() == 0 || dense.getNumElements() > 4096)
    return failure();
  SmallVector<APInt> values(dense.getValues<APInt>());
  SmallVector<int64_t> strides = computeStrides(type.getShape());
  int64_t base = values[0].getSExtValue();
  SmallVector<int64_t> coeffs(rank, 0);
  for (int64_t d = 0; d < rank; ++d)
    if (type.getDimSize(d) > 1)
      coeffs[d] = values[strides[d]].getSExtValue() - base;
  for (int64_t n = 0, e = values.size(); n < e; ++n) {
    SmallVector<int64_t> at = delinearize(n, strides);
    int64_t want = base;
    for (int64_t d = 0; d < rank; ++d)
      want += coeffs[d] * at[d];
    if (values[n].getSExtValue() != want)
      return failure();
  }
  Sym s;
  s.value = getAffineConstantExpr(base, type.getContext());
  for (int64_t d = 0; d < rank; ++d)
    if (coeffs[d] != 0)
      s.value = s.value + index[d] * coeffs[d];
  return s;
}

} // namespace

LogicalResult raising::classifySymbolicValidity(Value valid, AffineMap map,
                                                const LogitsSpace &space,
                                                Terms &terms) {
  if (!space.batch || terms.keyMask)
    return failure();
  SymbolicEvaluator eval(map.getNumDims());
  FailureOr<Sym> f = eval.at(valid, map.getResults());
  if (failed(f) || f->isInt() || f->isFalse || !eval.keys)
    return failure();
  MLIRContext *ctx = valid.getContext();
  AffineExpr b = getAffineDimExpr(*space.batch, ctx);
  AffineExpr i = getAffineDimExpr(space.row, ctx);
  AffineExpr j = getAffineDimExpr(space.col, ctx);
  bool key = false, causal = false;
  std::optional<int64_t> window;
  for (const Atom &a : f->atoms) {
    if (a.isKey() && a.b == b && a.k == j) {
      key = true;
      continue;
    }
    if (!a.isKey() && a.expr == i - j) {
      causal = true;
      continue;
    }
    // `j - i + L >= 0`: keys at most L before the query.
    if (a.isKey() || window)
      return failure();
    auto left = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
        a.expr - (j - i), map.getNumDims(), eval.symbols.size()));
    if (!left || left.getValue() < 0)
      return failure();
    window = left.getValue();
  }
  if (window && !causal)
    return failure();
  // Bottom-right causality is `i - j >= 0` only when Sq = Sk; the keys
  // cover the batch and every key.
  auto keysType = cast<RankedTensorType>(eval.keys.getType());
  if (!key || !space.rows.of || !space.cols.of ||
      keysType.getDimSize(0) != space.b ||
      !haveSameDim(eval.keys, 1, space.cols.of, space.cols.dim) ||
      (causal && !haveSameDim(space.rows.of, space.rows.dim, space.cols.of,
                              space.cols.dim)))
    return failure();
  // A flat index split back relied on its loop's extent: the query or key
  // length.
  for (auto [loop, k] : eval.extents) {
    const LogitsSpace::Extent *extent = loop == space.col   ? &space.cols
                                        : loop == space.row ? &space.rows
                                                            : nullptr;
    const SizeSymbol &sym = eval.symbols[k];
    if (!extent || !haveSameDim(extent->of, extent->dim, sym.of, sym.dim))
      return failure();
  }
  terms.causal = causal;
  terms.windowLeft = window;
  terms.keyMask = eval.keys;
  return success();
}
