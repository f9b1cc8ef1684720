//===- RaiseAbsolute.cpp - the posenc-raise-absolute pass -----------------===//
//
// Importers lower `x + wpe(positions)` to an embedding gather (a generic
// that extracts `table[pos, d]` after bounds asserts) and an elementwise add,
// and keep sinusoidal tables as constants. This pass reads the gather back
// into posenc.learned_absolute, and a constant table whose values are a
// sinusoidal encoding into posenc.sinusoidal.
//
//===----------------------------------------------------------------------===//

#include "RaisingDriver.h"

#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>
#include <cmath>

#define DEBUG_TYPE "posenc-raise-absolute"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCRAISEABSOLUTE
#include "posenc/Raising/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// Offsets folded into a row index stay far from i64 wrap-around.
constexpr int64_t kMaxRowOffset = int64_t(1) << 32;

/// Largest table (elements) compared by value with a sinusoidal encoding.
constexpr int64_t kMaxSinusoidalElements = int64_t(1) << 22;

/// The importer's embedding gather: an all-parallel generic over `[..., D]`
/// whose element is `table[pos + rowOffset, d]`, with `pos` the element of
/// its one (integer) input and `d` the last iteration index.
struct Gather {
  mutable linalg::GenericOp generic;
  Value table;
  OpOperand *positions;
  int64_t rowOffset;
};

/// A `cmpi` that checks `0 <= row` or `row < rows` (torch-mlir's bounds
/// asserts), with `isRow` telling which values carry the row index.
bool isBoundsCheck(arith::CmpIOp cmp, int64_t rows,
                   function_ref<bool(Value)> isRow) {
  APInt bound;
  if (!isRow(cmp.getLhs()) ||
      !matchPattern(cmp.getRhs(), m_ConstantInt(&bound)))
    return false;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::sge:
    return bound.isZero();
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    return !ShapedType::isDynamic(rows) && bound.getSExtValue() == rows;
  default:
    return false;
  }
}

std::optional<Gather> matchGather(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumResults() != 1 ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block *body = generic.getBody();
  auto extract =
      body->getTerminator()->getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract->getBlock() != body ||
      extract.getIndices().size() != 2)
    return std::nullopt;
  Value table = extract.getTensor();
  auto tableType = cast<RankedTensorType>(table.getType());
  if (generic.getRegion().isAncestor(table.getParentRegion()))
    return std::nullopt;
  // The column is the last iteration index: a transposed read is no match.
  auto column = extract.getIndices()[1].getDefiningOp<linalg::IndexOp>();
  if (!column || column->getBlock() != body ||
      column.getDim() + 1 != generic.getNumLoops())
    return std::nullopt;

  // The row: the position through sign-preserving casts and constant
  // additions; `after` is the offset still to come once a value is reached.
  BlockArgument pos = body->getArgument(0);
  DenseMap<Value, int64_t> after;
  SmallPtrSet<Operation *, 8> allowed = {extract, column};
  int64_t offset = 0;
  for (Value row = extract.getIndices()[0];;) {
    after[row] = offset;
    if (row == pos)
      break;
    Operation *def = row.getDefiningOp();
    if (!def || def->getBlock() != body)
      return std::nullopt;
    allowed.insert(def);
    if (auto cast = dyn_cast<arith::IndexCastOp>(def)) {
      if (!cast.getIn().getType().isSignlessInteger())
        return std::nullopt;
      row = cast.getIn();
      continue;
    }
    if (auto ext = dyn_cast<arith::ExtSIOp>(def)) {
      row = ext.getIn();
      continue;
    }
    if (!isa<arith::AddIOp, arith::SubIOp>(def))
      return std::nullopt;
    APInt c;
    int64_t sign = isa<arith::SubIOp>(def) ? -1 : 1;
    if (matchPattern(def->getOperand(1), m_ConstantInt(&c))) {
      row = def->getOperand(0);
    } else if (sign == 1 &&
               matchPattern(def->getOperand(0), m_ConstantInt(&c))) {
      row = def->getOperand(1);
    } else {
      return std::nullopt;
    }
    if (c.getSignificantBits() > 33)
      return std::nullopt;
    offset += sign * c.getSExtValue();
    if (std::abs(offset) > kMaxRowOffset)
      return std::nullopt;
  }

  // Only bounds asserts on the final row may remain; posenc.learned_absolute
  // checks the same bounds itself (verifier when static, cf.assert in its
  // lowering when dynamic).
  auto isRow = [&](Value x) {
    auto it = after.find(x);
    return it != after.end() && it->second == 0;
  };
  int64_t rows = tableType.getDimSize(0);
  for (Operation &op : body->without_terminator()) {
    if (allowed.contains(&op))
      continue;
    if (auto check = dyn_cast<cf::AssertOp>(op)) {
      auto cmp = check.getArg().getDefiningOp<arith::CmpIOp>();
      if (!cmp || cmp->getBlock() != body || !isBoundsCheck(cmp, rows, isRow))
        return std::nullopt;
      continue;
    }
    // A compare read only by bounds asserts (checked there).
    if (isa<arith::CmpIOp>(op) && llvm::all_of(op.getUsers(), [](Operation *u) {
          return isa<cf::AssertOp>(u);
        }))
      continue;
    return std::nullopt;
  }
  return Gather{generic, table, generic.getDpsInputOperand(0), offset};
}

