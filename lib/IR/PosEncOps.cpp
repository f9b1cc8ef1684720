//===- PosEncOps.cpp - posenc operations ----------------------------------===//

#include "posenc/IR/PosEncOps.h"
#include "OpVerification.h"
#include "posenc/IR/PosEncNumerics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::detail;

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
