//===- RaiseRotary.cpp - the posenc-raise-rotary pass ---------------------===//
//
// Importers decompose RoPE into slices, negations, concatenations, cos/sin
// tables and elementwise products. This pass reads that expression back and
// checks every part of it (the halves, the sign, the table layout, the
// broadcast of the tables over heads) before replacing it by posenc.rotary.
//
//===----------------------------------------------------------------------===//

#include "RaisingDriver.h"

#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"
#include "posenc/Raising/Match.h"
#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/DebugLog.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <complex>
#include <cstring>

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

/// True when `groups` reshape `[..., w]` (rank `n`) to or from
/// `[..., w, 2]`: every dimension alone but the last, which pairs with the
/// new one (of size `pairSize`, which must be 2).
bool splitsLastIntoPairs(ArrayRef<ReassociationIndices> groups, int64_t n,
                         int64_t pairSize) {
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
Value matchRepeatInterleave(Value v) {
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

/// The positions of rows gathered from a table `[P, C]` (`gathered`, unit
/// reshapes stripped; columns from 0). Positions must stay in `[0, P)`: an
/// arange checked statically, or runtime positions without the
/// negative-index wrap (outside `[0, P)` the gather is undefined; with the
/// wrap, a negative position reads row `pos + P`, which no angle `pos * w`
/// reproduces).
std::optional<TableSource> matchGatheredRows(Value gathered) {
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
  } else if (g->wrap) {
    return std::nullopt;
  } else {
    src.positions = ints;
  }
  src.table = g->table;
  return src;
}

/// Reads a half-width table (`half` columns) as columns `[c, c + half)` of
/// rows gathered from a table `[P, C]` (GPT-J's `embed_positions`).
std::optional<TableSource> matchGatheredTable(Value table, int64_t half) {
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
/// The named scaling scheme, among linear, llama3 and YaRN with the
/// parameters real configs use, whose table for `base` equals `values`
/// (within f32 rounding of the fp64 formula: HF computes some schemes in
/// f32); null when none does. The factor is read off the table (its lowest
/// frequency is divided by it); the other parameters are searched.
RopeScalingAttrInterface findNamedScheme(MLIRContext *ctx,
                                         ArrayRef<double> values,
                                         int64_t rotaryDim, double base,
                                         int64_t &numMatches) {
  numMatches = 0;
  if (!(base > 1.0) || !std::isfinite(base))
    return nullptr;
  auto equals = [&](RopeScalingAttrInterface scheme) {
    RopeFrequencies f =
        computeRopeFrequencies(scheme, rotaryDim, base, std::nullopt);
    if (f.invFreq.size() != values.size())
      return false;
    for (auto [x, y] : llvm::zip_equal(values, f.invFreq))
      if (std::abs(x - y) > 1e-6 * std::abs(y))
        return false;
    return true;
  };
  SmallVector<double> ladder = defaultInvFreq(rotaryDim, base);
  double factor = std::round(ladder.back() / values.back() * 4.0) / 4.0;
  if (!(factor > 1.0))
    return nullptr;
  if (auto linear = LinearAttr::get(ctx, factor); equals(linear)) {
    numMatches = 1;
    return linear;
  }
  // Common contexts first: the first match is reported; a short head may
  // leave some parameters undetermined (counted in numMatches).
  SmallVector<int64_t> contexts = {8192,  4096,   32768, 131072, 2048, 16384,
                                   65536, 262144, 1024,  40960,  4000, 3000};
  for (int64_t c = 64; c <= (int64_t(1) << 20); c *= 2)
    if (!llvm::is_contained(contexts, c))
      contexts.push_back(c);
  RopeScalingAttrInterface first;
  auto consider = [&](RopeScalingAttrInterface scheme) {
    if (!equals(scheme))
      return;
    if (!first)
      first = scheme;
    ++numMatches;
  };
  for (int64_t context : contexts) {
    for (double low : {1.0, 2.0})
      for (double high : {4.0, 2.0, 8.0})
        consider(Llama3Attr::get(ctx, factor, low, high, context));
    for (bool truncate : {true, false})
      consider(YarnAttr::get(ctx, factor, context, 32.0, 1.0, truncate,
                             std::nullopt, std::nullopt, std::nullopt,
                             YarnFactorRule::explicit_factor, std::nullopt));
  }
  return first;
}

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
  // inv_freq[k] = base^(-2k/d) names the base of an unscaled ladder. The
  // last entry names it most precisely (the rounding of inv_freq[1] to f32
  // grows d/2-fold in its power: Llama-3's 500000 would read 499999.7);
  // bases are integers in practice.
  int64_t last = values.size() - 1;
  double estimate = std::pow(values[last], -double(rotaryDim) / (2.0 * last));
  auto isLadder = [&](double base) {
    SmallVector<double> ladder = defaultInvFreq(rotaryDim, base);
    bool equal = values[0] == 1.0;
    for (auto [x, y] : llvm::zip_equal(values, ladder))
      equal &= std::abs(x - y) <= 4e-7 * std::abs(y);
    return equal;
  };
  InFlightDiagnostic remark = rotary->emitRemark();
  if (isLadder(std::round(estimate)) || isLadder(estimate)) {
    remark << "rotary raised; inv_freq equals the unscaled ladder of "
              "rope_theta = "
           << std::round(estimate);
    return;
  }
  // Scaled schemes keep the highest frequency (inv_freq[1]) or divide it
  // by the factor that also divides the lowest (linear).
  double base = std::round(std::pow(values[1], -double(rotaryDim) / 2.0));
  int64_t numMatches = 0;
  if (RopeScalingAttrInterface scheme = findNamedScheme(
          rotary->getContext(), values, rotaryDim, base, numMatches)) {
    remark << "rotary raised; inv_freq equals rope_theta = " << base << " with "
           << scheme;
    if (numMatches > 1)
      remark << " (and " << numMatches - 1
             << " other parameter sets of common values: this rotary_dim "
                "does not determine them all)";
    return;
  }
  remark << "rotary raised; inv_freq is a scaled or custom table (neither "
            "an unscaled ladder nor a named scheme with common parameters), "
            "kept as a constant operand";
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

/// The values of a constant complex table `[P, C]` (dense, or a
/// dense_resource blob as torch-mlir writes complex buffers) read as the real
/// table `[P, 2C]` of its real parts followed by its imaginary parts.
std::optional<SmallVector<double>> complexTableValues(Value table) {
  auto type = cast<RankedTensorType>(table.getType());
  auto complexType = dyn_cast<ComplexType>(type.getElementType());
  Attribute attr;
  if (!complexType || type.getRank() != 2 || !type.hasStaticShape() ||
      !matchPattern(table, m_Constant(&attr)))
    return std::nullopt;
  int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
  SmallVector<double> values(rows * 2 * columns);
  auto set = [&](int64_t k, double re, double im) {
    int64_t p = k / columns, i = k % columns;
    values[p * 2 * columns + i] = re;
    values[p * 2 * columns + columns + i] = im;
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    auto elements = dense.tryGetValues<std::complex<APFloat>>();
    if (failed(elements))
      return std::nullopt;
    for (auto [k, x] : llvm::enumerate(*elements))
      set(k, x.real().convertToDouble(), x.imag().convertToDouble());
    return values;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob || !complexType.getElementType().isF32())
    return std::nullopt;
  ArrayRef<char> data = blob->getData();
  if (int64_t(data.size()) != rows * columns * 2 * int64_t(sizeof(float)))
    return std::nullopt;
  for (int64_t k = 0; k < rows * columns; ++k) {
    float pair[2];
    std::memcpy(pair, data.data() + k * sizeof(pair), sizeof(pair));
    set(k, pair[0], pair[1]);
  }
  return values;
}

/// The rotary operands for a table of cos and sin values by position
/// `[P, C]`: real with the `half` cos and sin columns at `cosColumn` and
/// `sinColumn` (GPT-J's `embed_positions`), or complex `cos + i sin` read as
/// the real `[P, 2C]` of its real then imaginary parts (Meta's `freqs_cis`).
/// A constant f32 table of sin/cos of f32 frequencies becomes `invFreq`, so
/// that the rotary can fuse into attention; any other table the exact
/// `cos`/`sin` columns.
void tableOperands(PatternRewriter &rewriter, Location loc, Value table,
                   int64_t cosColumn, int64_t sinColumn, int64_t half,
                   Value &invFreq, Value &cos, Value &sin) {
  auto tableType = cast<RankedTensorType>(table.getType());
  auto complexType = dyn_cast<ComplexType>(tableType.getElementType());
  Type elementType =
      complexType ? complexType.getElementType() : tableType.getElementType();
  int64_t rows = tableType.getDimSize(0);
  int64_t columns = tableType.getDimSize(1) * (complexType ? 2 : 1);
  std::optional<SmallVector<double>> values =
      complexType ? complexTableValues(table) : evaluateConstantTensor(table);
  if (values && elementType.isF32())
    if (std::optional<SmallVector<float>> frequencies = recoverFrequencies(
            *values, rows, columns, sinColumn, cosColumn, half)) {
      invFreq = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({half}, rewriter.getF32Type()),
              ArrayRef<float>(*frequencies)));
      return;
    }
  auto halfType = RankedTensorType::get({rows, half}, elementType);
  // Constant tables are cut into new constants; others are copied out of
  // the table: the CPU pipeline of LLVM 22 miscompiles a tensor.extract
  // from a strided slice (the vectorizer's gather indices ignore the row
  // stride).
  auto columnsOf = [&](int64_t first) -> Value {
    if (values) {
      const auto &semantics = cast<FloatType>(elementType).getFloatSemantics();
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
    // Of a complex table, columns `[C, 2C)` are the imaginary parts.
    bool imaginary = complexType && first >= columns / 2;
    if (imaginary)
      first -= columns / 2;
    SmallVector<OpFoldResult> offsets{rewriter.getIndexAttr(0),
                                      rewriter.getIndexAttr(first)};
    SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(rows),
                                    rewriter.getIndexAttr(half)};
    SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, table, offsets,
                                                 sizes, strides);
    Value init = tensor::EmptyOp::create(rewriter, loc, halfType.getShape(),
                                         elementType);
    if (!complexType)
      return linalg::CopyOp::create(rewriter, loc, slice, init).getResult(0);
    AffineMap id = rewriter.getMultiDimIdentityMap(2);
    SmallVector<utils::IteratorType> parallel(2, utils::IteratorType::parallel);
    return linalg::GenericOp::create(
               rewriter, loc, TypeRange{halfType}, ValueRange{slice},
               ValueRange{init}, ArrayRef<AffineMap>{id, id}, parallel,
               [&](OpBuilder &b, Location l, ValueRange args) {
                 Value part =
                     imaginary
                         ? complex::ImOp::create(b, l, args[0]).getResult()
                         : complex::ReOp::create(b, l, args[0]).getResult();
                 linalg::YieldOp::create(b, l, part);
               })
        .getResult(0);
  };
  cos = columnsOf(cosColumn);
  sin = columnsOf(sinColumn);
}