/// Reshapes between shapes that differ in unit dimensions only: collapse to
/// the non-unit shape, then expand.
struct ReshapePlan {
  SmallVector<int64_t> mid;
  std::optional<SmallVector<ReassociationIndices>> collapse, expand;
};

std::optional<ReshapePlan> planReshape(ArrayRef<int64_t> from,
                                       ArrayRef<int64_t> to) {
  auto nonUnit = [](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> r;
    for (int64_t d : shape)
      if (d != 1)
        r.push_back(d);
    return r;
  };
  ReshapePlan plan;
  plan.mid = nonUnit(from);
  if (plan.mid != nonUnit(to) || to.empty())
    return std::nullopt;
  // One reshape when one suffices.
  plan.mid.assign(from.begin(), from.end());
  if (from == to)
    return plan;
  if (from.size() > to.size()) {
    plan.collapse = getReassociationIndicesForCollapse(from, to);
    if (plan.collapse) {
      plan.mid.assign(to.begin(), to.end());
      return plan;
    }
  } else if (from.size() < to.size()) {
    plan.expand = getReassociationIndicesForCollapse(to, from);
    if (plan.expand)
      return plan;
  }
  plan.mid = nonUnit(from);
  // Keep one dimension: rank-0 tensors are no positions or table.
  if (plan.mid.empty())
    plan.mid.push_back(1);
  if (plan.mid != from) {
    plan.collapse = getReassociationIndicesForCollapse(from, plan.mid);
    if (!plan.collapse)
      return std::nullopt;
  }
  if (plan.mid != to) {
    plan.expand = getReassociationIndicesForCollapse(to, plan.mid);
    if (!plan.expand)
      return std::nullopt;
  }
  return plan;
}

Value applyReshape(PatternRewriter &rewriter, Location loc, Value v,
                   const ReshapePlan &plan, ArrayRef<int64_t> to) {
  Type element = cast<RankedTensorType>(v.getType()).getElementType();
  if (plan.collapse)
    v = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get(plan.mid, element), v,
        *plan.collapse);
  if (plan.expand)
    v = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(to, element), v, *plan.expand);
  return v;
}

/// A checked `x + table[pos]`, ready to build.
struct AbsoluteMatch {
  Value input;
  Gather gather;
  Value positions; // null: implicit `offset + s`
  ReshapePlan positionsPlan;
  SmallVector<int64_t> positionsShape;
  int64_t offset;
};

