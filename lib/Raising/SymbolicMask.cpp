//===- SymbolicMask.cpp - masks of dynamic length, read symbolically ------===//
//
// evaluateKeyMaskedTensor reads a mask element by element, which needs its
// shape. At a dynamic sequence length the mask is read symbolically instead:
// the element at logit (b, h, i, j) as a formula in b, h, i, j — integers
// affine in them (aranges, offsets), booleans a conjunction of `e >= 0`
// atoms and entries `keys[b', j']` of the one [B, Sk] i1 tensor that is not
// computed from indices. A formula equal to `i - j >= 0 and keys[b, j]`
// holds for every length, so the mask is causal with that key mask (and
// `j - i + L >= 0` adds a window of L keys to the left).
//
//===----------------------------------------------------------------------===//

#include "AttentionTerms.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

class SymbolicEvaluator {
public:
  SymbolicEvaluator(unsigned numDims) : numDims(numDims) {}

  FailureOr<Sym> at(Value tensor, ArrayRef<AffineExpr> index, int depth = 0);
  Value keys;

private:
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
  if (matchPattern(tensor, m_Constant(&splat)))
    if (auto dense = dyn_cast<DenseElementsAttr>(splat);
        dense && dense.isSplat() && isa<IntegerType>(type.getElementType())) {
      return constant(type.getElementType(), dense.getSplatValue<APInt>());
    }
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(def)) {
    APInt c;
    if (!matchPattern(fill.value(), m_ConstantInt(&c)))
      return failure();
    return constant(type.getElementType(), c);
  }
  // Reshapes that add or drop unit dimensions.
  auto regroup = [&](Value source, ArrayRef<ReassociationIndices> groups,
                     bool expand) -> FailureOr<Sym> {
    auto expanded =
        cast<RankedTensorType>(expand ? tensor.getType() : source.getType());
    auto srcType = cast<RankedTensorType>(source.getType());
    SmallVector<AffineExpr> srcIndex(
        srcType.getRank(), getAffineConstantExpr(0, tensor.getContext()));
    for (auto [g, group] : llvm::enumerate(groups)) {
      auto nonUnit = llvm::filter_to_vector(
          group, [&](int64_t e) { return expanded.getDimSize(e) != 1; });
      if (nonUnit.size() > 1)
        return failure();
      if (nonUnit.empty())
        continue;
      if (expand)
        srcIndex[g] = index[nonUnit.front()];
      else
        srcIndex[nonUnit.front()] = index[g];
    }
    return at(source, srcIndex, depth + 1);
  };
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
    auto left = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(a.expr - (j - i), map.getNumDims(), 0));
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
  terms.causal = causal;
  terms.windowLeft = window;
  terms.keyMask = eval.keys;
  return success();
}
