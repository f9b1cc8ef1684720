//===- RaiseRotary.cpp - the posenc-raise-rotary pass ---------------------===//
//
// Importers decompose RoPE into slices, negations, concatenations, cos/sin
// tables and elementwise products. This pass reads that expression back and
// checks every part of it (the halves, the sign, the table layout, the
// broadcast of the tables over heads) before replacing it by posenc.rotary.
//
//===----------------------------------------------------------------------===//

#include "RaisingDriver.h"
#include "RotaryRaising.h"
#include "UnflattenGather.h"

#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

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

/// `x[..., offset::2]`: a stride-2 slice of the last dimension of `x` (the
/// even or odd channels), every other dimension whole.
bool isEvenOddSlice(Value v, Value x, int64_t offset) {
  auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getSource() != x)
    return false;
  RankedTensorType srcType = slice.getSourceType();
  int64_t rank = srcType.getRank();
  if (slice.getResultType().getRank() != rank || srcType.isDynamicDim(rank - 1))
    return false;
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  SmallVector<OpFoldResult> mixedSizes = slice.getMixedSizes();
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (offsets[d] != 0 || strides[d] != 1 || !isDimSize(mixedSizes[d], x, d))
      return false;
  int64_t dim = srcType.getShape().back();
  return dim % 2 == 0 && offsets.back() == offset && sizes.back() == dim / 2 &&
         strides.back() == 2;
}

/// `rotate_half(x) = concat(-x2, x1)` of the halves of the last dimension.
bool isRotateHalf(Value r, Value x) {
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

/// GPT-J's `rotate_every_two(x) = [-x1, x0, -x3, x2, ...]`: `-x[..., 1::2]`
/// and `x[..., ::2]` each expanded by a unit last dimension, concatenated
/// along it and collapsed back.
bool isRotateEveryTwo(Value r, Value x) {
  auto collapse = r.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getResultType() != x.getType() ||
      !splitsLastIntoPairs(collapse.getReassociationIndices(),
                           collapse.getResultType().getRank(),
                           collapse.getSrcType().getShape().back()))
    return false;
  std::optional<SmallVector<Value>> pieces =
      matchLastDimConcat(collapse.getSrc());
  if (!pieces || pieces->size() != 2 || llvm::any_of(*pieces, [](Value piece) {
        return cast<RankedTensorType>(piece.getType()).getShape().back() != 1;
      }))
    return false;
  Value negated;
  return matchNegate(stripUnitReshapes((*pieces)[0]), negated) &&
         isEvenOddSlice(stripUnitReshapes(negated), x, 1) &&
         isEvenOddSlice(stripUnitReshapes((*pieces)[1]), x, 0);
}

/// `x * cos + rotate(x) * sin` with full-width tables: `rotate_half` and
/// `concat(f, f)` tables (HF/NeoX half-split), or `rotate_every_two` and
/// `repeat_interleave(f, 2)` tables (GPT-J interleaved).
struct RaiseRotateAndAdd : OpRewritePattern<linalg::GenericOp> {
  RaiseRotateAndAdd(MLIRContext *ctx, RotaryLayout layout, int64_t &count)
      : OpRewritePattern(ctx), layout(layout), count(count) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Elementwise> add =
        matchElementwise<arith::AddFOp>(op.getResult(0));
    if (!add || !add->isIdentityInput(0) || !add->isIdentityInput(1))
      return failure();
    bool interleaved = layout == RotaryLayout::interleaved;
    TableWidth width =
        interleaved ? TableWidth::Interleaved : TableWidth::Concat;
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
          if (!sinMul->isIdentityInput(k))
            continue;
          Value rotated = sinMul->getInput(k)->get();
          if (interleaved ? !isRotateEveryTwo(rotated, x)
                          : !isRotateHalf(rotated, x))
            continue;
          int64_t d = cast<RankedTensorType>(x.getType()).getShape().back();
          std::optional<RotaryMatch> m =
              matchTables(x, *cosMul, 1 - j, *sinMul, 1 - k, width, d);
          if (!m)
            continue;
          rewriter.replaceOp(op,
                             buildRotary(rewriter, op.getLoc(), *m, layout));
          ++count;
          return success();
        }
      }
    }
    return rewriter.notifyMatchFailure(op, interleaved
                                               ? "not an interleaved rotary"
                                               : "not a half-split rotary");
  }

  RotaryLayout layout;
  int64_t &count;
};

/// `concat(x1 * cos - x2 * sin, x2 * cos + x1 * sin)` with half-width tables.
struct RaiseHalves : CountingPattern<tensor::ConcatOp> {
  using CountingPattern::CountingPattern;

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
                    first->secondTable, TableWidth::Half, d);
    if (!m)
      return rewriter.notifyMatchFailure(op, "tables not computed from angles");
    rewriter.replaceOp(
        op, buildRotary(rewriter, op.getLoc(), *m, RotaryLayout::half_split));
    ++count;
    return success();
  }
};

/// `concat(rotary(x[..., :r]), x[..., r:])` -> `rotary(x)` with dim `r`.
struct FoldPartialRotary : CountingPattern<tensor::ConcatOp> {
  using CountingPattern::CountingPattern;

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
};

struct PosEncRaiseRotaryPass
    : posenc::impl::PosEncRaiseRotaryBase<PosEncRaiseRotaryPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    int64_t numRaised = 0, numPartial = 0;
    RewritePatternSet patterns(ctx);
    patterns.add<RaiseRotateAndAdd>(ctx, RotaryLayout::half_split, numRaised);
    patterns.add<RaiseRotateAndAdd>(ctx, RotaryLayout::interleaved, numRaised);
    patterns.add<RaiseHalves>(ctx, numRaised);
    populateComplexRotaryPatterns(patterns, numRaised);
    patterns.add<FoldPartialRotary>(ctx, numPartial);
    populateUnflattenGatherPatterns(patterns, GatherUse::Sliced);
    if (failed(applyRaisingPatterns(getOperation(), std::move(patterns),
                                    getArgument(), printStats,
                                    {{"raised-rotary", numRaised},
                                     {"raised-partial-rotary", numPartial}})))
      signalPassFailure();
  }
};

} // namespace