/// `gather` as read by an add of result shape `shape` through `map`, in the
/// terms of posenc.learned_absolute.
std::optional<AbsoluteMatch> matchPositions(Value input, const Gather &gather,
                                            AffineMap map,
                                            ArrayRef<int64_t> shape) {
  int64_t rank = shape.size(), token = rank - 2;
  auto tableType = cast<RankedTensorType>(gather.table.getType());
  auto inputType = cast<RankedTensorType>(input.getType());
  // posenc.learned_absolute takes f32, f16 and bf16 (not f64).
  if (rank < 2 || tableType.getRank() != 2 ||
      !isPosEncFloat(inputType.getElementType()) ||
      tableType.getElementType() != inputType.getElementType() ||
      gather.generic.getNumLoops() != uint64_t(rank) ||
      map.getResult(rank - 1) != getAffineDimExpr(rank - 1, map.getContext()))
    return std::nullopt;
  int64_t width = tableType.getDimSize(1), rows = tableType.getDimSize(0);
  if (!ShapedType::isDynamic(width) && !ShapedType::isDynamic(shape.back()) &&
      width != shape.back())
    return std::nullopt;

  // The add reads the position at `gatherMap(map(i))`: it may depend on the
  // token and batch axes only, in that order.
  Value positions = gather.positions->get();
  auto positionsType = cast<RankedTensorType>(positions.getType());
  Type element = positionsType.getElementType();
  if (!element.isInteger(32) && !element.isInteger(64) && !element.isIndex())
    return std::nullopt;
  AffineMap composed =
      gather.generic.getMatchingIndexingMap(gather.positions).compose(map);
  std::optional<SmallVector<unsigned>> dims =
      nonUnitDims(composed, positionsType);
  if (!dims || !llvm::is_sorted(*dims) ||
      std::adjacent_find(dims->begin(), dims->end()) != dims->end() ||
      llvm::any_of(*dims,
                   [&](unsigned d) { return d != 0 && d != unsigned(token); }))
    return std::nullopt;
  bool batched = token != 0 && llvm::is_contained(*dims, 0u);
  if (!llvm::is_contained(*dims, unsigned(token)) && shape[token] != 1)
    return std::nullopt; // one position broadcast over the tokens
  SmallVector<int64_t> target{shape[token]};
  if (batched ||
      (rank >= 3 && shape[0] == 1 &&
       positionsType.getShape() == ArrayRef<int64_t>{1, shape[token]}))
    target.insert(target.begin(), shape[0]);

  AbsoluteMatch m{input, gather, Value(), {}, target, gather.rowOffset};
  // Position values when the IR computes them from constants: an arange
  // becomes the implicit `offset + s`; others are checked against the table
  // now, because the verifier rejects out-of-table constants.
  std::optional<SmallVector<double>> values;
  std::optional<int64_t> start;
  if (!batched)
    start = matchArange(stripUnitReshapes(positions));
  if (!start && !ShapedType::isDynamic(shape[token])) {
    values = evaluateConstantTensor(positions, kMaxConstantElements);
    if (values && !values->empty()) {
      int64_t n = shape[token];
      bool isArange = int64_t(values->size()) % n == 0;
      for (int64_t i = 0; isArange && i < int64_t(values->size()); ++i)
        isArange = (*values)[i] == (*values)[0] + double(i % n);
      if (isArange && std::abs((*values)[0]) <= double(kMaxRowOffset))
        start = int64_t((*values)[0]);
    }
  }
  if (start) {
    m.offset += *start;
    if (m.offset < 0 || ShapedType::isDynamic(shape[token]) ||
        (!ShapedType::isDynamic(rows) && shape[token] > rows - m.offset))
      return std::nullopt; // the importer's asserts would fail
    return m;
  }
  // One id for every token (token types, segments) is no position.
  if (values && shape[token] > 1 && llvm::all_equal(ArrayRef<double>(*values)))
    return std::nullopt;
  if (values && !ShapedType::isDynamic(rows))
    for (double p : *values)
      if (p + double(m.offset) < 0 || p + double(m.offset) >= double(rows))
        return std::nullopt;
  std::optional<ReshapePlan> plan =
      planReshape(positionsType.getShape(), target);
  if (!plan)
    return std::nullopt;
  m.positions = positions;
  m.positionsPlan = *plan;
  return m;
}