/// The pieces of a raised rotary, checked; building it is separate.
struct RotaryMatch {
  Value input;
  int64_t rotaryDim;
  int64_t tokenDim;
  TableSource source;    // of the cos table
  int64_t sinColumn = 0; // with a `source.table`: the first sin column (of
                         // the real view of a complex table, see
                         // tableOperands)
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
  if (Value table = m.source.table)
    tableOperands(rewriter, loc, table, m.source.column, m.sinColumn,
                  m.rotaryDim / 2, invFreq, cos, sin);
  else
    invFreq = collapseAll(m.source.invFreq, 1);
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
  else if (isa<ComplexType>(getElementTypeOrSelf(m.source.table.getType())))
    rotary->emitRemark("rotary raised with cos/sin tables cut from the real "
                       "and imaginary parts of the complex table (not "
                       "cos/sin of f32 frequencies)");
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

/// Meta's `view_as_complex(x.reshape(..., D/2, 2))` as torch-mlir emits it:
/// a generic without inputs over `[..., D/2]` yielding
/// `complex.create(e[i..., j, 0], e[i..., j, 1])`, every other index the
/// iteration index (or 0 on a unit dimension), with `e` an f32 expand_shape
/// into `[..., D/2, 2]` whose last group splits `D` into pairs (it may split
/// more: torch-mlir expands the projection `[S, H * D]` into
/// `[1, S, H, D/2, 2]` at once). Returns the expand.
tensor::ExpandShapeOp matchViewAsComplex(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return {};
  Block *body = generic.getBody();
  if (llvm::any_of(body->without_terminator(),
                   [](Operation &op) { return !isPure(&op); }))
    return {};
  auto create =
      body->getTerminator()->getOperand(0).getDefiningOp<complex::CreateOp>();
  if (!create)
    return {};
  auto re = create.getReal().getDefiningOp<tensor::ExtractOp>();
  auto im = create.getImaginary().getDefiningOp<tensor::ExtractOp>();
  if (!re || !im || re.getTensor() != im.getTensor())
    return {};
  auto expand = re.getTensor().getDefiningOp<tensor::ExpandShapeOp>();
  auto type = cast<RankedTensorType>(v.getType());
  int64_t n = type.getRank();
  if (!expand || !expand.getSrcType().getElementType().isF32() ||
      !expand.getResultType().hasStaticShape() ||
      expand.getResultType().getShape().back() != 2 ||
      expand.getResultType().getShape().drop_back() != type.getShape() ||
      !llvm::is_contained(expand.getReassociationIndices().back(), n - 1))
    return {};
  // The real part reads lane 0 of pair `j`, the imaginary part lane 1.
  auto readsLane = [&](tensor::ExtractOp extract, int64_t lane) {
    OperandRange indices = extract.getIndices();
    for (int64_t d = 0; d < n; ++d) {
      auto index = indices[d].getDefiningOp<linalg::IndexOp>();
      APInt zero;
      if (!(index && index->getBlock() == body &&
            int64_t(index.getDim()) == d) &&
          !(type.getDimSize(d) == 1 &&
            matchPattern(indices[d], m_ConstantInt(&zero)) && zero.isZero()))
        return false;
    }
    APInt c;
    return matchPattern(indices[n], m_ConstantInt(&c)) &&
           c.getSExtValue() == lane;
  };
  if (!readsLane(re, 0) || !readsLane(im, 1))
    return {};
  return expand;
}

/// The input `[..., D]` of the expand that `matchViewAsComplex` returned:
/// its source, expanded like it but for the pairs.
Value unpairedInput(PatternRewriter &rewriter, tensor::ExpandShapeOp expand,
                    RankedTensorType type) {
  SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
  groups.back().pop_back();
  if (llvm::all_of(groups, [](const ReassociationIndices &group) {
        return group.size() == 1;
      }))
    return expand.getSrc();
  return tensor::ExpandShapeOp::create(rewriter, expand.getLoc(), type,
                                       expand.getSrc(), groups);
}

/// What a body value of `view_as_real`'s generic is at lane `lane` of the
/// last loop `laneDim`: the real or imaginary part of `in`, through selects
/// on comparisons of `linalg.index laneDim` with constants.
enum class Part { Real, Imaginary, Other };
Part partAtLane(Value v, BlockArgument in, unsigned laneDim, int64_t lane) {
  if (auto re = v.getDefiningOp<complex::ReOp>())
    return re.getComplex() == in ? Part::Real : Part::Other;
  if (auto im = v.getDefiningOp<complex::ImOp>())
    return im.getComplex() == in ? Part::Imaginary : Part::Other;
  auto select = v.getDefiningOp<arith::SelectOp>();
  auto cmp = select ? select.getCondition().getDefiningOp<arith::CmpIOp>()
                    : arith::CmpIOp();
  if (!cmp)
    return Part::Other;
  auto laneValue = [&](Value x) -> std::optional<APInt> {
    APInt c;
    if (matchPattern(x, m_ConstantInt(&c)))
      return c;
    auto index = x.getDefiningOp<linalg::IndexOp>();
    if (index && index->getBlock() == in.getOwner() &&
        index.getDim() == laneDim)
      return APInt(64, lane);
    return std::nullopt;
  };
  std::optional<APInt> lhs = laneValue(cmp.getLhs());
  std::optional<APInt> rhs = laneValue(cmp.getRhs());
  if (!lhs || !rhs || lhs->getBitWidth() != rhs->getBitWidth())
    return Part::Other;
  bool taken = arith::applyCmpPredicate(cmp.getPredicate(), *lhs, *rhs);
  return partAtLane(taken ? select.getTrueValue() : select.getFalseValue(), in,
                    laneDim, lane);
}

/// `view_as_real(c)` as torch-mlir emits it: a generic over `[..., W, 2]`
/// reading `c` (`[..., W]`) that yields the real part of the element at lane
/// 0 of the new last loop and the imaginary part at lane 1. Returns `c`.
Value matchViewAsReal(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return Value();
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  unsigned n = generic.getNumLoops() - 1;
  Value c = generic.getDpsInputs()[0];
  auto type = cast<RankedTensorType>(v.getType());
  auto inType = dyn_cast<RankedTensorType>(c.getType());
  if (!maps[1].isIdentity() ||
      maps[0] != AffineMap::getMultiDimIdentityMap(n + 1, v.getContext())
                     .getMajorSubMap(n) ||
      !inType || inType.getShape() != type.getShape().drop_back() ||
      type.getShape().back() != 2)
    return Value();
  Block *body = generic.getBody();
  if (llvm::any_of(body->without_terminator(),
                   [](Operation &op) { return !isPure(&op); }))
    return Value();
  Value yielded = body->getTerminator()->getOperand(0);
  BlockArgument in = body->getArgument(0);
  if (partAtLane(yielded, in, n, 0) != Part::Real ||
      partAtLane(yielded, in, n, 1) != Part::Imaginary)
    return Value();
  return c;
}

/// Meta's complex table `freqs_cis` (`cos + i sin`, `[P, C]`) as the complex
/// multiply reads it, unit reshapes stripped, with `half` columns: rows
/// `[o, o + S)` sliced from it (the arange `o + s`), rows gathered by
/// positions, or the whole table (`P = S`). The table must be a constant or
/// an argument: a table computed in the IR (`conj(freqs_cis)`) is not read.
std::optional<TableSource> matchComplexTable(Value table, int64_t half) {
  Value t = stripUnitReshapes(table);
  auto type = cast<RankedTensorType>(t.getType());
  auto isTable = [](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    auto element = dyn_cast<ComplexType>(type.getElementType());
    return element && element.getElementType().isF32() && type.getRank() == 2 &&
           type.hasStaticShape() &&
           (isa<BlockArgument>(v) || matchPattern(v, m_Constant()));
  };
  TableSource src;
  if (auto slice = t.getDefiningOp<tensor::ExtractSliceOp>()) {
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    if (!isTable(slice.getSource()) || type.getRank() != 2 ||
        !slice.hasUnitStride() || ShapedType::isDynamic(offsets[0]) ||
        ShapedType::isDynamic(offsets[1]) || !type.hasStaticShape() ||
        type.getDimSize(1) != half)
      return std::nullopt;
    src.table = slice.getSource();
    src.offset = offsets[0];
    src.column = offsets[1];
    return src;
  }
  if (isTable(t)) {
    if (type.getDimSize(1) != half)
      return std::nullopt;
    src.table = t;
    return src;
  }
  std::optional<TableSource> rows = matchGatheredRows(t);
  if (!rows || !isTable(rows->table) || type.getShape().back() != half)
    return std::nullopt;
  return rows;
}

/// Meta's reference RoPE, the complex product:
/// `flatten(view_as_real(view_as_complex(x) * freqs_cis))`, pairs
/// `(2i, 2i+1)` multiplied by `freqs_cis[pos, i] = cos + i sin`:
/// `(x0 cos - x1 sin) + i (x0 sin + x1 cos)`, an interleaved rotary.
struct RaiseComplexProduct : OpRewritePattern<tensor::CollapseShapeOp> {
  RaiseComplexProduct(MLIRContext *ctx, int64_t &count)
      : OpRewritePattern(ctx), count(count) {}

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResultType();
    if (!type.getElementType().isF32() || !type.hasStaticShape() ||
        !splitsLastIntoPairs(op.getReassociationIndices(), type.getRank(),
                             op.getSrcType().getShape().back()))
      return failure();
    Value product = matchViewAsReal(op.getSrc());
    if (!product)
      return rewriter.notifyMatchFailure(op, "not view_as_real");
    std::optional<Elementwise> mul = matchElementwise<complex::MulOp>(product);
    if (!mul || !mul->getInput(0) || !mul->getInput(1))
      return rewriter.notifyMatchFailure(op, "not a complex product");
    for (unsigned i = 0; i < 2; ++i) {
      if (!mul->isIdentityInput(i))
        continue;
      tensor::ExpandShapeOp pairs = matchViewAsComplex(mul->getInput(i)->get());
      if (!pairs)
        continue;
      OpOperand *table = mul->getInput(1 - i);
      std::optional<int64_t> token = tokenAxis(
          mul->getMap(1 - i), cast<ShapedType>(table->get().getType()),
          cast<RankedTensorType>(product.getType()));
      int64_t d = type.getShape().back();
      std::optional<TableSource> src = matchComplexTable(table->get(), d / 2);
      if (!token || !src)
        continue;
      // The real view of the table puts the imaginary parts (sin) after
      // the real ones (cos).
      int64_t columns =
          cast<RankedTensorType>(src->table.getType()).getDimSize(1);
      Value x = unpairedInput(rewriter, pairs, type);
      RotaryMatch m{x, d, *token, *src, columns + src->column};
      rewriter.replaceOp(
          op, buildRotary(rewriter, op.getLoc(), m, RotaryLayout::interleaved));
      ++count;
      return success();
    }
    return rewriter.notifyMatchFailure(op, "not view_as_complex(x) * table");
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
    patterns.add<RaiseComplexProduct>(ctx, numRaised);
    patterns.add<FoldPartialRotary>(ctx, numPartial);
    if (failed(applyRaisingPatterns(getOperation(), std::move(patterns),
                                    getArgument(), printStats,
                                    {{"raised-rotary", numRaised},
                                     {"raised-partial-rotary", numPartial}})))
      signalPassFailure();
  }
};

} // namespace
