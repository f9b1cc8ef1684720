//===- RaiseAlibi.cpp - the posenc-raise-alibi pass -----------------------===//
//
// Importers build the ALiBi bias as `slope[h] * float(pos)` from slopes and
// positions that are themselves computed from constants (a pow ladder, an
// arange, a cumsum of a constant mask). This pass evaluates both factors,
// checks that the product is a bias posenc.alibi computes bit for bit, and
// replaces it. A constant bias (an exporter's folded product) is read the
// same way.
//
//===----------------------------------------------------------------------===//

#include "AlibiBias.h"
#include "RaisingDriver.h"

#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

#define DEBUG_TYPE "posenc-raise-alibi"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCRAISEALIBI
#include "posenc/Raising/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// What the pass did, for print-stats.
struct Counts {
  int64_t raised = 0, configSlopes = 0, slices = 0, scans = 0;
};

/// The two factors of `[-](a * b)` in a generic's body, each read from an
/// input directly or through `sitofp`.
struct Factor {
  OpOperand *input;
  bool converted;
};
struct Product {
  Factor lhs, rhs;
  bool negated;
};

std::optional<Product> matchProduct(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 2 || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block *body = generic.getBody();
  Value y = body->getTerminator()->getOperand(0);
  bool negated = false;
  if (auto neg = y.getDefiningOp<arith::NegFOp>()) {
    y = neg.getOperand();
    negated = true;
  }
  auto mul = y.getDefiningOp<arith::MulFOp>();
  if (!mul || mul->getBlock() != body)
    return std::nullopt;
  auto read = [&](Value v) -> std::optional<Factor> {
    bool converted = false;
    if (auto toFloat = v.getDefiningOp<arith::SIToFPOp>();
        toFloat && toFloat->getBlock() == body) {
      v = toFloat.getIn();
      converted = true;
    }
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != body ||
        arg.getArgNumber() >= generic.getNumDpsInputs())
      return std::nullopt;
    return Factor{generic.getDpsInputOperand(arg.getArgNumber()), converted};
  };
  std::optional<Factor> lhs = read(mul.getLhs()), rhs = read(mul.getRhs());
  if (!lhs || !rhs || lhs->input == rhs->input)
    return std::nullopt;
  // Nothing else in the body: the multiply, its casts, the negation.
  size_t ops = 1 + negated + lhs->converted + rhs->converted;
  if (body->getOperations().size() != ops + 1)
    return std::nullopt;
  return Product{*lhs, *rhs, negated};
}

/// The axes of a bias `[..., Sk]`: heads (the slopes' only axis), an
/// optional batch axis before them, an optional query axis between heads and
/// keys; every other axis has size 1.
struct BiasAxes {
  unsigned head, key;
  std::optional<unsigned> batch, query;
};

std::optional<BiasAxes> matchAxes(ArrayRef<int64_t> shape, unsigned head,
                                  ArrayRef<unsigned> positionDims) {
  unsigned key = shape.size() - 1;
  if (head >= key || shape[key] == 1 ||
      !llvm::is_contained(positionDims, key) ||
      llvm::is_contained(positionDims, head))
    return std::nullopt;
  BiasAxes axes{head, key, std::nullopt, std::nullopt};
  for (unsigned d = 0; d < key; ++d) {
    if (d == head || shape[d] == 1)
      continue;
    std::optional<unsigned> &axis = d < head ? axes.batch : axes.query;
    if (axis)
      return std::nullopt;
    axis = d;
  }
  for (unsigned d : positionDims)
    if (d != key && d != axes.batch && d != axes.query)
      return std::nullopt;
  return axes;
}

/// `slopes` made positive, flipping `sign` for a negative ladder: a negative
/// slope ladder times negated positions is the same product; exact, as f32
/// negation is. Nullopt unless every slope is then positive and finite.
std::optional<SmallVector<double>> positiveSlopes(ArrayRef<double> slopes,
                                                  double &sign) {
  SmallVector<double> slopeList(slopes);
  if (llvm::all_of(slopeList, [](double s) { return s < 0.0; })) {
    for (double &s : slopeList)
      s = -s;
    sign = -sign;
  }
  if (!llvm::all_of(slopeList,
                    [](double s) { return s > 0.0 && std::isfinite(s); }))
    return std::nullopt;
  return slopeList;
}

