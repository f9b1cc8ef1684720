//===- RaiseRotary.cpp - the posenc-raise-rotary pass ---------------------===//
//
// Importers decompose RoPE into slices, negations, concatenations, cos/sin
// tables and elementwise products. This pass reads that expression back and
// checks every part of it (the halves, the sign, the table layout, the
// broadcast of the tables over heads) before replacing it by posenc.rotary.
//
//===----------------------------------------------------------------------===//

#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/DebugLog.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

#define DEBUG_TYPE "posenc-raise-rotary"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCRAISEROTARY
#include "posenc/Raising/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// What a cos or sin table is computed from:
/// `[factor *] trig([concat(f, f) | f])`, `f = float(positions) * invFreq`.
struct TableSource {
  Value positions;    // integer [S] or [B, S]; null for an arange
  int64_t offset = 0; // first position of the arange
  Value invFreq;      // any shape with one non-unit dimension
  Value factor;       // scalar attention factor, or null
  std::optional<double> factorValue; // its value when constant
  Value angles;                      // `f`, to check that cos and sin agree
};

/// Reads `table` (the operand of the rotary multiply, unit reshapes already
/// stripped) as `[factor *] TrigOp(...)` of angles; `fullWidth` tables repeat
/// the angles: `concat(f, f)` (half-split pairs share a frequency).
template <typename TrigOp>
std::optional<TableSource> matchTable(Value table, bool fullWidth) {
  Value v = stripUnitReshapes(table);
  // HF computes the tables in f32 and casts them to the activation type.
  if (auto cast = matchElementwise<arith::TruncFOp>(v);
      cast && cast->getInput(0) && cast->getMap(0).isIdentity())
    v = cast->getInput(0)->get();
  TableSource src;
  if (auto mul = matchElementwise<arith::MulFOp>(v)) {
    for (unsigned i = 0; i < 2 && !src.factor; ++i) {
      Value scalar = mul->getScalar(1 - i);
      if (scalar && scalar.getType().isF32() && mul->isIdentityInput(i)) {
        src.factor = scalar;
        src.factorValue = getConstantFloat(scalar);
        // A factor computed in the generic's body must be a constant: it is
        // rebuilt outside.
        if (!src.factorValue &&
            mul->generic->isAncestor(scalar.getParentRegion()->getParentOp()))
          return std::nullopt;
        v = mul->getInput(i)->get();
      }
    }
    if (!src.factor)
      return std::nullopt;
  }
  auto trig = matchElementwise<TrigOp>(v);
  if (!trig || !trig->isIdentityInput(0))
    return std::nullopt;
  Value angles = trig->getInput(0)->get();
  if (fullWidth) {
    std::optional<SmallVector<Value>> halves = matchLastDimConcat(angles);
    if (!halves || halves->size() != 2 || (*halves)[0] != (*halves)[1])
      return std::nullopt;
    angles = (*halves)[0];
  }
  src.angles = angles;
  auto product = matchElementwise<arith::MulFOp>(angles);
  if (!product || !product->getInput(0) || !product->getInput(1))
    return std::nullopt;
  auto anglesType = cast<RankedTensorType>(angles.getType());
  unsigned lastDim = anglesType.getRank() - 1;
  for (unsigned i = 0; i < 2; ++i) {
    OpOperand *pos = product->getInput(i), *freq = product->getInput(1 - i);
    auto posDims =
        nonUnitDims(product->getMap(i), cast<ShapedType>(pos->get().getType()));
    auto freqDims = nonUnitDims(product->getMap(1 - i),
                                cast<ShapedType>(freq->get().getType()));
    if (!posDims || !freqDims || llvm::is_contained(*posDims, lastDim) ||
        *freqDims != SmallVector<unsigned>{lastDim} ||
        !llvm::is_sorted(*posDims))
      continue;
    // Positions become f32 by a plain integer-to-float conversion.
    auto toFloat = matchElementwise<arith::SIToFPOp>(pos->get());
    if (!toFloat || !toFloat->isIdentityInput(0))
      continue;
    Value ints = stripUnitReshapes(toFloat->getInput(0)->get());
    auto freqType = cast<ShapedType>(freq->get().getType());
    if (!freqType.getElementType().isF32() &&
        !freqType.getElementType().isF64())
      continue;
    if (std::optional<int64_t> start = matchArange(ints))
      src.offset = *start;
    else
      src.positions = ints;
    src.invFreq = freq->get();
    return src;
  }
  return std::nullopt;
}

