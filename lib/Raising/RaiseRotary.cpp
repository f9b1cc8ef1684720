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
/// `[factor *] trig([concat(f, f) | repeat_interleave(f, 2) | f])`,
/// `f = float(positions) * invFreq`; or the columns of a table `[P, C]`
/// gathered by positions (GPT-J's `embed_positions`).
struct TableSource {
  Value positions;    // integer [S] or [B, S]; null for an arange
  int64_t offset = 0; // first position of the arange
  Value invFreq;      // any shape with one non-unit dimension
  Value factor;       // scalar attention factor, or null
  std::optional<double> factorValue; // its value when constant
  Value angles;                      // `f`, to check that cos and sin agree
  Value table;                       // the gathered [P, C] table, or null
  int64_t column = 0; // first of the rotary_dim/2 columns read from `table`
};

/// How a full-width table spreads rotary_dim/2 frequencies over the
/// channels: half-split pairs `(i, i + r/2)` read `concat(f, f)`, interleaved
/// pairs `(2i, 2i+1)` read `repeat_interleave(f, 2)`.
enum class TableWidth { Half, Concat, Interleaved };

/// `repeat_interleave(t, 2)` along the last dimension as importers
/// materialize it: a copy generic that broadcasts `t` (`[..., w]`) over a new
/// last dimension of size 2, collapsed into `[..., 2w]`. Returns `t`.
Value matchRepeatInterleave(Value v) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse)
    return Value();
  RankedTensorType srcType = collapse.getSrcType();
  int64_t n = srcType.getRank() - 1; // rank of the result
  SmallVector<ReassociationIndices> groups = collapse.getReassociationIndices();
  if (n < 1 || srcType.getShape().back() != 2 || int64_t(groups.size()) != n)
    return Value();
  for (int64_t i = 0; i < n; ++i) {
    ReassociationIndices expected{i};
    if (i == n - 1)
      expected.push_back(n);
    if (groups[i] != expected)
      return Value();
  }
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

/// Rows of a table `[P, C]` gathered by integer positions: an all-parallel
/// generic whose body yields `tensor.extract %table[row, linalg.index last]`,
/// `row` the position through an index cast and optionally PyTorch's
/// negative-index wrap `pos < 0 ? pos + P : pos` (`wrap`).
struct Gather {
  Value table;
  OpOperand *positions;
  bool wrap = false;
};
std::optional<Gather> matchGather(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block *body = generic.getBody();
  // Bounds checks are the only effects allowed: they do not change values.
  for (Operation &op : body->without_terminator())
    if (!isPure(&op) && op.getName().getStringRef() != "cf.assert")
      return std::nullopt;
  auto extract =
      body->getTerminator()->getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract->getBlock() != body ||
      extract.getIndices().size() != 2)
    return std::nullopt;
  Value table = extract.getTensor();
  auto tableType = cast<RankedTensorType>(table.getType());
  auto outType = cast<RankedTensorType>(v.getType());
  if (generic->isAncestor(table.getParentRegion()->getParentOp()) ||
      !tableType.hasStaticShape() || !outType.hasStaticShape() ||
      outType.getShape().back() > tableType.getDimSize(1))
    return std::nullopt;
  auto column = extract.getIndices()[1].getDefiningOp<linalg::IndexOp>();
  if (!column || int64_t(column.getDim()) != outType.getRank() - 1)
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

/// Reads a half-width table (`half` columns) as columns `[c, c + half)` of
/// rows gathered from a table `[P, C]`. Positions must stay in `[0, P)`:
/// an arange checked statically, or runtime positions without the
/// negative-index wrap (outside `[0, P)` the gather is undefined; with the
/// wrap, a negative position reads row `pos + P`, which no angle
/// `pos * w` reproduces).
std::optional<TableSource> matchGatheredTable(Value table, int64_t half) {
  std::optional<LastDimSlice> slice =
      matchLastDimSlice(stripUnitReshapes(table));
  if (!slice || slice->size != half)
    return std::nullopt;
  Value gathered = stripUnitReshapes(slice->source);
  std::optional<Gather> g = matchGather(gathered);
  auto gatheredType = cast<RankedTensorType>(gathered.getType());
  if (!g ||
      gatheredType.getShape().back() !=
          cast<RankedTensorType>(slice->source.getType()).getShape().back())
    return std::nullopt;
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
  } else if (g->wrap) {
    return std::nullopt;
  } else {
    src.positions = ints;
  }
  src.table = g->table;
  src.column = slice->offset;
  return src;
}

