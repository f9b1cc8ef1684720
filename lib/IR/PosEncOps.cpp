//===- PosEncOps.cpp - posenc operations ----------------------------------===//

#include "posenc/IR/PosEncOps.h"
#include "posenc/IR/PosEncNumerics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;

//===----------------------------------------------------------------------===//
// Custom assembly
//===----------------------------------------------------------------------===//

/// ALiBi slopes are either a configuration attribute (`<num_heads = 8>`) or a
/// runtime tensor (`%s : tensor<8xf32>`).
static ParseResult
parseSlopeSource(OpAsmParser &parser, AlibiSlopesAttr &config,
                 std::optional<OpAsmParser::UnresolvedOperand> &slopes,
                 Type &slopesType) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult result = parser.parseOptionalOperand(operand);
  if (result.has_value()) {
    if (failed(*result) || parser.parseColonType(slopesType))
      return failure();
    slopes = operand;
    return success();
  }
  return parser.parseCustomAttributeWithFallback(config);
}

static void printSlopeSource(OpAsmPrinter &printer, Operation *,
                             AlibiSlopesAttr config, Value slopes,
                             Type slopesType) {
  if (slopes) {
    printer << slopes << " : " << slopesType;
    return;
  }
  if (config)
    printer.printStrippedAttrOrType(config);
}

/// `<layout = half_split, rotary_dim = 64>`: the attribute kind is implied.
/// A posenc attribute in an op clause, written without its `#posenc.name`
/// prefix (accepted with it too).
template <typename AttrT>
static ParseResult parseClauseAttr(OpAsmParser &parser, AttrT &attr) {
  return parser.parseCustomAttributeWithFallback(attr);
}

template <typename AttrT>
static void printClauseAttr(OpAsmPrinter &printer, Operation *, AttrT attr) {
  printer.printStrippedAttrOrType(attr);
}

#define GET_OP_CLASSES
#include "posenc/IR/PosEncOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared verification helpers
//===----------------------------------------------------------------------===//