/// The token axis of the rotary input read through a table's broadcast:
/// the table's non-unit dimensions are `[B?, S, W]` and the multiply reads
/// them through `map`; the channel must be the input's last axis.
std::optional<int64_t> tokenAxis(AffineMap map, ShapedType tableType,
                                 RankedTensorType inputType) {
  std::optional<SmallVector<unsigned>> dims = nonUnitDims(map, tableType);
  int64_t rank = inputType.getRank();
  if (!dims || dims->empty() || dims->back() != rank - 1 || dims->size() > 3)
    return std::nullopt;
  if (dims->size() == 3 && (*dims)[0] != 0)
    return std::nullopt;
  if (dims->size() >= 2)
    return (*dims)[dims->size() - 2];
  // One token: any axis of size 1 other than the batch; prefer rank - 2.
  for (int64_t axis : {rank - 2, int64_t(1)})
    if (axis > 0 && axis < rank - 1 && inputType.getDimSize(axis) == 1)
      return axis;
  return std::nullopt;
}

/// Equal sources: the same angles (or the same positions and frequencies)
/// and the same attention factor.
bool sameSource(const TableSource &a, const TableSource &b) {
  auto sameFactor = [](Value x, Value y) {
    if (x == y)
      return true;
    std::optional<double> cx = x ? getConstantFloat(x) : std::nullopt;
    std::optional<double> cy = y ? getConstantFloat(y) : std::nullopt;
    return cx && cy && *cx == *cy;
  };
  return a.positions == b.positions && a.offset == b.offset &&
         a.invFreq == b.invFreq && sameFactor(a.factor, b.factor);
}

/// A remark naming the unscaled ladder a constant inv_freq equals, if any.
void describeFrequencies(Operation *rotary, Value invFreq, int64_t rotaryDim) {
  DenseFPElementsAttr dense;
  SmallVector<double> values;
  if (matchPattern(invFreq, m_Constant(&dense))) {
    for (const APFloat &x : dense.getValues<APFloat>())
      values.push_back(x.convertToDouble());
  } else if (auto res = dyn_cast_or_null<DenseF32ResourceElementsAttr>(
                 [&]() -> Attribute {
                   Attribute a;
                   return matchPattern(invFreq, m_Constant(&a)) ? a
                                                                : Attribute();
                 }())) {
    if (std::optional<ArrayRef<float>> data = res.tryGetAsArrayRef())
      values.assign(data->begin(), data->end());
  }
  if (values.size() < 2 || int64_t(values.size()) * 2 != rotaryDim) {
    rotary->emitRemark("rotary raised with runtime frequencies");
    return;
  }
  // inv_freq[1] = base^(-2/d) names the base of an unscaled ladder.
  double base = std::pow(values[1], -double(rotaryDim) / 2.0);
  SmallVector<double> ladder = defaultInvFreq(rotaryDim, base);
  bool isLadder = values[0] == 1.0;
  for (auto [x, y] : llvm::zip_equal(values, ladder))
    isLadder &= std::abs(x - y) <= 4e-7 * std::abs(y);
  InFlightDiagnostic remark = rotary->emitRemark();
  if (isLadder)
    remark << "rotary raised; inv_freq equals the unscaled ladder of "
              "rope_theta = "
           << std::round(base);
  else
    remark << "rotary raised; inv_freq is a scaled or custom table (not an "
              "unscaled ladder), kept as a constant operand";
}

/// The pieces of a raised rotary, checked; building it is separate.
struct RotaryMatch {
  Value input;
  int64_t rotaryDim;
  int64_t tokenDim;
  TableSource source;
};