/// Reads `table` (the operand of the rotary multiply, unit reshapes already
/// stripped) as `[factor *] TrigOp(...)` of angles; full-width tables repeat
/// the angles per `width`.
template <typename TrigOp>
std::optional<TableSource> matchTable(Value table, TableWidth width) {
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
         a.invFreq == b.invFreq && a.table == b.table &&
         sameFactor(a.factor, b.factor);
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

/// The f32 frequencies `w` of a gathered table whose columns `sinColumn + i`
/// and `cosColumn + i` hold, in every row `p`, sin and cos of the f32 product
/// `float(p) * w_i` (how HF builds GPT-J's `embed_positions`), each within 4
/// ulps of the value computed in double from that f32 angle: then
/// `posenc.rotary` with `inv_freq = w` reproduces every row of the table. Each
/// `w_i` starts from `atan2` of row 1 and moves by ulps until all rows agree;
/// nullopt when no `w_i` within 64 ulps of it explains the column pair.
std::optional<SmallVector<float>>
recoverFrequencies(ArrayRef<double> table, int64_t rows, int64_t columns,
                   int64_t sinColumn, int64_t cosColumn, int64_t half) {
  if (rows < 2)
    return std::nullopt;
  auto close = [](double actual, double expected) {
    float e = std::abs(float(expected));
    double ulp = double(std::nextafter(e, INFINITY)) - double(e);
    return std::abs(actual - double(float(expected))) <= 4.0 * ulp;
  };
  auto explains = [&](float w, int64_t i) {
    // The last rows have the largest angles: a wrong `w` fails there first.
    for (int64_t p = rows - 1; p >= 0; --p) {
      double angle = double(float(p) * w);
      const double *row = table.data() + p * columns;
      if (!close(row[sinColumn + i], std::sin(angle)) ||
          !close(row[cosColumn + i], std::cos(angle)))
        return false;
    }
    return true;
  };
  SmallVector<float> frequencies;
  for (int64_t i = 0; i < half; ++i) {
    double guess = std::atan2(table[columns + sinColumn + i],
                              table[columns + cosColumn + i]);
    if (!(guess > 0.0))
      return std::nullopt;
    float up = float(guess), down = up;
    std::optional<float> found;
    for (int step = 0; step <= 64 && !found; ++step) {
      if (explains(up, i))
        found = up;
      else if (step > 0 && explains(down, i))
        found = down;
      up = std::nextafter(up, INFINITY);
      down = std::nextafter(down, 0.0f);
    }
    if (!found)
      return std::nullopt;
    frequencies.push_back(*found);
  }
  return frequencies;
}

/// The pieces of a raised rotary, checked; building it is separate.
struct RotaryMatch {
  Value input;
  int64_t rotaryDim;
  int64_t tokenDim;
  TableSource source;    // of the cos table
  int64_t sinColumn = 0; // with a gathered table: the sin table's column
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
  Value invFreq, cos, sin;
  if (Value table = m.source.table) {
    // A gathered table becomes inv_freq when it is sin/cos of f32
    // frequencies (so that the rotary can fuse into attention), else the
    // cos/sin tables cut from it (exact).
    auto tableType = cast<RankedTensorType>(table.getType());
    Type elementType = tableType.getElementType();
    int64_t rows = tableType.getDimSize(0), columns = tableType.getDimSize(1);
    int64_t half = m.rotaryDim / 2;
    std::optional<SmallVector<double>> values = evaluateConstantTensor(table);
    std::optional<SmallVector<float>> frequencies;
    if (values && elementType.isF32())
      frequencies = recoverFrequencies(*values, rows, columns, m.sinColumn,
                                       m.source.column, half);
    auto halfType = RankedTensorType::get({rows, half}, elementType);
    // Constant tables are cut into new constants; others are copied out of
    // the table: the CPU pipeline of LLVM 22 miscompiles a tensor.extract
    // from a strided slice (the vectorizer's gather indices ignore the row
    // stride).
    auto columnsOf = [&](int64_t first) -> Value {
      if (values) {
        const auto &semantics =
            cast<FloatType>(elementType).getFloatSemantics();
        SmallVector<APFloat> cut;
        for (int64_t p = 0; p < rows; ++p)
          for (int64_t i = 0; i < half; ++i) {
            APFloat x((*values)[p * columns + first + i]);
            bool lost;
            x.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
            cut.push_back(x);
          }
        return arith::ConstantOp::create(rewriter, loc,
                                         DenseElementsAttr::get(halfType, cut));
      }
      SmallVector<OpFoldResult> offsets{rewriter.getIndexAttr(0),
                                        rewriter.getIndexAttr(first)};
      SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(rows),
                                      rewriter.getIndexAttr(half)};
      SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
      Value slice = tensor::ExtractSliceOp::create(rewriter, loc, table,
                                                   offsets, sizes, strides);
      Value init = tensor::EmptyOp::create(rewriter, loc, halfType.getShape(),
                                           elementType);
      return linalg::CopyOp::create(rewriter, loc, slice, init).getResult(0);
    };
    if (frequencies) {
      invFreq = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({half}, rewriter.getF32Type()),
              ArrayRef<float>(*frequencies)));
    } else {
      cos = columnsOf(m.source.column);
      sin = columnsOf(m.sinColumn);
    }
  } else {
    invFreq = collapseAll(m.source.invFreq, 1);
  }
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
      rewriter, loc, inputType, m.input, invFreq, cos, sin, positions, offset,
      factor, RotaryLayoutAttr::get(rewriter.getContext(), layout),
      rewriter.getI64IntegerAttr(m.rotaryDim), tokenDim, nullptr, nullptr);
  if (invFreq)
    describeFrequencies(rotary, invFreq, m.rotaryDim);
  else
    rotary->emitRemark("rotary raised with cos/sin tables sliced from the "
                       "gathered table (not sin/cos of f32 frequencies)");
  return rotary;
}

