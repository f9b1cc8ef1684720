//===- RotaryTables.cpp - the cos/sin tables of a raised rotary -----------===//
//
// A rotary multiplies by cos and sin tables that importers compute from
// positions and frequencies, or gather from a table by positions. These
// matchers read the tables back to their positions, frequencies, attention
// factor or gathered table, and check that cos and sin agree.
//
//===----------------------------------------------------------------------===//

#include "RotaryRaising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

bool raising::splitsLastIntoPairs(ArrayRef<ReassociationIndices> groups,
                                  int64_t n, int64_t pairSize) {
  if (n < 1 || pairSize != 2 || int64_t(groups.size()) != n)
    return false;
  for (int64_t i = 0; i < n; ++i) {
    ReassociationIndices expected{i};
    if (i == n - 1)
      expected.push_back(n);
    if (groups[i] != expected)
      return false;
  }
  return true;
}

/// `repeat_interleave(t, 2)` along the last dimension as importers
/// materialize it: a copy generic that broadcasts `t` (`[..., w]`) over a new
/// last dimension of size 2, collapsed into `[..., 2w]`. Returns `t`.
static Value matchRepeatInterleave(Value v) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse)
    return Value();
  RankedTensorType srcType = collapse.getSrcType();
  int64_t n = srcType.getRank() - 1; // rank of the result
  if (!splitsLastIntoPairs(collapse.getReassociationIndices(), n,
                           srcType.getShape().back()))
    return Value();
  auto copy = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
  if (!copy || copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      copy.getNumParallelLoops() != copy.getNumLoops() ||
      !copy.getIndexingMapsArray().back().isIdentity())
    return Value();
  Block *body = copy.getBody();
  if (body->getOperations().size() != 1 ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return Value();
  // The input is read at (d0, ..., d_{n-1}): the new last loop is the repeat;
  // a unit input dimension may be read at 0.
  OpOperand *in = copy.getDpsInputOperand(0);
  auto inType = cast<RankedTensorType>(in->get().getType());
  AffineMap map = copy.getMatchingIndexingMap(in);
  if (inType.getRank() != n ||
      inType.getShape() != srcType.getShape().drop_back())
    return Value();
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    auto cst = dyn_cast<AffineConstantExpr>(expr);
    if (!(dim && dim.getPosition() == i) &&
        !(cst && cst.getValue() == 0 && inType.getDimSize(i) == 1))
      return Value();
  }
  return in->get();
}

namespace {
/// Rows of a table `[P, C]` gathered by integer positions: an all-parallel
/// generic whose body yields `tensor.extract %table[row, linalg.index last]`,
/// `row` the position through an index cast and optionally PyTorch's
/// negative-index wrap `pos < 0 ? pos + P : pos` (`wrap`).
struct Gather {
  Value table;
  OpOperand *positions;
  bool wrap = false;
};
} // namespace

static std::optional<Gather> matchGather(Value v) {
  std::optional<TableExtract> match = matchTableExtract(v);
  if (!match)
    return std::nullopt;
  auto [generic, extract, column, table] = *match;
  Block *body = generic.getBody();
  // Bounds checks are the only effects allowed: they do not change values.
  for (Operation &op : body->without_terminator())
    if (!isPure(&op) && op.getName().getStringRef() != "cf.assert")
      return std::nullopt;
  auto tableType = cast<RankedTensorType>(table.getType());
  auto outType = cast<RankedTensorType>(v.getType());
  // Any number of rows (a dynamic sequence length), whole columns.
  if (!tableType.hasStaticShape() ||
      outType.isDynamicDim(outType.getRank() - 1) ||
      outType.getShape().back() > tableType.getDimSize(1))
    return std::nullopt;
  Value row = extract.getIndices()[0];
  if (auto cast = row.getDefiningOp<arith::IndexCastOp>())
    row = cast.getIn();
  bool wrap = false;
  if (auto select = row.getDefiningOp<arith::SelectOp>()) {
    Value pos = select.getFalseValue();
    auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
    auto add = select.getTrueValue().getDefiningOp<arith::AddIOp>();
    APInt zero, rows;
    if (!cmp || !add || cmp.getPredicate() != arith::CmpIPredicate::slt ||
        cmp.getLhs() != pos ||
        !matchPattern(cmp.getRhs(), m_ConstantInt(&zero)) || !zero.isZero())
      return std::nullopt;
    Value other = add.getLhs() == pos   ? add.getRhs()
                  : add.getRhs() == pos ? add.getLhs()
                                        : Value();
    if (!other || !matchPattern(other, m_ConstantInt(&rows)) ||
        rows.getSExtValue() != tableType.getDimSize(0))
      return std::nullopt;
    row = pos;
    wrap = true;
  }
  auto arg = dyn_cast<BlockArgument>(row);
  if (!arg || arg.getOwner() != body || arg.getArgNumber() != 0)
    return std::nullopt;
  return Gather{table, generic.getDpsInputOperand(0), wrap};
}

std::optional<TableSource> raising::matchGatheredRows(Value gathered) {
  std::optional<Gather> g = matchGather(gathered);
  if (!g)
    return std::nullopt;
  auto gatheredType = cast<RankedTensorType>(gathered.getType());
  // Row `s` of the gather holds the table row of position `s`.
  SmallVector<unsigned> rowDims;
  for (int64_t d = 0; d + 1 < gatheredType.getRank(); ++d)
    if (gatheredType.getDimSize(d) != 1)
      rowDims.push_back(d);
  Value positions = g->positions->get();
  auto posDims = nonUnitDims(cast<linalg::GenericOp>(gathered.getDefiningOp())
                                 .getMatchingIndexingMap(g->positions),
                             cast<ShapedType>(positions.getType()));
  if (!posDims || *posDims != rowDims)
    return std::nullopt;
  TableSource src;
  Value ints = stripUnitReshapes(positions);
  int64_t rows = cast<RankedTensorType>(g->table.getType()).getDimSize(0);
  if (std::optional<int64_t> start = matchArange(ints)) {
    int64_t count = cast<RankedTensorType>(ints.getType()).getNumElements();
    if (*start < 0 || *start > rows - count)
      return std::nullopt;
    src.offset = *start;
  } else {
    src.positions = ints;
    src.wrapPositions = g->wrap;
  }
  src.table = g->table;
  return src;
}