/// Builds `posenc.rotary` for `m` in place of `root`.
Value buildRotary(PatternRewriter &rewriter, Location loc, const RotaryMatch &m,
                  RotaryLayout layout) {
  auto inputType = cast<RankedTensorType>(m.input.getType());
  // inv_freq and positions may carry unit dimensions; collapse them.
  auto collapseAll = [&](Value v, int64_t keepRank) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape = nonUnitShape(v);
    while (int64_t(shape.size()) < keepRank)
      shape.insert(shape.begin(), 1);
    if (type.getRank() == int64_t(shape.size()))
      return v;
    auto target = RankedTensorType::get(shape, type.getElementType());
    std::optional<SmallVector<ReassociationIndices>> groups =
        getReassociationIndicesForCollapse(type.getShape(), shape);
    if (!groups)
      return Value();
    return tensor::CollapseShapeOp::create(rewriter, loc, target, v, *groups);
  };
  Value invFreq = collapseAll(m.source.invFreq, 1);
  Value positions;
  if (m.source.positions) {
    bool batched = nonUnitShape(m.source.positions).size() == 2;
    positions = collapseAll(m.source.positions, batched ? 2 : 1);
  }
  Value offset;
  if (m.source.offset != 0)
    offset = arith::ConstantIndexOp::create(rewriter, loc, m.source.offset);
  IntegerAttr tokenDim;
  if (m.tokenDim != inputType.getRank() - 2)
    tokenDim = rewriter.getI64IntegerAttr(m.tokenDim);
  Value factor = m.source.factor;
  if (m.source.factorValue)
    factor = arith::ConstantOp::create(
        rewriter, loc, rewriter.getF32FloatAttr(*m.source.factorValue));
  auto rotary = RotaryOp::create(
      rewriter, loc, inputType, m.input, invFreq, Value(), Value(), positions,
      offset, factor, RotaryLayoutAttr::get(rewriter.getContext(), layout),
      rewriter.getI64IntegerAttr(m.rotaryDim), tokenDim, nullptr, nullptr);
  describeFrequencies(rotary, invFreq, m.rotaryDim);
  return rotary;
}

/// Checks the operands that the tables must satisfy for input `x` of the
/// rotary multiply: both read through the same broadcast, both computed from
/// the same angles, half-width or full-width per `fullWidth`.
std::optional<RotaryMatch> matchTables(Value x, const Elementwise &cosMul,
                                       unsigned cosIdx,
                                       const Elementwise &sinMul,
                                       unsigned sinIdx, bool fullWidth,
                                       int64_t rotaryDim) {
  OpOperand *cosIn = cosMul.getInput(cosIdx), *sinIn = sinMul.getInput(sinIdx);
  if (!cosIn || !sinIn || cosMul.getMap(cosIdx) != sinMul.getMap(sinIdx) ||
      cosIn->get().getType() != sinIn->get().getType())
    return std::nullopt;
  auto resultType =
      cast<RankedTensorType>(cosMul.generic.getResult(0).getType());
  std::optional<int64_t> token =
      tokenAxis(cosMul.getMap(cosIdx), cast<ShapedType>(cosIn->get().getType()),
                resultType);
  if (!token)
    return std::nullopt;
  std::optional<TableSource> c =
      matchTable<math::CosOp>(cosIn->get(), fullWidth);
  std::optional<TableSource> s =
      matchTable<math::SinOp>(sinIn->get(), fullWidth);
  if (!c || !s || !sameSource(*c, *s))
    return std::nullopt;
  // Table width and frequency count agree with the rotated channels.
  if (nonUnitShape(c->invFreq) != SmallVector<int64_t>{rotaryDim / 2})
    return std::nullopt;
  return RotaryMatch{x, rotaryDim, *token, *c};
}

/// `x * cos + rotate_half(x) * sin`, `rotate_half(x) = concat(-x2, x1)`.
struct RaiseHalfSplit : OpRewritePattern<linalg::GenericOp> {
  RaiseHalfSplit(MLIRContext *ctx, int64_t &count)
      : OpRewritePattern(ctx), count(count) {}

