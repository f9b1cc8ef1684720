//===- EmitAttention.cpp - AttentionConfig -> posenc IR -------------------===//
//
// Builds the imported module: a `posenc.hf_config` summary of the source
// model and `func.func @attention(q, k, v, positions)`, whose body is
// `posenc.rope_frequencies` + `posenc.attention` (RoPE) or `posenc.attention`
// with ALiBi slopes.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::hf;

/// Summary of the source model, attached to the module as
/// `posenc.hf_config`.
static DictionaryAttr summarize(Builder &b, const AttentionConfig &cfg) {
  SmallVector<NamedAttribute> entries;
  auto add = [&](StringRef name, Attribute value) {
    entries.push_back(b.getNamedAttr(name, value));
  };
  if (!cfg.modelType.empty())
    add("model_type", b.getStringAttr(cfg.modelType));
  if (!cfg.architecture.empty())
    add("architecture", b.getStringAttr(cfg.architecture));
  add("num_attention_heads", b.getI64IntegerAttr(cfg.numHeads));
  add("num_key_value_heads", b.getI64IntegerAttr(cfg.numKvHeads));
  add("head_dim", b.getI64IntegerAttr(cfg.qkHeadDim));
  if (cfg.vHeadDim != cfg.qkHeadDim)
    add("v_head_dim", b.getI64IntegerAttr(cfg.vHeadDim));
  if (cfg.alibi) {
    add("position_encoding", b.getStringAttr("alibi"));
  } else {
    add("position_encoding", b.getStringAttr("rope"));
    add("rope_type", b.getStringAttr(cfg.ropeType));
    add("rope_theta", b.getF64FloatAttr(cfg.base));
    add("rotary_dim", b.getI64IntegerAttr(cfg.rotaryDim));
  }
  if (cfg.sinks)
    add("attention_sinks", b.getBoolAttr(true));
  return b.getDictionaryAttr(entries);
}

/// `[x[..., split:] | x[..., :split]]` on the last axis of a rank-4 tensor.
static Value moveTailToFront(OpBuilder &b, Location loc, Value x,
                             int64_t split) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t width = type.getShape().back();
  SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  offsets[3] = b.getIndexAttr(split);
  sizes[3] = b.getIndexAttr(width - split);
  Value tail =
      tensor::ExtractSliceOp::create(b, loc, x, offsets, sizes, strides);
  offsets[3] = b.getIndexAttr(0);
  sizes[3] = b.getIndexAttr(split);
  Value head =
      tensor::ExtractSliceOp::create(b, loc, x, offsets, sizes, strides);
  return tensor::ConcatOp::create(b, loc, /*dim=*/3, ValueRange{tail, head});
}

namespace {
/// The arguments of @attention and its result type.
struct AttentionSignature {
  Value q, k, v, positions;
  /// The `[Hq]` sink logits (gpt-oss), or null.
  Value sinks;
  RankedTensorType outType;
  FloatAttr scale;
};
} // namespace

static Value emitAlibiAttention(OpBuilder &b, Location loc,
                                const AttentionConfig &cfg,
                                const AttentionSignature &sig) {
  return AttentionOp::create(
      b, loc, sig.outType, sig.q, sig.k, sig.v, /*inv_freq=*/Value(),
      /*attention_factor=*/Value(), /*alibi_slopes=*/Value(), sig.positions,
      sig.positions, sig.sinks, sig.scale, /*causal=*/true,
      /*window=*/nullptr, /*chunk_size=*/nullptr, /*softcap=*/nullptr,
      /*query_temperature=*/nullptr, /*rope=*/RopeAttr(), cfg.alibi,
      AlibiForm::key_linear);
}

