//===- RotaryFrequencies.cpp - the frequencies of a raised rotary ---------===//
//
// Builds the raised posenc.rotary: its inv_freq (the frequencies the tables
// were computed from, or recovered from a gathered or complex table) or
// cos/sin tables cut from such a table, and a remark naming the frequencies
// (the unscaled ladder of some rope_theta, a named scaling scheme, or a
// custom table).
//
//===----------------------------------------------------------------------===//

#include "RotaryRaising.h"

#include "posenc/IR/PosEncNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <complex>
#include <cstring>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

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

/// `positions` with PyTorch's negative-index wrap into a table of `rows`
/// rows: `p < 0 ? p + rows : p`.
static Value wrapNegative(OpBuilder &b, Location loc, Value positions,
                          int64_t rows) {
  auto type = cast<RankedTensorType>(positions.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, positions), type.getElementType());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{positions}, ValueRange{init},
             ArrayRef<AffineMap>{id, id}, parallel,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Type t = args[0].getType();
               auto constant = [&](int64_t v) -> Value {
                 return t.isIndex()
                            ? arith::ConstantIndexOp::create(nb, nloc, v)
                                  .getResult()
                            : arith::ConstantIntOp::create(nb, nloc, t, v)
                                  .getResult();
               };
               Value negative = arith::CmpIOp::create(
                   nb, nloc, arith::CmpIPredicate::slt, args[0], constant(0));
               Value wrapped =
                   arith::AddIOp::create(nb, nloc, args[0], constant(rows));
               linalg::YieldOp::create(
                   nb, nloc,
                   ValueRange{arith::SelectOp::create(nb, nloc, negative,
                                                      wrapped, args[0])});
             })
      .getResult(0);
}

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

} // namespace

Value raising::buildRotary(PatternRewriter &rewriter, Location loc,
                           const RotaryMatch &m, RotaryLayout layout) {
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
    if (positions && m.source.wrapPositions)
      positions = wrapNegative(
          rewriter, loc, positions,
          cast<RankedTensorType>(m.source.table.getType()).getDimSize(0));
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