  static bool isRotateHalf(Value r, Value x) {
    std::optional<SmallVector<Value>> pieces = matchLastDimConcat(r);
    if (!pieces || pieces->size() != 2)
      return false;
    Value negated;
    if (!matchNegate((*pieces)[0], negated))
      return false;
    std::optional<LastDimSlice> hi = matchLastDimSlice(negated);
    std::optional<LastDimSlice> lo = matchLastDimSlice((*pieces)[1]);
    int64_t d = cast<RankedTensorType>(x.getType()).getShape().back();
    return hi && lo && hi->source == x && lo->source == x && d % 2 == 0 &&
           lo->offset == 0 && lo->size == d / 2 && hi->offset == d / 2 &&
           hi->size == d / 2;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Elementwise> add =
        matchElementwise<arith::AddFOp>(op.getResult(0));
    if (!add || !add->isIdentityInput(0) || !add->isIdentityInput(1))
      return failure();
    for (unsigned i = 0; i < 2; ++i) {
      auto cosMul = matchElementwise<arith::MulFOp>(add->getInput(i)->get());
      auto sinMul =
          matchElementwise<arith::MulFOp>(add->getInput(1 - i)->get());
      if (!cosMul || !sinMul)
        continue;
      for (unsigned j = 0; j < 2; ++j) {
        if (!cosMul->isIdentityInput(j))
          continue;
        Value x = cosMul->getInput(j)->get();
        for (unsigned k = 0; k < 2; ++k) {
          if (!sinMul->isIdentityInput(k) ||
              !isRotateHalf(sinMul->getInput(k)->get(), x))
            continue;
          int64_t d = cast<RankedTensorType>(x.getType()).getShape().back();
          std::optional<RotaryMatch> m =
              matchTables(x, *cosMul, 1 - j, *sinMul, 1 - k,
                          /*fullWidth=*/true, d);
          if (!m)
            continue;
          rewriter.replaceOp(op, buildRotary(rewriter, op.getLoc(), *m,
                                             RotaryLayout::half_split));
          ++count;
          return success();
        }
      }
    }
    return rewriter.notifyMatchFailure(op, "not a half-split rotary");
  }

  int64_t &count;
};

/// `concat(x1 * cos - x2 * sin, x2 * cos + x1 * sin)` with half-width tables.
struct RaiseHalves : OpRewritePattern<tensor::ConcatOp> {
  RaiseHalves(MLIRContext *ctx, int64_t &count)
      : OpRewritePattern(ctx), count(count) {}

  /// `a * tableA (op) b * tableB`: the two products of `combine`, with `a`
  /// and `b` identity-read halves; returns them in order.
  struct Products {
    Elementwise first, second;
    unsigned firstTable, secondTable; // body operand index of each table
    Value a, b;
  };
  template <typename CombineOp>
  static std::optional<Products> matchProducts(Value v) {
    auto combine = matchElementwise<CombineOp>(v);
    if (!combine || !combine->isIdentityInput(0) ||
        !combine->isIdentityInput(1))
      return std::nullopt;
    auto p = matchElementwise<arith::MulFOp>(combine->getInput(0)->get());
    auto q = matchElementwise<arith::MulFOp>(combine->getInput(1)->get());
    if (!p || !q)
      return std::nullopt;
    for (unsigned i = 0; i < 2; ++i)
      for (unsigned j = 0; j < 2; ++j)
        if (p->isIdentityInput(i) && q->isIdentityInput(j))
          return Products{*p,
                          *q,
                          1 - i,
                          1 - j,
                          p->getInput(i)->get(),
                          q->getInput(j)->get()};
    return std::nullopt;
  }

