//===- RaiseAbsolute.cpp - the posenc-raise-absolute pass -----------------===//
//
// Importers lower `x + wpe(positions)` to an embedding gather (a generic
// that extracts `table[pos, d]` after bounds asserts) and an elementwise add,
// and keep sinusoidal tables as constants. This pass reads the gather back
// into posenc.learned_absolute, and a constant table whose values are a
// sinusoidal encoding into posenc.sinusoidal.
//
//===----------------------------------------------------------------------===//

#include "AbsoluteRaising.h"
#include "RaisingDriver.h"
#include "UnflattenGather.h"

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

/// The row index of a gather's extract read back to its position, through
/// sign-preserving casts and constant additions.
struct RowIndex {
  int64_t offset = 0;
  /// The ops computing the row from the position.
  SmallPtrSet<Operation *, 8> ops;
  /// Each value on the way: the offset still to come once it is reached.
  DenseMap<Value, int64_t> after;
};

std::optional<RowIndex> matchRowIndex(Value row, BlockArgument pos) {
  Block *body = pos.getOwner();
  RowIndex index;
  int64_t &offset = index.offset;
  for (;;) {
    index.after[row] = offset;
    if (row == pos)
      break;
    Operation *def = row.getDefiningOp();
    if (!def || def->getBlock() != body)
      return std::nullopt;
    index.ops.insert(def);
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
  return index;
}

/// True when every op of `body` outside `allowed` is a bounds assert on the
/// final row (`isRow`) of a table of `rows` rows, or a compare that only
/// such asserts read.
bool onlyBoundsChecks(Block *body, const SmallPtrSetImpl<Operation *> &allowed,
                      int64_t rows, function_ref<bool(Value)> isRow) {
  for (Operation &op : body->without_terminator()) {
    if (allowed.contains(&op))
      continue;
    if (auto check = dyn_cast<cf::AssertOp>(op)) {
      auto cmp = check.getArg().getDefiningOp<arith::CmpIOp>();
      if (!cmp || cmp->getBlock() != body || !isBoundsCheck(cmp, rows, isRow))
        return false;
      continue;
    }
    // A compare read only by bounds asserts (checked there).
    if (isa<arith::CmpIOp>(op) && llvm::all_of(op.getUsers(), [](Operation *u) {
          return isa<cf::AssertOp>(u);
        }))
      continue;
    return false;
  }
  return true;
}

std::optional<Gather> matchGather(Value v) {
  std::optional<TableExtract> match = matchTableExtract(v);
  if (!match)
    return std::nullopt;
  auto [generic, extract, column, table] = *match;
  Block *body = generic.getBody();
  auto tableType = cast<RankedTensorType>(table.getType());
  std::optional<RowIndex> row =
      matchRowIndex(extract.getIndices()[0], body->getArgument(0));
  if (!row)
    return std::nullopt;

  // Only bounds asserts on the final row may remain; posenc.learned_absolute
  // checks the same bounds itself (verifier when static, cf.assert in its
  // lowering when dynamic).
  auto isRow = [&](Value x) {
    auto it = row->after.find(x);
    return it != row->after.end() && it->second == 0;
  };
  row->ops.insert(extract);
  row->ops.insert(column);
  if (!onlyBoundsChecks(body, row->ops, tableType.getDimSize(0), isRow))
    return std::nullopt;
  return Gather{generic, table, generic.getDpsInputOperand(0), row->offset};
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

/// The first position when `positions` (read by `tokens` tokens) is an
/// arange `start + s` for every batch entry: matched as one when not
/// `batched`, else compared by value. Sets `values` to the positions when
/// the IR computes them from constants and they were evaluated.
std::optional<int64_t> arangeStart(Value positions, bool batched,
                                   int64_t tokens,
                                   std::optional<SmallVector<double>> &values) {
  std::optional<int64_t> start;
  if (!batched)
    start = matchArange(stripUnitReshapes(positions));
  if (!start && !ShapedType::isDynamic(tokens)) {
    values = evaluateConstantTensor(positions, kMaxConstantElements);
    if (values && !values->empty()) {
      int64_t n = tokens;
      bool isArange = int64_t(values->size()) % n == 0;
      for (int64_t i = 0; isArange && i < int64_t(values->size()); ++i)
        isArange = (*values)[i] == (*values)[0] + double(i % n);
      if (isArange && std::abs((*values)[0]) <= double(kMaxRowOffset))
        start = int64_t((*values)[0]);
    }
  }
  return start;
}

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
  std::optional<int64_t> start =
      arangeStart(positions, batched, shape[token], values);
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
struct RaiseLearnedAbsolute : CountingPattern<linalg::GenericOp> {
  using CountingPattern::CountingPattern;

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
};

struct PosEncRaiseAbsolutePass
    : posenc::impl::PosEncRaiseAbsoluteBase<PosEncRaiseAbsolutePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    int64_t numLearned = 0, numSinusoidal = 0;
    RewritePatternSet patterns(ctx);
    patterns.add<RaiseLearnedAbsolute>(ctx, numLearned);
    populateSinusoidalPatterns(patterns, numSinusoidal);
    populateUnflattenGatherPatterns(patterns, GatherUse::Added);
    if (failed(applyRaisingPatterns(getOperation(), std::move(patterns),
                                    getArgument(), printStats,
                                    {{"raised-learned-absolute", numLearned},
                                     {"raised-sinusoidal", numSinusoidal}})))
      signalPassFailure();
  }
};

} // namespace

std::optional<ReshapePlan> raising::planReshape(ArrayRef<int64_t> from,
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

Value raising::applyReshape(PatternRewriter &rewriter, Location loc, Value v,
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