/// The positions `sign * pos[i][j]` of a bias, read from `posValues` (the
/// positions operand of type `posType`, read through `posMap` in a bias of
/// rank `rank`); nullopt unless they are integers exact in f32 and the same
/// for every batch entry.
std::optional<SmallVector<SmallVector<int64_t>>>
positionGrid(ArrayRef<double> posValues, RankedTensorType posType,
             AffineMap posMap, const BiasAxes &axes, int64_t rank,
             const BiasExtents &extents, double sign) {
  SmallVector<int64_t> point(rank, 0);
  auto posAt = [&](int64_t b, int64_t i, int64_t j) -> double {
    if (axes.batch)
      point[*axes.batch] = b;
    if (axes.query)
      point[*axes.query] = i;
    point[axes.key] = j;
    SmallVector<int64_t> at = posMap.compose(point);
    int64_t offset = 0;
    for (auto [x, size] : llvm::zip_equal(at, posType.getShape()))
      offset = offset * size + x;
    return posValues[offset];
  };
  int64_t sq = extents.sq, sk = extents.sk;
  SmallVector<SmallVector<int64_t>> pos(sq, SmallVector<int64_t>(sk));
  for (int64_t i = 0; i < sq; ++i) {
    for (int64_t j = 0; j < sk; ++j) {
      double p = posAt(0, i, j);
      // Integer positions, exactly representable in f32 (as sitofp of
      // them is in the bias and in posenc.alibi alike).
      if (p != std::trunc(p) || std::abs(p) > double(1 << 24))
        return std::nullopt;
      for (int64_t b = 1; b < extents.batch; ++b)
        if (posAt(b, i, j) != p)
          return std::nullopt;
      pos[i][j] = int64_t(sign * p);
    }
  }
  return pos;
}

/// `slope[h] * float(pos)` over `[B?, H, Sq?, Sk]` (unit dimensions
/// anywhere) with slopes and positions computed from constants.
struct RaiseAlibiProduct : CountingPattern<linalg::GenericOp, Counts> {
  using CountingPattern::CountingPattern;

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    std::optional<Product> product = matchProduct(generic);
    if (!product)
      return failure();
    auto type = dyn_cast<RankedTensorType>(generic.getResult(0).getType());
    if (!type || !type.hasStaticShape() || !type.getElementType().isF32() ||
        type.getRank() < 2)
      return failure();
    for (auto [slopes, positions] : {std::pair(product->lhs, product->rhs),
                                     std::pair(product->rhs, product->lhs)})
      if (succeeded(
              raise(generic, slopes, positions, product->negated, rewriter)))
        return success();
    return rewriter.notifyMatchFailure(generic, "not an ALiBi bias");
  }

  LogicalResult raise(linalg::GenericOp generic, Factor slopes,
                      Factor positions, bool negated,
                      PatternRewriter &rewriter) const {
    auto type = cast<RankedTensorType>(generic.getResult(0).getType());
    ArrayRef<int64_t> shape = type.getShape();
    Value slopeInput = slopes.input->get(), posInput = positions.input->get();
    auto slopeType = dyn_cast<RankedTensorType>(slopeInput.getType());
    auto posType = dyn_cast<RankedTensorType>(posInput.getType());
    if (!slopeType || !posType || slopes.converted ||
        !slopeType.getElementType().isF32() ||
        (!positions.converted && !posType.getElementType().isF32()))
      return failure();
    AffineMap slopeMap = generic.getMatchingIndexingMap(slopes.input);
    AffineMap posMap = generic.getMatchingIndexingMap(positions.input);
    std::optional<SmallVector<unsigned>> slopeDims =
        nonUnitDims(slopeMap, slopeType);
    std::optional<SmallVector<unsigned>> posDims = nonUnitDims(posMap, posType);
    if (!slopeDims || slopeDims->size() != 1 || !posDims)
      return failure();
    std::optional<BiasAxes> axes =
        matchAxes(shape, slopeDims->front(), *posDims);
    if (!axes)
      return failure();
    BiasExtents extents{
        axes->batch ? shape[*axes->batch] : 1, shape[axes->head],
        axes->query ? shape[*axes->query] : 1, shape[axes->key]};
    // Every (batch, query, key) point is visited below: empty biases are left
    // alone, and so are those beyond the evaluator's limit (2^24 points, e.g.
    // 2048 x 2048 keys in 4 batch entries) or with more heads; in double, as
    // sizes such as 2^32 x 2^32 overflow int64_t.
    constexpr double kMaxPoints = double(int64_t(1) << 24);
    double points =
        double(extents.batch) * double(extents.sq) * double(extents.sk);
    if (points == 0.0 || extents.heads == 0 || points > kMaxPoints ||
        double(extents.heads) > kMaxPoints)
      return failure();

    // Evaluation is capped at each factor's own size, so that activations
    // (larger than a slope or position table) fail at once.
    std::optional<SmallVector<double>> slopeValues =
        evaluateConstantTensor(slopeInput, slopeType.getNumElements());
    if (!slopeValues)
      return failure();
    std::optional<SmallVector<double>> posValues =
        evaluateConstantTensor(posInput, posType.getNumElements());
    if (!posValues)
      return failure();
    double sign = negated ? -1.0 : 1.0;
    std::optional<SmallVector<double>> slopeList =
        positiveSlopes(*slopeValues, sign);
    if (!slopeList)
      return failure();
    // pos[i][j], the same for every batch entry.
    std::optional<SmallVector<SmallVector<int64_t>>> pos = positionGrid(
        *posValues, posType, posMap, *axes, shape.size(), extents, sign);
    if (!pos)
      return failure();
    std::optional<BiasForm> form = classifyPositions(*pos);
    if (!form)
      return failure();
    replaceWithAlibi(generic, *slopeList, extents, *form, rewriter);
    return success();
  }

  /// Replaces `generic` (the bias) by the posenc.alibi of `slopeList` and
  /// `bias`.
  void replaceWithAlibi(linalg::GenericOp generic, ArrayRef<double> slopeList,
                        const BiasExtents &extents, const BiasForm &bias,
                        PatternRewriter &rewriter) const {
    auto type = cast<RankedTensorType>(generic.getResult(0).getType());
    Location loc = generic.getLoc();
    bool configured = false;
    AlibiOp alibi =
        buildAlibiBias(rewriter, loc, slopeList, extents, bias, configured);
    rewriter.replaceOp(generic, reshapeUnitDims(rewriter, loc, alibi, type));
    count.configSlopes += configured;
    ++count.raised;
  }
};