/// True when both extents are static and differ.
static bool staticMismatch(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

static bool staticMismatch(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return true;
  return llvm::any_of(llvm::zip_equal(a, b), [](auto pair) {
    return staticMismatch(std::get<0>(pair), std::get<1>(pair));
  });
}

/// `a + b` in decimal, exact even where int64_t overflows (for diagnostics;
/// extents and attribute values reach 2^63 - 1).
static std::string formatSum(int64_t a, int64_t b) {
  return llvm::toString(APInt(128, a, /*isSigned=*/true) +
                            APInt(128, b, /*isSigned=*/true),
                        10, /*Signed=*/true);
}

static LogicalResult verifyRotaryDim(Operation *op, int64_t rotaryDim,
                                     int64_t headDim) {
  if (failed(checkRotaryDim([&]() { return op->emitOpError(); }, rotaryDim)))
    return failure();
  if (!ShapedType::isDynamic(headDim) && rotaryDim > headDim)
    return op->emitOpError("rotary_dim (")
           << rotaryDim << ") exceeds head_dim (" << headDim << ")";
  return success();
}

static LogicalResult verifyInvFreq(Operation *op, Value invFreq,
                                   int64_t rotaryDim) {
  auto type = cast<RankedTensorType>(invFreq.getType());
  if (staticMismatch(type.getDimSize(0), rotaryDim / 2))
    return op->emitOpError("inv_freq must have rotary_dim/2 = ")
           << rotaryDim / 2 << " entries, got " << type.getDimSize(0);
  return success();
}

/// Checks a position tensor of shape `[prefix..., S]` or `[prefix..., B, S]`.
/// `batch` is the batch extent positions may carry (std::nullopt when the
/// consumer has no batch axis), `tokens` the token extent they index.
static LogicalResult verifyPositions(Operation *op, StringRef name,
                                     Value positions,
                                     std::optional<int64_t> batch,
                                     int64_t tokens,
                                     ArrayRef<int64_t> prefix = {}) {
  auto type = cast<RankedTensorType>(positions.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t n = prefix.size();
  int64_t rank = type.getRank();
  if (rank != n + 1 && !(batch && rank == n + 2)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << name << " must have rank " << n + 1;
    if (batch)
      diag << " ([S]) or " << n + 2 << " ([B, S])";
    return diag << ", got rank " << rank;
  }
  for (auto [i, extent] : llvm::enumerate(prefix))
    if (staticMismatch(shape[i], extent))
      return op->emitOpError() << name << " dimension " << i << " must be "
                               << extent << ", got " << shape[i];
  if (rank == n + 2 && staticMismatch(shape[n], *batch))
    return op->emitOpError() << name << " batch extent (" << shape[n]
                             << ") does not match the batch (" << *batch << ")";
  if (staticMismatch(shape.back(), tokens))
    return op->emitOpError()
           << name << " token extent (" << shape.back()
           << ") does not match the sequence length (" << tokens << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// RopeFrequenciesOp
//===----------------------------------------------------------------------===//

LogicalResult RopeFrequenciesOp::verify() {
  int64_t rotaryDim = getRotaryDim();
  if (failed(checkRotaryDim([&]() { return emitOpError(); }, rotaryDim)))
    return failure();
  double base = getBase().convertToDouble();
  // Every scheme takes log(base) or base^x; base <= 1 has no frequency ladder.
  if (!std::isfinite(base) || base <= 1.0)
    return emitOpError("base must be finite and > 1, got ") << base;
  auto type = getInvFreq().getType();
  if (type.getDimSize(0) != rotaryDim / 2)
    return emitOpError("result must have static size rotary_dim/2 = ")
           << rotaryDim / 2 << ", got " << type;
  bool needsSeqLen = false;
  if (RopeScalingAttrInterface scaling = getScalingAttr()) {
    if (failed(scaling.verifyRotaryDim([&]() { return emitOpError(); },
                                       rotaryDim)))
      return failure();
    needsSeqLen = scaling.needsSeqLen();
  }
  if (needsSeqLen && !getSeqLen())
    return emitOpError("scaling ")
           << getScalingAttr()
           << " depends on the runtime sequence length: seq_len is required";
  if (!needsSeqLen && getSeqLen())
    return emitOpError("seq_len is only meaningful for runtime scaling rules "
                       "(dynamic_ntk rule hf, longrope select hf)");
  // Parameters valid on their own can still overflow the table (a factor of
  // 1e-320 divides by almost 0). Larger tables are not computed here: the
  // lowering rejects all of them but HF dynamic NTK's, built at run time.
  if (getScalingAttr() && rotaryDim / 2 <= kMaxConstantElements)
    if (std::optional<NonFiniteFrequency> bad =
            findNonFiniteFrequency(getScalingAttr(), rotaryDim, base,
                                   cast<FloatType>(type.getElementType())))
      return emitOpError("scaling parameter '")
             << bad->parameter << "' (" << bad->value << ") "
             << bad->describe();
  return success();
}

LogicalResult RopeFrequenciesOp::fold(FoldAdaptor adaptor,
                                      SmallVectorImpl<OpFoldResult> &results) {
  if (getRotaryDim() / 2 > kMaxConstantElements)
    return failure();
  RopeScalingAttrInterface scaling = getScalingAttr();
  std::optional<int64_t> seqLen;
  if (scaling && scaling.needsSeqLen()) {
    auto length = dyn_cast_if_present<IntegerAttr>(adaptor.getSeqLen());
    // A negative length is a runtime error for the lowering to report.
    if (!length || length.getValue().isNegative())
      return failure();
    seqLen = length.getValue().getSExtValue();
  }
  RopeFrequencies freqs = computeRopeFrequencies(
      scaling, getRotaryDim(), getBase().convertToDouble(), seqLen);
  results.push_back(getRoundedElements(getInvFreq().getType(), freqs.invFreq));
  results.push_back(FloatAttr::get(Float32Type::get(getContext()),
                                   static_cast<float>(freqs.attentionFactor)));
  return success();
}

//===----------------------------------------------------------------------===//
// RotaryOp
//===----------------------------------------------------------------------===//

int64_t RotaryOp::getTokenAxis() {
  if (std::optional<int64_t> axis = getTokenDim())
    return *axis;
  return getInput().getType().getRank() - 2;
}

/// Exactly one of inv_freq and the cos/sin tables, of rotary_dim/2 columns.
static LogicalResult verifyFrequencySource(RotaryOp op) {
  int64_t rotaryDim = op.getRotaryDim();
  bool hasTables = op.getCos() || op.getSin();
  if (static_cast<bool>(op.getInvFreq()) == hasTables)
    return op.emitOpError("needs exactly one frequency source: inv_freq or "
                          "cos_sin tables");
  if (op.getInvFreq())
    return verifyInvFreq(op, op.getInvFreq(), rotaryDim);
  if (!op.getCos() || !op.getSin())
    return op.emitOpError("cos and sin tables must be given together");
  auto cosType = cast<RankedTensorType>(op.getCos().getType());
  if (cosType != op.getSin().getType())
    return op.emitOpError("cos and sin tables must have the same type");
  if (cosType.getRank() != 2)
    return op.emitOpError("cos/sin tables must have shape [T, rotary_dim/2], "
                          "got ")
           << cosType;
  if (staticMismatch(cosType.getDimSize(1), rotaryDim / 2))
    return op.emitOpError("cos/sin tables must have rotary_dim/2 = ")
           << rotaryDim / 2 << " columns, got " << cosType.getDimSize(1);
  if (op.getAttentionFactor())
    return op.emitOpError(
        "attention_factor is only valid with inv_freq (cos/sin "
        "tables already include it)");
  return success();
}

/// M-RoPE sections and layout; `prefix` receives the leading extent of the
/// positions (the axis count) when M-RoPE is on.
static LogicalResult verifyMRope(RotaryOp op,
                                 SmallVectorImpl<int64_t> &prefix) {
  std::optional<ArrayRef<int64_t>> sections = op.getMropeSections();
  if (!sections) {
    if (op.getMropeLayout())
      return op.emitOpError("mrope_layout requires mrope_sections");
    return success();
  }
  if (sections->size() < 2)
    return op.emitOpError("mrope_sections needs at least 2 axes, got ")
           << sections->size();
  APInt total(128, 0); // exact: entries reach 2^63 - 1
  for (int64_t s : *sections) {
    if (s <= 0)
      return op.emitOpError("mrope_sections entries must be > 0");
    total += APInt(128, s);
  }
  if (total != op.getRotaryDim() / 2)
    return op.emitOpError("mrope_sections must sum to rotary_dim/2 = ")
           << op.getRotaryDim() / 2 << ", got "
           << llvm::toString(total, 10, /*Signed=*/false);
  if (op.getMropeLayout() == MRopeLayout::interleaved && sections->size() != 3)
    return op.emitOpError("interleaved M-RoPE is defined for 3 axes (t, h, w), "
                          "got ")
           << sections->size();
  if (!op.getPositions())
    return op.emitOpError("M-RoPE requires positions of shape [axes, ..., S]");
  prefix.push_back(sections->size());
  return success();
}

LogicalResult RotaryOp::verify() {
  auto inputType = getInput().getType();
  int64_t rank = inputType.getRank();
  if (rank < 2)
    return emitOpError("input must have rank >= 2 ([..., S, D]), got ") << rank;
  int64_t tokenAxis = getTokenAxis();
  if (tokenAxis >= rank - 1)
    return emitOpError("token_dim (")
           << tokenAxis << ") must name a dimension before head_dim (rank "
           << rank << ")";
  if (ShapedType::isDynamic(inputType.getShape().back()))
    return emitOpError("head_dim (the last dimension) must be static");
  int64_t rotaryDim = getRotaryDim();
  if (failed(verifyRotaryDim(*this, rotaryDim, inputType.getShape().back())))
    return failure();

  if (failed(verifyFrequencySource(*this)))
    return failure();
  SmallVector<int64_t> prefix;
  if (failed(verifyMRope(*this, prefix)))
    return failure();

  if (getPositions()) {
    std::optional<int64_t> batch;
    if (tokenAxis > 0)
      batch = inputType.getDimSize(0);
    if (failed(verifyPositions(*this, "positions", getPositions(), batch,
                               inputType.getDimSize(tokenAxis), prefix)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AlibiOp
//===----------------------------------------------------------------------===//

/// Checks the heads `[offset, offset + heads)` of a shard against the global
/// slope configuration.
static LogicalResult verifyAlibiHeads(Operation *op, AlibiSlopesAttr config,
                                      Value slopes, int64_t heads) {
  if (static_cast<bool>(config) == static_cast<bool>(slopes))
    return op->emitOpError("needs exactly one slope source: "
                           "#posenc.alibi_slopes or a slopes tensor");
  // 0 <= head_offset < num_heads (attribute verifier); compared without
  // forming head_offset + heads, which can overflow.
  if (config && !ShapedType::isDynamic(heads) &&
      heads > config.getNumHeads() - config.getHeadOffset())
    return op->emitOpError("heads [")
           << config.getHeadOffset() << ", "
           << formatSum(config.getHeadOffset(), heads)
           << ") exceed num_heads = " << config.getNumHeads();
  if (slopes &&
      staticMismatch(cast<RankedTensorType>(slopes.getType()).getDimSize(0),
                     heads))
    return op->emitOpError("slopes must have one entry per head (")
           << heads << "), got " << slopes.getType();
  return success();
}

LogicalResult AlibiOp::verify() {
  auto type = getResult().getType();
  int64_t rank = type.getRank();
  if (rank != 3 && rank != 4)
    return emitOpError("result must be [H, Sq, Sk] or [B, H, Sq, Sk], got ")
           << type;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t heads = shape[rank - 3];
  if (heads == 0)
    return emitOpError("needs at least one head");
  if (failed(verifyAlibiHeads(*this, getConfigAttr(), getSlopes(), heads)))
    return failure();
  std::optional<int64_t> batch;
  if (rank == 4)
    batch = shape[0];
  if (getQPositions() &&
      failed(verifyPositions(*this, "q_positions", getQPositions(), batch,
                             shape[rank - 2])))
    return failure();
  if (getKPositions() &&
      failed(verifyPositions(*this, "k_positions", getKPositions(), batch,
                             shape[rank - 1])))
    return failure();
  // Every dynamic extent must be readable from an operand.
  auto hasBatchPositions = [](Value positions) {
    return positions &&
           cast<RankedTensorType>(positions.getType()).getRank() == 2;
  };
  if (rank == 4 && ShapedType::isDynamic(shape[0]) &&
      !hasBatchPositions(getQPositions()) &&
      !hasBatchPositions(getKPositions()))
    return emitOpError("a dynamic batch needs [B, S] q_positions or "
                       "k_positions");
  if (ShapedType::isDynamic(heads) && !getSlopes())
    return emitOpError("a dynamic head count needs a slopes tensor");
  if (ShapedType::isDynamic(shape[rank - 2]) && !getQPositions())
    return emitOpError("a dynamic query length needs q_positions");
  if (ShapedType::isDynamic(shape[rank - 1]) && !getKPositions())
    return emitOpError("a dynamic key length needs k_positions");
  return success();
}

//===----------------------------------------------------------------------===//
// SinusoidalOp
//===----------------------------------------------------------------------===//

LogicalResult SinusoidalOp::verify() {
  double base = getBase().convertToDouble();
  if (!std::isfinite(base) || base <= 1.0)
    return emitOpError("base must be finite and > 1, got ") << base;
  auto type = getResult().getType();
  int64_t rank = type.getRank();
  int64_t positionsRank =
      getPositions() ? getPositions().getType().getRank() : 1;
  if (positionsRank != 1 && positionsRank != 2)
    return emitOpError("positions must be [S] or [B, S], got ")
           << getPositions().getType();
  if (rank != positionsRank + 1)
    return emitOpError("result must have rank ")
           << positionsRank + 1 << " ([rows..., d]), got " << type;
  int64_t dim = type.getShape().back();
  if (ShapedType::isDynamic(dim))
    return emitOpError("encoding dimension must be static");
  if (dim < 2)
    return emitOpError("encoding dimension must be >= 2, got ") << dim;
  if (!getPositions() && ShapedType::isDynamic(type.getDimSize(0)))
    return emitOpError("a dynamic row count needs positions");
  if (getPositions() && staticMismatch(getPositions().getType().getShape(),
                                       type.getShape().drop_back()))
    return emitOpError("result rows ")
           << type << " do not match positions " << getPositions().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// LearnedAbsoluteOp
//===----------------------------------------------------------------------===//

/// Constant integer value of `v`, if any.
static std::optional<int64_t> getConstantInt(Value v) {
  APInt value;
  if (v && matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

LogicalResult LearnedAbsoluteOp::verify() {
  auto inputType = getInput().getType();
  auto tableType = getTable().getType();
  int64_t rank = inputType.getRank();
  if (rank < 2)
    return emitOpError("input must have rank >= 2 ([..., S, D]), got ") << rank;
  if (tableType.getRank() != 2)
    return emitOpError("table must have shape [P, D], got ") << tableType;
  if (inputType.getElementType() != tableType.getElementType())
    return emitOpError("table element type ")
           << tableType.getElementType() << " differs from input element type "
           << inputType.getElementType();
  if (staticMismatch(inputType.getShape().back(), tableType.getDimSize(1)))
    return emitOpError("table width (")
           << tableType.getDimSize(1) << ") does not match the embedding size ("
           << inputType.getShape().back() << ")";

  int64_t tokens = inputType.getDimSize(rank - 2);
  int64_t tableRows = tableType.getDimSize(0);
  std::optional<int64_t> offset =
      getOffset() ? getConstantInt(getOffset()) : std::optional<int64_t>(0);
  if (getPositions()) {
    std::optional<int64_t> batch;
    if (rank >= 3)
      batch = inputType.getDimSize(0);
    if (failed(
            verifyPositions(*this, "positions", getPositions(), batch, tokens)))
      return failure();
    DenseIntElementsAttr constPositions;
    if (offset && !ShapedType::isDynamic(tableRows) &&
        matchPattern(getPositions(), m_Constant(&constPositions))) {
      for (APInt p : constPositions.getValues<APInt>()) {
        int64_t pos;
        if (llvm::AddOverflow(p.getSExtValue(), *offset, pos) || pos < 0 ||
            pos >= tableRows)
          return emitOpError("position ")
                 << formatSum(p.getSExtValue(), *offset)
                 << " is outside the learned table [0, " << tableRows
                 << "): absolute embeddings cannot extrapolate";
      }
    }
    return success();
  }
  if (offset && *offset < 0)
    return emitOpError("offset must be >= 0, got ") << *offset;
  // offset >= 0 and tokens >= 0 here: offset + tokens > tableRows without
  // forming the (possibly overflowing) sum.
  if (offset && !ShapedType::isDynamic(tokens) &&
      !ShapedType::isDynamic(tableRows) && tokens > tableRows - *offset)
    return emitOpError("positions [")
           << *offset << ", " << formatSum(*offset, tokens)
           << ") exceed the learned table of " << tableRows
           << " rows: absolute embeddings cannot extrapolate";
  return success();
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

double AttentionOp::getScaleOrDefault() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToDouble();
  return 1.0 /
         std::sqrt(static_cast<double>(getQuery().getType().getShape().back()));
}

/// Ranks, element types, head counts and extents of q, k, v and the result.
static LogicalResult verifyAttentionShapes(AttentionOp op) {
  auto qType = op.getQuery().getType();
  auto kType = op.getKey().getType();
  auto vType = op.getValue().getType();
  auto outType = op.getResult().getType();
  for (auto [name, type] :
       {std::pair<StringRef, RankedTensorType>{"query", qType},
        {"key", kType},
        {"value", vType},
        {"result", outType}})
    if (type.getRank() != 4)
      return op.emitOpError()
             << name << " must have shape [B, H, S, D], got " << type;
  Type elementType = qType.getElementType();
  if (kType.getElementType() != elementType ||
      vType.getElementType() != elementType ||
      outType.getElementType() != elementType)
    return op.emitOpError("query, key, value and result must share one element "
                          "type");

  // The lowering splits the query heads into groups of Hq/Hkv when it is
  // built: without static head counts it could only fail to legalize.
  for (auto [name, type] :
       {std::pair<StringRef, RankedTensorType>{"query", qType},
        {"key", kType},
        {"value", vType},
        {"result", outType}})
    if (type.isDynamicDim(1))
      return op.emitOpError("requires static head counts (the GQA group size "
                            "Hq/Hkv is resolved at compile time), but the ")
             << name << " has a dynamic head count: " << type;

  ArrayRef<int64_t> q = qType.getShape(), k = kType.getShape(),
                    v = vType.getShape(), out = outType.getShape();
  if (staticMismatch(q[0], k[0]) || staticMismatch(q[0], v[0]) ||
      staticMismatch(q[0], out[0]))
    return op.emitOpError("batch sizes differ");
  // The key's too: RoPE rotates k's channels [0, rotary_dim) and passes the
  // rest through, which needs its width.
  if (ShapedType::isDynamic(q[3]) || ShapedType::isDynamic(k[3]) ||
      ShapedType::isDynamic(v[3]))
    return op.emitOpError("head dims must be static");
  if (staticMismatch(q[3], k[3]))
    return op.emitOpError("query head_dim (")
           << q[3] << ") differs from key head_dim (" << k[3] << ")";
  if (staticMismatch(k[1], v[1]) || staticMismatch(k[2], v[2]))
    return op.emitOpError("key and value must have the same heads and sequence "
                          "length");
  if (q[1] == 0 || k[1] == 0)
    return op.emitOpError("needs at least one query and one key/value head");
  // A query/key head dim of 0 makes every logit 0 and a value head dim of 0
  // an empty result: no model has them, and the tiled lowerings divide by
  // the head dim, so they are rejected rather than given a meaning.
  if (q[3] == 0 || v[3] == 0)
    return op.emitOpError("head dims must be > 0, got query/key head_dim ")
           << q[3] << " and value head_dim " << v[3];
  if (q[1] % k[1] != 0)
    return op.emitOpError("query heads (")
           << q[1] << ") must be a multiple of key/value heads (" << k[1]
           << ") for GQA";
  if (staticMismatch(out[1], q[1]) || staticMismatch(out[2], q[2]) ||
      staticMismatch(out[3], v[3]))
    return op.emitOpError("result must be [B, Hq, Sq, Dv] = [")
           << q[0] << ", " << q[1] << ", " << q[2] << ", " << v[3] << "], got "
           << outType;
  return success();
}

LogicalResult AttentionOp::verify() {
  if (failed(verifyAttentionShapes(*this)))
    return failure();
  ArrayRef<int64_t> q = getQuery().getType().getShape(),
                    k = getKey().getType().getShape();
  if (std::optional<APFloat> scale = getScale()) {
    double s = scale->convertToDouble();
    if (!std::isfinite(s) || s <= 0.0)
      return emitOpError("scale must be finite and > 0, got ") << s;
  }

  if (std::optional<int64_t> chunk = getChunkSize(); chunk && *chunk <= 0)
    return emitOpError("chunk_size must be > 0, got ") << *chunk;
  if (std::optional<APFloat> cap = getSoftcap()) {
    double c = cap->convertToDouble();
    if (!std::isfinite(c) || c <= 0.0)
      return emitOpError("softcap must be finite and > 0, got ") << c;
  }

  if (RopeAttr rope = getRopeAttr()) {
    if (!getInvFreq())
      return emitOpError("rope configuration needs an inv_freq operand");
    if (failed(verifyRotaryDim(*this, rope.getRotaryDim(), q[3])) ||
        failed(verifyInvFreq(*this, getInvFreq(), rope.getRotaryDim())))
      return failure();
  } else if (getInvFreq() || getAttentionFactor()) {
    return emitOpError("inv_freq and attention_factor need a rope "
                       "configuration");
  }

  if ((getAlibiAttr() || getAlibiSlopes()) &&
      failed(verifyAlibiHeads(*this, getAlibiAttr(), getAlibiSlopes(), q[1])))
    return failure();

  if (getQPositions() && failed(verifyPositions(*this, "q_positions",
                                                getQPositions(), q[0], q[2])))
    return failure();
  if (getKPositions() && failed(verifyPositions(*this, "k_positions",
                                                getKPositions(), k[0], k[2])))
    return failure();
  // One sink logit per query head; the lowering reads sinks[h] unchecked.
  if (Value sinks = getSinks()) {
    auto type = cast<RankedTensorType>(sinks.getType());
    if (type.isDynamicDim(0) || type.getDimSize(0) != q[1])
      return emitOpError("sinks must have one entry per query head (")
             << q[1] << "), got " << type;
  }
  return success();
}
