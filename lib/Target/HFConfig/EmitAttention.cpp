//===- EmitAttention.cpp - AttentionConfig -> posenc IR -------------------===//
//
// Builds the imported module: a `posenc.hf_config` summary of the source
// model and `func.func @attention(q, k, v, positions)` (one function per
// kind of layer, named after it, when the layers differ), whose body is
// `posenc.rope_frequencies` + `posenc.attention` (RoPE) or `posenc.attention`
// with ALiBi slopes, with the kind's window, chunks, soft-cap and query
// temperature.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
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
  if (cfg.softcap)
    add("attn_logit_softcapping", b.getF64FloatAttr(*cfg.softcap));
  if (cfg.kinds.size() > 1 && cfg.numLayers)
    add("num_hidden_layers", b.getI64IntegerAttr(*cfg.numLayers));
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

/// Llama 4's weightless `Llama4TextL2Norm` of each head vector, `x *
/// rsqrt(mean(x^2) + eps)` in f32, rounded to x's type. transformers applies
/// it after RoPE; a rotation keeps a vector's norm, so it is applied to the
/// function's q and k before posenc.attention rotates them.
static Value emitL2Norm(OpBuilder &b, Location loc, Value x, double eps) {
  auto type = cast<RankedTensorType>(x.getType());
  Type f32 = b.getF32Type();
  MLIRContext *ctx = b.getContext();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  SmallVector<OpFoldResult> rowSizes(sizes.begin(), sizes.end() - 1);
  AffineMap id = b.getMultiDimIdentityMap(4);
  AffineMap rows =
      AffineMap::get(4, 0,
                     {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                      getAffineDimExpr(2, ctx)},
                     ctx);
  auto widen = [&](OpBuilder &nb, Location nloc, Value v) -> Value {
    return v.getType() == f32
               ? v
               : arith::ExtFOp::create(nb, nloc, f32, v).getResult();
  };
  auto par = utils::IteratorType::parallel;
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value sums = linalg::FillOp::create(
                   b, loc, zero,
                   ValueRange{tensor::EmptyOp::create(b, loc, rowSizes, f32)})
                   .getResult(0);
  sums = linalg::GenericOp::create(
             b, loc, TypeRange{sums.getType()}, ValueRange{x}, ValueRange{sums},
             ArrayRef<AffineMap>{id, rows},
             ArrayRef<utils::IteratorType>{par, par, par,
                                           utils::IteratorType::reduction},
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value v = widen(nb, nloc, args[0]);
               Value sq = arith::MulFOp::create(nb, nloc, v, v);
               linalg::YieldOp::create(
                   nb, nloc,
                   ValueRange{arith::AddFOp::create(nb, nloc, args[1], sq)});
             })
             .getResult(0);
  float inverseDim = 1.0f / static_cast<float>(type.getShape().back());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{x, sums},
             ValueRange{
                 tensor::EmptyOp::create(b, loc, sizes, type.getElementType())},
             ArrayRef<AffineMap>{id, rows, id},
             ArrayRef<utils::IteratorType>{par, par, par, par},
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value v = widen(nb, nloc, args[0]);
               Value mean = arith::MulFOp::create(
                   nb, nloc, args[1],
                   arith::ConstantOp::create(nb, nloc,
                                             nb.getF32FloatAttr(inverseDim)));
               Value scale = math::RsqrtOp::create(
                   nb, nloc,
                   arith::AddFOp::create(
                       nb, nloc, mean,
                       arith::ConstantOp::create(
                           nb, nloc,
                           nb.getF32FloatAttr(static_cast<float>(eps)))));
               Value out = arith::MulFOp::create(nb, nloc, v, scale);
               if (args[2].getType() != f32)
                 out =
                     arith::TruncFOp::create(nb, nloc, args[2].getType(), out);
               linalg::YieldOp::create(nb, nloc, ValueRange{out});
             })
      .getResult(0);
}