/// The integer values of a 1-D positions operand.
std::optional<SmallVector<int64_t>> evaluatePositions(Value v) {
  if (cast<RankedTensorType>(v.getType()).getRank() != 1)
    return std::nullopt;
  std::optional<SmallVector<double>> values = evaluateConstantTensor(v);
  if (!values)
    return std::nullopt;
  return llvm::map_to_vector(*values, [](double x) { return int64_t(x); });
}

/// `alibi[..., offset:offset+size]` (through unit reshapes) is the posenc.alibi
/// of the sliced key positions.
/// A constant bias `[.., H, .., Sk]` (heads the one non-unit axis but the
/// keys) added to something, whose values are `slope[h] * p[j]` with `p` an
/// arange, as posenc.alibi computes them in f32: ONNX exporters fold MPT's
/// and BLOOM's bias computation into such a constant.
struct RaiseAlibiConstant : CountingPattern<arith::ConstantOp, Counts> {
  using CountingPattern::CountingPattern;

  LogicalResult matchAndRewrite(arith::ConstantOp constant,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(constant.getType());
    auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue());
    if (!type || !dense || !type.getElementType().isF32() ||
        type.getRank() < 2 || dense.isSplat() ||
        !llvm::any_of(constant->getUsers(), [](Operation *user) {
          auto add = dyn_cast<linalg::GenericOp>(user);
          return add && add->getNumResults() == 1 &&
                 matchElementwise<arith::AddFOp>(add->getResult(0));
        }))
      return failure();
    ArrayRef<int64_t> shape = type.getShape();
    int64_t sk = shape.back();
    auto heads = llvm::filter_to_vector(shape.drop_back(),
                                        [](int64_t n) { return n != 1; });
    if (sk < 2 || heads.size() != 1 || double(heads[0]) * double(sk) > 1e6)
      return failure();
    int64_t h = heads[0];
    SmallVector<float> v(dense.getValues<float>());
    auto at = [&](int64_t head, int64_t j) { return v[head * sk + j]; };
    // Slopes from neighbouring keys, positions from head 0; then every
    // value must be the f32 product.
    SmallVector<double> slopes;
    for (int64_t i = 0; i < h; ++i)
      slopes.push_back(double(at(i, 1)) - double(at(i, 0)));
    if (!llvm::all_of(slopes,
                      [](double x) { return x > 0.0 && std::isfinite(x); }))
      return failure();
    SmallVector<int64_t> pos;
    for (int64_t j = 0; j < sk; ++j) {
      double p = double(at(0, j)) / slopes[0];
      if (p != std::trunc(p) || std::abs(p) > double(1 << 24))
        return failure();
      pos.push_back(int64_t(p));
    }
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < sk; ++j)
        if (float(slopes[i]) * float(pos[j]) != at(i, j))
          return failure();
    std::optional<BiasForm> form = classifyPositions({pos});
    if (!form || form->form != AlibiForm::key_linear)
      return failure();
    bool configured = false;
    AlibiOp alibi = buildAlibiBias(rewriter, constant.getLoc(), slopes,
                                   BiasExtents{1, h, 1, sk}, *form, configured);
    rewriter.replaceOp(
        constant, reshapeUnitDims(rewriter, constant.getLoc(), alibi, type));
    count.configSlopes += configured;
    ++count.raised;
    return success();
  }
};