/// `addf(x, gather(table, positions))`, either operand order.
struct RaiseLearnedAbsolute : OpRewritePattern<linalg::GenericOp> {
  RaiseLearnedAbsolute(MLIRContext *ctx, int64_t &count)
      : OpRewritePattern(ctx), count(count) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Elementwise> add =
        matchElementwise<arith::AddFOp>(op.getResult(0));
    if (!add || add->getNumOperands() != 2 || !add->getInput(0) ||
        !add->getInput(1))
      return failure();
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    // A token embedding is a gather too: when its result is a residual
    // (pre-norm models also normalize it) it has other users. Other ids
    // than an arange are positions only if the gather is only added. When
    // both operands qualify (GPT-2's wte and wpe), the one indexed by an
    // arange is positional, else the second (HF's `inputs_embeds +
    // position_embeds`).
    std::optional<AbsoluteMatch> best;
    for (unsigned i : {0u, 1u}) {
      if (!add->isIdentityInput(i))
        continue;
      Value x = add->getInput(i)->get();
      OpOperand *other = add->getInput(1 - i);
      std::optional<Gather> gather = matchGather(other->get());
      if (!gather || other->get() == x)
        continue;
      std::optional<AbsoluteMatch> m =
          matchPositions(x, *gather, add->getMap(1 - i), type.getShape());
      if (!m || (m->positions && !other->get().hasOneUse()))
        continue;
      if (!best || !m->positions)
        best = m;
    }
    if (!best)
      return rewriter.notifyMatchFailure(op, "not x + gather(table, pos)");

    Location loc = op.getLoc();
    Value positions;
    if (best->positions)
      positions = applyReshape(rewriter, loc, best->positions,
                               best->positionsPlan, best->positionsShape);
    Value offset;
    if (best->offset != 0)
      offset = arith::ConstantIndexOp::create(rewriter, loc, best->offset);
    Value raised =
        LearnedAbsoluteOp::create(rewriter, loc, type, best->input,
                                  best->gather.table, positions, offset);
    rewriter.replaceOp(op, raised);
    // The gather's asserts keep it alive; the raised op checks the bounds.
    if (best->gather.generic->use_empty())
      rewriter.eraseOp(best->gather.generic);
    ++count;
    return success();
  }

  int64_t &count;
};

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
struct RaiseSinusoidalTable : OpRewritePattern<LearnedAbsoluteOp> {
  RaiseSinusoidalTable(MLIRContext *ctx, int64_t &count)
      : OpRewritePattern(ctx), count(count) {}

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

  int64_t &count;
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
struct RaiseSinusoidalSlice : OpRewritePattern<tensor::ExtractSliceOp> {
  RaiseSinusoidalSlice(MLIRContext *ctx, int64_t &count)
      : OpRewritePattern(ctx), count(count) {}

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

  int64_t &count;
};

struct PosEncRaiseAbsolutePass
    : posenc::impl::PosEncRaiseAbsoluteBase<PosEncRaiseAbsolutePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    int64_t numLearned = 0, numSinusoidal = 0;
    RewritePatternSet patterns(ctx);
    patterns.add<RaiseLearnedAbsolute>(ctx, numLearned);
    patterns.add<RaiseSinusoidalTable, RaiseSinusoidalSlice>(ctx,
                                                             numSinusoidal);
    if (failed(applyRaisingPatterns(getOperation(), std::move(patterns),
                                    getArgument(), printStats,
                                    {{"raised-learned-absolute", numLearned},
                                     {"raised-sinusoidal", numSinusoidal}})))
      signalPassFailure();
  }
};

} // namespace