/// The positional terms of a layer kind: window, chunks, the model's
/// soft-cap, query temperature.
static void setLayerTerms(OpBuilder &b, AttentionOp op,
                          const AttentionConfig &cfg, const LayerKind &kind) {
  MLIRContext *ctx = b.getContext();
  if (kind.windowLeft)
    op.setWindowAttr(WindowAttr::get(ctx, *kind.windowLeft, std::nullopt));
  if (kind.chunk)
    op.setChunkSizeAttr(b.getI64IntegerAttr(*kind.chunk));
  if (cfg.softcap)
    op.setSoftcapAttr(b.getF64FloatAttr(*cfg.softcap));
  if (kind.temperature)
    op.setQueryTemperatureAttr(QueryTemperatureAttr::get(
        ctx, Real(kind.temperature->first), Real(kind.temperature->second)));
}

static Value emitAlibiAttention(OpBuilder &b, Location loc,
                                const AttentionConfig &cfg,
                                const AttentionSignature &sig) {
  return AttentionOp::create(
      b, loc, sig.outType, sig.q, sig.k, sig.v, /*inv_freq=*/Value(),
      /*attention_factor=*/Value(), /*alibi_slopes=*/Value(), sig.positions,
      sig.positions, sig.sinks, /*key_lengths=*/Value(), /*key_mask=*/Value(),
      sig.scale,
      /*causal=*/true, /*rope_only_positions=*/false,
      /*window=*/nullptr, /*chunk_size=*/nullptr, /*softcap=*/nullptr,
      /*query_temperature=*/nullptr, /*rope=*/RopeAttr(), cfg.alibi,
      AlibiForm::key_linear);
}

/// A layer kind without RoPE (Llama 4's NoPE layers).
static Value emitNoPEAttention(OpBuilder &b, Location loc,
                               const AttentionSignature &sig) {
  return AttentionOp::create(
      b, loc, sig.outType, sig.q, sig.k, sig.v, /*inv_freq=*/Value(),
      /*attention_factor=*/Value(), /*alibi_slopes=*/Value(), sig.positions,
      sig.positions, sig.sinks, /*key_lengths=*/Value(), /*key_mask=*/Value(),
      sig.scale,
      /*causal=*/true, /*rope_only_positions=*/false,
      /*window=*/nullptr, /*chunk_size=*/nullptr, /*softcap=*/nullptr,
      /*query_temperature=*/nullptr, /*rope=*/RopeAttr(), /*alibi=*/nullptr);
}

static Value emitRopeAttention(OpBuilder &b, Location loc,
                               const HFImportOptions &opts,
                               const AttentionConfig &cfg,
                               const LayerKind &kind,
                               const AttentionSignature &sig) {
  Value q = sig.q, k = sig.k;
  if (cfg.qkNormEps) {
    q = emitL2Norm(b, loc, q, *cfg.qkNormEps);
    k = emitL2Norm(b, loc, k, *cfg.qkNormEps);
  }
  Value seqLen;
  // Gemma 3's local layers: their own base, default frequencies.
  RopeScalingAttrInterface scaling = kind.localBase ? nullptr : cfg.scaling;
  double base = kind.localBase.value_or(cfg.base);
  if (scaling && scaling.needsSeqLen()) {
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
      b.getF64FloatAttr(base), scaling, seqLen);
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
      sig.positions, sig.sinks, /*key_lengths=*/Value(), /*key_mask=*/Value(),
      sig.scale,
      /*causal=*/true, /*rope_only_positions=*/false,
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
  // One function per kind of layer, named after it, or @attention when every
  // layer is alike.
  SmallVector<LayerKind> kinds(cfg.kinds);
  if (kinds.empty())
    kinds.emplace_back();
  for (const LayerKind &kind : kinds) {
    b.setInsertionPointToEnd(module->getBody());
    StringRef name = kinds.size() == 1 ? StringRef("attention") : kind.name;
    auto func =
        func::FuncOp::create(b, loc, name, b.getFunctionType(args, {outType}));
    if (kinds.size() > 1) {
      func->setAttr("posenc.layer_kind", b.getStringAttr(kind.name));
      func->setAttr("posenc.layers", b.getDenseI64ArrayAttr(kind.layers));
    }
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
    Value result = cfg.alibi   ? emitAlibiAttention(b, loc, cfg, sig)
                   : kind.rope ? emitRopeAttention(b, loc, opts, cfg, kind, sig)
                               : emitNoPEAttention(b, loc, sig);
    setLayerTerms(b, cast<AttentionOp>(result.getDefiningOp()), cfg, kind);
    func::ReturnOp::create(b, loc, result);
  }
  return module;
}