static Value emitRopeAttention(OpBuilder &b, Location loc,
                               const HFImportOptions &opts,
                               const AttentionConfig &cfg,
                               const AttentionSignature &sig) {
  Value q = sig.q, k = sig.k;
  Value seqLen;
  if (cfg.scaling && cfg.scaling.needsSeqLen()) {
    // transformers feeds max(position_ids) + 1; for a prefill from position
    // 0 that is the sequence length.
    if (opts.seqLen)
      seqLen = arith::ConstantIndexOp::create(b, loc, *opts.seqLen);
    else
      seqLen = tensor::DimOp::create(b, loc, q, 2);
  }
  Type freqElt = opts.f64Frequencies ? Type(b.getF64Type()) : b.getF32Type();
  auto freqs = RopeFrequenciesOp::create(
      b, loc, RankedTensorType::get({cfg.rotaryDim / 2}, freqElt),
      b.getF32Type(), b.getI64IntegerAttr(cfg.rotaryDim),
      b.getF64FloatAttr(cfg.base), cfg.scaling, seqLen);
  // posenc.attention rotates the first rotary_dim channels. DeepSeek's rope
  // sub-head sits after the nope part; q.k is invariant under one channel
  // permutation applied to both q and k, so rotate the rope part to the
  // front of both.
  if (cfg.rotaryOffset > 0) {
    q = moveTailToFront(b, loc, q, cfg.rotaryOffset);
    k = moveTailToFront(b, loc, k, cfg.rotaryOffset);
  }
  return AttentionOp::create(
      b, loc, sig.outType, q, k, sig.v, freqs.getInvFreq(),
      freqs.getAttentionFactor(), /*alibi_slopes=*/Value(), sig.positions,
      sig.positions, sig.sinks, sig.scale, /*causal=*/true,
      /*window=*/nullptr, /*chunk_size=*/nullptr, /*softcap=*/nullptr,
      /*query_temperature=*/nullptr,
      RopeAttr::get(b.getContext(), cfg.layout, cfg.rotaryDim),
      /*alibi=*/nullptr);
}

OwningOpRef<ModuleOp>
mlir::posenc::hf::emitAttentionModule(MLIRContext *ctx, Location loc,
                                      const HFImportOptions &opts,
                                      const AttentionConfig &cfg) {
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  (*module)->setAttr("posenc.hf_config", summarize(b, cfg));
  b.setInsertionPointToEnd(module->getBody());

  int64_t batch = opts.batch;
  int64_t seq = opts.seqLen ? *opts.seqLen : ShapedType::kDynamic;
  Type elt = cfg.elementType;
  auto qType =
      RankedTensorType::get({batch, cfg.numHeads, seq, cfg.qkHeadDim}, elt);
  auto kType =
      RankedTensorType::get({batch, cfg.numKvHeads, seq, cfg.qkHeadDim}, elt);
  auto vType =
      RankedTensorType::get({batch, cfg.numKvHeads, seq, cfg.vHeadDim}, elt);
  auto posType = RankedTensorType::get({batch, seq}, b.getI64Type());
  auto outType =
      RankedTensorType::get({batch, cfg.numHeads, seq, cfg.vHeadDim}, elt);

  SmallVector<Type> args{qType, kType, vType, posType};
  if (cfg.sinks)
    args.push_back(RankedTensorType::get({cfg.numHeads}, b.getF32Type()));
  auto func = func::FuncOp::create(b, loc, "attention",
                                   b.getFunctionType(args, {outType}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  AttentionSignature sig;
  sig.q = entry->getArgument(0);
  sig.k = entry->getArgument(1);
  sig.v = entry->getArgument(2);
  sig.positions = entry->getArgument(3);
  if (cfg.sinks)
    sig.sinks = entry->getArgument(4);
  sig.outType = outType;
  if (cfg.scale)
    sig.scale = b.getF64FloatAttr(*cfg.scale);
  Value result = cfg.alibi ? emitAlibiAttention(b, loc, cfg, sig)
                           : emitRopeAttention(b, loc, opts, cfg, sig);
  func::ReturnOp::create(b, loc, result);
  return module;
}