struct FoldAlibiKeySlice : CountingPattern<tensor::ExtractSliceOp, Counts> {
  using CountingPattern::CountingPattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    std::optional<LastDimSlice> keys = matchLastDimSlice(slice.getResult());
    if (!keys || keys->size <= 0) // empty or dynamic
      return failure();
    auto alibi = stripUnitReshapes(keys->source).getDefiningOp<AlibiOp>();
    if (!alibi)
      return failure();
    RankedTensorType type = alibi.getResult().getType();
    int64_t rank = type.getRank();
    int64_t sq = type.getDimSize(rank - 2), sk = type.getDimSize(rank - 1);
    // The sliced axis is the keys: the last non-unit axis on both sides.
    auto sourceType = cast<RankedTensorType>(keys->source.getType());
    if (!type.hasStaticShape() || sk == 1 || sourceType.getShape().back() != sk)
      return failure();

    // Positions as the op defines them, then sliced.
    SmallVector<int64_t> kPos = llvm::to_vector(llvm::seq<int64_t>(0, sk));
    if (Value k = alibi.getKPositions()) {
      std::optional<SmallVector<int64_t>> values = evaluatePositions(k);
      if (!values)
        return failure();
      kPos = *values;
    }
    SmallVector<int64_t> qPos;
    if (alibi.getForm() == AlibiForm::symmetric) {
      if (Value q = alibi.getQPositions()) {
        std::optional<SmallVector<int64_t>> values = evaluatePositions(q);
        if (!values)
          return failure();
        qPos = *values;
      } else {
        int64_t shift =
            alibi.getAlignment() == Alignment::bottom_right ? sk - sq : 0;
        qPos = llvm::to_vector(llvm::seq<int64_t>(shift, shift + sq));
      }
    }
    ArrayRef<int64_t> sliced = ArrayRef(kPos).slice(keys->offset, keys->size);

    SmallVector<int64_t> shape(type.getShape());
    shape.back() = keys->size;
    auto slicedType = RankedTensorType::get(shape, type.getElementType());
    AlibiOp folded =
        createAlibi(rewriter, slice.getLoc(), slicedType, alibi.getConfigAttr(),
                    alibi.getSlopes(), alibi.getForm(), qPos, sliced);
    rewriter.replaceOp(slice, reshapeUnitDims(rewriter, slice.getLoc(), folded,
                                              slice.getResultType()));
    ++count.slices;
    return success();
  }
};

struct PosEncRaiseAlibiPass
    : posenc::impl::PosEncRaiseAlibiBase<PosEncRaiseAlibiPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Counts counts;
    RewritePatternSet patterns(ctx);
    patterns.add<RaiseAlibiProduct, RaiseAlibiConstant, FoldAlibiKeySlice>(
        ctx, counts);
    populateDeadMaskPatterns(patterns, counts.scans);
    if (failed(applyRaisingPatterns(
            getOperation(), std::move(patterns), getArgument(), printStats,
            {{"raised-alibi", counts.raised},
             {"raised-slope-configs", counts.configSlopes},
             {"folded-key-slices", counts.slices},
             {"erased-scans", counts.scans}})))
      signalPassFailure();
  }
};

} // namespace