/// Reads one rotary table operand per `width`. Interleaved tables may also
/// repeat a half-width table, computed or gathered: `repeat_interleave(t, 2)`.
template <typename TrigOp>
std::optional<TableSource> matchAnyTable(Value table, TableWidth width,
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

/// Checks the operands that the tables must satisfy for input `x` of the
/// rotary multiply: both read through the same broadcast, both computed from
/// the same angles (or gathered from one table by the same positions),
/// half-width or full-width per `width`.
std::optional<RotaryMatch> matchTables(Value x, const Elementwise &cosMul,
                                       unsigned cosIdx,
                                       const Elementwise &sinMul,
                                       unsigned sinIdx, TableWidth width,
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

/// `x[..., offset::2]`: a stride-2 slice of the last dimension of `x` (the
/// even or odd channels), every other dimension whole.
bool isEvenOddSlice(Value v, Value x, int64_t offset) {
  auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getSource() != x)
    return false;
  RankedTensorType srcType = slice.getSourceType();
  int64_t rank = srcType.getRank();
  if (slice.getResultType().getRank() != rank || !srcType.hasStaticShape())
    return false;
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (offsets[d] != 0 || sizes[d] != srcType.getDimSize(d) || strides[d] != 1)
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
  if (!collapse || collapse.getResultType() != x.getType())
    return false;
  int64_t n = collapse.getResultType().getRank();
  SmallVector<ReassociationIndices> groups = collapse.getReassociationIndices();
  for (int64_t i = 0; i < n; ++i) {
    ReassociationIndices expected{i};
    if (i == n - 1)
      expected.push_back(n);
    if (groups[i] != expected)
      return false;
  }
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
                    first->secondTable, TableWidth::Half, d);
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
    patterns.add<RaiseRotateAndAdd>(ctx, RotaryLayout::half_split, numRaised);
    patterns.add<RaiseRotateAndAdd>(ctx, RotaryLayout::interleaved, numRaised);
    patterns.add<RaiseHalves>(ctx, numRaised);
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