  LogicalResult matchAndRewrite(tensor::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<Value>> pieces =
        matchLastDimConcat(op.getResult());
    if (!pieces || pieces->size() != 2)
      return failure();
    // first = x1 * cos - x2 * sin; second = x2 * cos + x1 * sin.
    std::optional<Products> first = matchProducts<arith::SubFOp>((*pieces)[0]);
    std::optional<Products> second = matchProducts<arith::AddFOp>((*pieces)[1]);
    if (!first || !second)
      return rewriter.notifyMatchFailure(op, "not two combined products");
    std::optional<LastDimSlice> x1 = matchLastDimSlice(first->a);
    std::optional<LastDimSlice> x2 = matchLastDimSlice(first->b);
    if (!x1 || !x2 || x1->source != x2->source || second->a != first->b ||
        second->b != first->a)
      return rewriter.notifyMatchFailure(op, "products of other halves");
    Value x = x1->source;
    int64_t d = cast<RankedTensorType>(x.getType()).getShape().back();
    if (x.getType() != op.getType() || d % 2 != 0 || x1->offset != 0 ||
        x1->size != d / 2 || x2->offset != d / 2 || x2->size != d / 2)
      return rewriter.notifyMatchFailure(op, "slices are not the halves");
    // cos multiplies x1 in `first` and x2 in `second`, sin the others.
    OpOperand *cos1 = first->first.getInput(first->firstTable);
    OpOperand *cos2 = second->first.getInput(second->firstTable);
    OpOperand *sin1 = first->second.getInput(first->secondTable);
    OpOperand *sin2 = second->second.getInput(second->secondTable);
    if (!cos1 || !cos2 || !sin1 || !sin2 || cos1->get() != cos2->get() ||
        sin1->get() != sin2->get() ||
        first->first.getMap(first->firstTable) !=
            second->first.getMap(second->firstTable) ||
        first->second.getMap(first->secondTable) !=
            second->second.getMap(second->secondTable))
      return rewriter.notifyMatchFailure(op, "tables differ between halves");
    std::optional<RotaryMatch> m =
        matchTables(x, first->first, first->firstTable, first->second,
                    first->secondTable, /*fullWidth=*/false, d);
    if (!m)
      return rewriter.notifyMatchFailure(op, "tables not computed from angles");
    rewriter.replaceOp(
        op, buildRotary(rewriter, op.getLoc(), *m, RotaryLayout::half_split));
    ++count;
    return success();
  }

  int64_t &count;
};

/// `concat(rotary(x[..., :r]), x[..., r:])` -> `rotary(x)` with dim `r`.
struct FoldPartialRotary : OpRewritePattern<tensor::ConcatOp> {
  FoldPartialRotary(MLIRContext *ctx, int64_t &count)
      : OpRewritePattern(ctx), count(count) {}

  LogicalResult matchAndRewrite(tensor::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<Value>> pieces =
        matchLastDimConcat(op.getResult());
    if (!pieces || pieces->size() != 2)
      return failure();
    auto rotary = (*pieces)[0].getDefiningOp<RotaryOp>();
    std::optional<LastDimSlice> pass = matchLastDimSlice((*pieces)[1]);
    if (!rotary || !rotary->hasOneUse() || !pass || rotary.getMropeSections())
      return rewriter.notifyMatchFailure(op, "not rotary + pass-through");
    std::optional<LastDimSlice> rot = matchLastDimSlice(rotary.getInput());
    int64_t r = rotary.getRotaryDim();
    auto type = cast<RankedTensorType>(op.getType());
    if (!rot || rot->source != pass->source || rot->offset != 0 ||
        rot->size != r || pass->offset != r ||
        pass->size != type.getShape().back() - r ||
        pass->source.getType() != type ||
        cast<RankedTensorType>(rotary.getInput().getType()).getShape().back() !=
            r)
      return rewriter.notifyMatchFailure(op, "slices are not [:r], [r:]");
    rewriter.modifyOpInPlace(rotary, [&] {
      rotary.getInputMutable().assign(pass->source);
      rotary.getResult().setType(type);
    });
    rewriter.replaceOp(op, rotary.getResult());
    ++count;
    return success();
  }

  int64_t &count;
};

struct PosEncRaiseRotaryPass
    : posenc::impl::PosEncRaiseRotaryBase<PosEncRaiseRotaryPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    int64_t numRaised = 0, numPartial = 0;
    RewritePatternSet patterns(ctx);
    patterns.add<RaiseHalfSplit, RaiseHalves>(ctx, numRaised);
    patterns.add<FoldPartialRotary>(ctx, numPartial);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
    if (printStats)
      llvm::errs() << "posenc-raise-rotary: " << numRaised << " raised-rotary, "
                   << numPartial << " raised-partial-rotary\n";
  }
};

} // namespace