/// Reads a half-width table (`half` columns) as columns `[c, c + half)` of
/// rows gathered from a table `[P, C]` (GPT-J's `embed_positions`).
static std::optional<TableSource> matchGatheredTable(Value table,
                                                     int64_t half) {
  std::optional<LastDimSlice> slice =
      matchLastDimSlice(stripUnitReshapes(table));
  if (!slice || slice->size != half)
    return std::nullopt;
  Value gathered = stripUnitReshapes(slice->source);
  if (cast<RankedTensorType>(gathered.getType()).getShape().back() !=
      cast<RankedTensorType>(slice->source.getType()).getShape().back())
    return std::nullopt;
  std::optional<TableSource> src = matchGatheredRows(gathered);
  if (src)
    src->column = slice->offset;
  return src;
}

/// Reads `table` (the operand of the rotary multiply, unit reshapes already
/// stripped) as `[factor *] TrigOp(...)` of angles; full-width tables repeat
/// the angles per `width`.
template <typename TrigOp>
static std::optional<TableSource> matchTable(Value table, TableWidth width) {
  Value v = stripUnitReshapes(table);
  // HF computes the tables in f32 and casts them to the activation type.
  if (auto cast = matchElementwise<arith::TruncFOp>(v);
      cast && cast->getInput(0) && cast->getMap(0).isIdentity())
    v = cast->getInput(0)->get();
  TableSource src;
  if (auto mul = matchElementwise<arith::MulFOp>(v)) {
    for (unsigned i = 0; i < 2 && !src.factor; ++i) {
      Value scalar = mul->getScalar(1 - i);
      // IREE's ONNX import passes the factor as a rank-0 tensor constant.
      if (OpOperand *in = mul->getInput(1 - i);
          !scalar && in && getElementTypeOrSelf(in->get().getType()).isF32() &&
          getConstantFloat(in->get()))
        scalar = in->get();
      if (scalar && getElementTypeOrSelf(scalar.getType()).isF32() &&
          mul->isIdentityInput(i)) {
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
  if (width == TableWidth::Concat) {
    std::optional<SmallVector<Value>> halves = matchLastDimConcat(angles);
    if (!halves || halves->size() != 2 || (*halves)[0] != (*halves)[1])
      return std::nullopt;
    angles = (*halves)[0];
  } else if (width == TableWidth::Interleaved) {
    angles = matchRepeatInterleave(angles);
    if (!angles)
      return std::nullopt;
    angles = stripUnitReshapes(angles);
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

std::optional<int64_t> raising::tokenAxis(AffineMap map, ShapedType tableType,
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
static bool sameSource(const TableSource &a, const TableSource &b) {
  auto sameFactor = [](Value x, Value y) {
    if (x == y)
      return true;
    std::optional<double> cx = x ? getConstantFloat(x) : std::nullopt;
    std::optional<double> cy = y ? getConstantFloat(y) : std::nullopt;
    return cx && cy && *cx == *cy;
  };
  return a.positions == b.positions && a.offset == b.offset &&
         a.wrapPositions == b.wrapPositions && a.invFreq == b.invFreq &&
         a.table == b.table && sameFactor(a.factor, b.factor);
}

/// Reads one rotary table operand per `width`. Interleaved tables may also
/// repeat a half-width table, computed or gathered: `repeat_interleave(t, 2)`.
template <typename TrigOp>
static std::optional<TableSource> matchAnyTable(Value table, TableWidth width,
                                                int64_t rotaryDim) {
  if (width == TableWidth::Interleaved)
    if (Value halfTable = matchRepeatInterleave(stripUnitReshapes(table))) {
      if (std::optional<TableSource> src =
              matchGatheredTable(halfTable, rotaryDim / 2))
        return src;
      return matchTable<TrigOp>(halfTable, TableWidth::Half);
    }
  return matchTable<TrigOp>(table, width);
}

std::optional<RotaryMatch>
raising::matchTables(Value x, const Elementwise &cosMul, unsigned cosIdx,
                     const Elementwise &sinMul, unsigned sinIdx,
                     TableWidth width, int64_t rotaryDim) {
  OpOperand *cosIn = cosMul.getInput(cosIdx), *sinIn = sinMul.getInput(sinIdx);
  // posenc.rotary takes f32, f16 and bf16 (not f64).
  if (!isPosEncFloat(getElementTypeOrSelf(x.getType())) || !cosIn || !sinIn ||
      cosMul.getMap(cosIdx) != sinMul.getMap(sinIdx) ||
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
      matchAnyTable<math::CosOp>(cosIn->get(), width, rotaryDim);
  std::optional<TableSource> s =
      matchAnyTable<math::SinOp>(sinIn->get(), width, rotaryDim);
  if (!c || !s || !sameSource(*c, *s))
    return std::nullopt;
  // Table width and frequency count agree with the rotated channels (a
  // gathered table's columns were checked against rotaryDim / 2).
  if (!c->table &&
      nonUnitShape(c->invFreq) != SmallVector<int64_t>{rotaryDim / 2})
    return std::nullopt;
  return RotaryMatch{x, rotaryDim, *token, *c, s->column};
}
