//===- SinusoidalTables.cpp - sinusoidal tables of posenc-raise-absolute --===//
//
// Importers keep sinusoidal position tables as constants (or compute them
// from constants). These patterns compare such a table by value with the
// encodings posenc.sinusoidal computes and raise it, gathered by positions
// or sliced by rows and added to embeddings.
//
//===----------------------------------------------------------------------===//

#include "AbsoluteRaising.h"
#include "RaisingDriver.h"

#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// The sinusoidal encoding a table `[P, d]` holds, by value.
struct SinusoidalForm {
  SinusoidalLayout layout;
  double base;
};

/// True when `values` (`[rows, dim]`, row `r` at position `r`) equal the
/// table of `layout` and `base` up to the rounding of an f32 (or narrower)
/// computation of it: the importer's angles carry the rounding of `p * inv`
/// and of `inv` itself.
bool equalsSinusoidal(ArrayRef<double> values, int64_t rows, int64_t dim,
                      SinusoidalLayout layout, double base, double unit) {
  SinusoidalColumns cols = sinusoidalColumns(dim, base, layout);
  for (int64_t c = 0; c < dim; ++c) {
    double inv = cols.invFreq[c];
    double slope = 2.0 + (inv > 0 ? std::abs(std::log(inv)) : 0.0);
    for (int64_t r = 0; r < rows; ++r) {
      double angle = double(r) * inv;
      double ref = cols.kind[c] == SinusoidalColumn::Sin   ? std::sin(angle)
                   : cols.kind[c] == SinusoidalColumn::Cos ? std::cos(angle)
                                                           : 0.0;
      double tolerance = 4.0 * unit * (1.0 + angle * slope);
      if (!(std::abs(values[r * dim + c] - ref) <= tolerance))
        return false;
    }
  }
  return true;
}

/// Largest table (elements) compared by value with a sinusoidal encoding.
constexpr int64_t kMaxSinusoidalElements = int64_t(1) << 22;

/// `table` (non-unit shape `[P, d]`) as a sinusoidal encoding, when the IR
/// computes it from constants and its values are one: base 10000 or the base
/// that row 1 implies, rounded to an integer.
std::optional<SinusoidalForm> matchSinusoidalTable(Value table) {
  auto type = cast<RankedTensorType>(table.getType());
  SmallVector<int64_t> shape = nonUnitShape(table);
  if (!type.hasStaticShape() || shape.size() != 2 || shape[0] < 2 ||
      shape[1] < 2)
    return std::nullopt;
  double unit;
  Type element = type.getElementType();
  if (element.isF32())
    unit = 0x1p-24;
  else if (element.isF16())
    unit = 0x1p-11;
  else if (element.isBF16())
    unit = 0x1p-8;
  else
    return std::nullopt;
  int64_t rows = shape[0], dim = shape[1];
  // rows * dim may overflow (a splat of 2^32 x 2^32): divided instead.
  if (dim > kMaxConstantElements || rows > kMaxSinusoidalElements / dim)
    return std::nullopt;
  std::optional<SmallVector<double>> values =
      evaluateConstantTensor(table, kMaxSinusoidalElements);
  if (!values)
    return std::nullopt;
  for (SinusoidalLayout layout :
       {SinusoidalLayout::interleaved, SinusoidalLayout::concatenated}) {
    // Row 1 holds sin(inv[c]) with inv[c] <= 1: inv of the second frequency
    // gives the base.
    int64_t n = dim / 2;
    int64_t column = layout == SinusoidalLayout::interleaved ? 2 : 1;
    double exponent = layout == SinusoidalLayout::interleaved
                          ? double(dim) / 2.0
                          : double(std::max<int64_t>(n - 1, 1));
    SmallVector<double> bases{10000.0};
    if (column < dim && (layout == SinusoidalLayout::interleaved || n >= 2)) {
      double s = (*values)[dim + column];
      if (s > 0 && s < 1) {
        double base = std::round(std::pow(std::asin(s), -exponent));
        if (std::isfinite(base) && base > 1 && base != 10000.0)
          bases.push_back(base);
      }
    }
    for (double base : bases)
      if (equalsSinusoidal(*values, rows, dim, layout, base, unit))
        return SinusoidalForm{layout, base};
  }
  return std::nullopt;
}

SinusoidalOp buildSinusoidal(PatternRewriter &rewriter, Location loc,
                             RankedTensorType type, const SinusoidalForm &form,
                             int64_t offset) {
  Value offsetValue;
  if (offset != 0)
    offsetValue = arith::ConstantIndexOp::create(rewriter, loc, offset);
  return SinusoidalOp::create(
      rewriter, loc, type, Value(), offsetValue,
      SinusoidalLayoutAttr::get(rewriter.getContext(), form.layout),
      rewriter.getF64FloatAttr(form.base));
}

/// The table of a raised learned embedding is a sinusoidal encoding.
struct RaiseSinusoidalTable : CountingPattern<LearnedAbsoluteOp> {
  using CountingPattern::CountingPattern;

  LogicalResult matchAndRewrite(LearnedAbsoluteOp op,
                                PatternRewriter &rewriter) const override {
    Value table = op.getTable();
    if (table.getDefiningOp<SinusoidalOp>())
      return failure();
    std::optional<SinusoidalForm> form = matchSinusoidalTable(table);
    if (!form)
      return rewriter.notifyMatchFailure(op, "table is not sinusoidal");
    SinusoidalOp raised = buildSinusoidal(rewriter, op.getLoc(),
                                          op.getTable().getType(), *form, 0);
    rewriter.modifyOpInPlace(
        op, [&] { op.getTableMutable().assign(raised.getResult()); });
    ++count;
    return success();
  }
};

/// True when every use of `v`, through unit reshapes, adds it.
bool isAdded(Value v) {
  if (v.use_empty())
    return false;
  for (Operation *user : v.getUsers()) {
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user)) {
      if (stripUnitReshapes(user->getResult(0)) != stripUnitReshapes(v) ||
          !isAdded(user->getResult(0)))
        return false;
      continue;
    }
    auto add = matchElementwise<arith::AddFOp>(
        user->getNumResults() == 1 ? user->getResult(0) : Value());
    if (!add || !llvm::is_contained(add->generic.getDpsInputs(), v))
      return false;
  }
  return true;
}

/// `table[k : k + S]` of a sinusoidal table `[P, d]`, added to embeddings.
struct RaiseSinusoidalSlice : CountingPattern<tensor::ExtractSliceOp> {
  using CountingPattern::CountingPattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType sourceType = op.getSourceType();
    if (!op.hasUnitStride() || !sourceType.hasStaticShape() ||
        !op.getResultType().hasStaticShape() ||
        op.getSource().getDefiningOp<SinusoidalOp>())
      return failure();
    // The non-unit source axes are the rows and the columns; the slice
    // takes rows [k, k + S) and every column.
    SmallVector<int64_t> axes;
    for (auto [i, size] : llvm::enumerate(sourceType.getShape()))
      if (size != 1)
        axes.push_back(i);
    if (axes.size() != 2)
      return failure();
    ArrayRef<int64_t> offsets = op.getStaticOffsets();
    ArrayRef<int64_t> sizes = op.getStaticSizes();
    if (llvm::any_of(offsets, ShapedType::isDynamic) ||
        llvm::any_of(sizes, ShapedType::isDynamic))
      return failure();
    for (auto [i, size] : llvm::enumerate(sourceType.getShape()))
      if (int64_t(i) != axes[0] && (offsets[i] != 0 || sizes[i] != size))
        return failure();
    int64_t start = offsets[axes[0]], length = sizes[axes[0]];
    int64_t dim = sourceType.getDimSize(axes[1]);
    if (length == 0 || !isAdded(op.getResult()))
      return rewriter.notifyMatchFailure(op, "not rows added to embeddings");
    auto type =
        RankedTensorType::get({length, dim}, sourceType.getElementType());
    std::optional<ReshapePlan> plan =
        planReshape(type.getShape(), op.getResultType().getShape());
    if (!plan)
      return failure();
    std::optional<SinusoidalForm> form = matchSinusoidalTable(op.getSource());
    if (!form)
      return rewriter.notifyMatchFailure(op, "table is not sinusoidal");
    Value raised = buildSinusoidal(rewriter, op.getLoc(), type, *form, start);
    rewriter.replaceOp(op, applyReshape(rewriter, op.getLoc(), raised, *plan,
                                        op.getResultType().getShape()));
    ++count;
    return success();
  }
};

} // namespace

void raising::populateSinusoidalPatterns(RewritePatternSet &patterns,
                                         int64_t &count) {
  patterns.add<RaiseSinusoidalTable, RaiseSinusoidalSlice>(
      patterns.getContext(), count);
}
