#!/usr/bin/env python3
"""Export tiny random-weight Hugging Face models to linalg-on-tensors MLIR.

Real inputs for posenc's raising pass (issue #13, item 3): each model is built
from a config object (no hub access), re-initialized from a seeded generator,
wrapped so that every parameter tensor is a function argument, and exported
with torch-mlir's FX importer (`fx.export_and_import(...,
output_type="linalg-on-tensors")`).  For every model this writes, under
test/Raising/Models/<name>/:

  model.mlir   the exported module (one public function, named <name>)
  argN.npy     the N-th function argument (arg0 = input_ids, i64 [1, 16];
               then the parameters in `named_parameters()` order)
  out0.npy     torch's fp32 output of the same wrapper on those arguments

and test/Raising/Models/MANIFEST.md (configs, argument order, versions).
A module with ops of dialects posenc does not register (tm_tensor) is
re-printed by posenc-opt so that only those ops are in generic form: posenc
tools read it with --allow-unregistered-dialect.
Regenerating gives byte-identical files (seeded, single-threaded torch).

    python3 scripts/export_hf_attention.py            # all models
    python3 scripts/export_hf_attention.py gpt2 mpt    # some of them

Requirements: requirements-hf.txt (torch, transformers),
requirements-raising.txt (torch-mlir) and a built posenc-opt
(build/bin/posenc-opt, or --posenc-opt PATH).
"""

import argparse
import dataclasses
import json
import os
import subprocess
import sys
from typing import Callable

import numpy as np
import torch
import torch.nn as nn

import transformers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "test", "Raising", "Models")
SEQ = 16
VOCAB = 128
COMMAND = "python3 scripts/export_hf_attention.py"


# ---------------------------------------------------------------------------
# Wrappers
# ---------------------------------------------------------------------------


def _keep_buffers_as_constants(model: nn.Module) -> None:
    # torch-mlir's frozen import fails with "Could not find state mapping for
    # buffer" on non-persistent buffers (inv_freq, GPT-J's embed_positions...);
    # making them persistent turns them into constants of the module.
    for mod in model.modules():
        mod._non_persistent_buffers_set.clear()


class WholeModel(nn.Module):
    """forward(input_ids, *params) -> last_hidden_state of a HF XxxModel.

    HF's own forward builds the positions (arange), cos/sin, the causal mask
    and the ALiBi bias.  `attention_mask = ones_like(input_ids)` is passed, as
    a tokenizer / generate() does for one unpadded sequence (with
    attention_mask=None and no cache, transformers 5 runs its packed-sequence
    detection, a cumsum of position-id differences: see MANIFEST.md).
    """

    def __init__(self, model: nn.Module, names, pass_attention_mask=True):
        super().__init__()
        self.model = model
        self.names = list(names)
        self.pass_attention_mask = pass_attention_mask

    def forward(self, input_ids, *params):
        kwargs = {"use_cache": False}
        if self.pass_attention_mask:
            kwargs["attention_mask"] = torch.ones_like(input_ids)
        out = torch.func.functional_call(
            self.model, dict(zip(self.names, params)), (input_ids,), kwargs
        )
        return out[0]


class PaddedModel(nn.Module):
    """forward(input_ids, attention_mask[, position_ids], *params) -> the
    last_hidden_state of a HF XxxModel on a padded batch.

    What a serving stack hands a model: a batch of sequences of different
    lengths, left-padded, with the tokenizer's 0/1 `attention_mask` and
    explicit position ids (here with gaps, as after dropped or packed tokens),
    all function arguments. HF builds the 4-D mask from `attention_mask`
    (padding and causal combined: boolean tensors, i1 in the export).
    """

    def __init__(self, model: nn.Module, names, position_ids: bool):
        super().__init__()
        self.model = model
        self.names = list(names)
        self.position_ids = position_ids

    def forward(self, input_ids, attention_mask, *rest):
        kwargs = {"use_cache": False, "attention_mask": attention_mask}
        params = rest
        if self.position_ids:
            kwargs["position_ids"], params = rest[0], rest[1:]
        out = torch.func.functional_call(
            self.model, dict(zip(self.names, params)), (input_ids,), kwargs
        )
        return out[0]


class ZeroMoE(nn.Module):
    """Stands in for GptOssMLP: returns (zeros, None); no parameters."""

    def forward(self, hidden_states):
        return torch.zeros_like(hidden_states), None


def drop_moe(model: nn.Module) -> None:
    for layer in model.layers:
        layer.mlp = ZeroMoE()


class TabledFreqsCis(nn.Module):
    """Stands in for Llama4TextRotaryEmbedding: the same complex freqs_cis,
    read from a table instead of `torch.polar` per call, which torch-mlir
    cannot lower (complex results). Exact for the export's positions
    (arange(SEQ)): the table holds the values HF's forward computes for them."""

    def __init__(self, rotary: nn.Module):
        super().__init__()
        pos = torch.arange(SEQ, dtype=torch.int64)[None]
        with torch.no_grad():
            self.register_buffer("table", rotary(torch.zeros(1), pos)[0].clone())

    def forward(self, x, position_ids):
        assert position_ids.shape[-1] == SEQ
        return self.table[None]


def table_freqs_cis(model: nn.Module) -> None:
    model.rotary_emb = TabledFreqsCis(model.rotary_emb)


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Spec:
    name: str
    title: str
    config_cls: str
    model_cls: str
    config: dict
    seed: int
    encoding: str
    notes: str = ""
    # config kwargs that are not config fields (attn_implementation)
    extra: dict = dataclasses.field(default_factory=dict)
    pass_attention_mask: bool = True
    # whether the model's forward takes position_ids (the padded variant
    # passes them)
    position_ids: bool = True
    # applied to the built model before re-initialization (e.g. drop the MoE)
    patch: Callable[[nn.Module], None] | None = None
    # drop torch.export's aten._assert_tensor_metadata nodes, which torch-mlir
    # cannot canonicalize on complex tensors (`.to(device)` of freqs_cis)
    strip_metadata_asserts: bool = False


COMMON_LLAMA = dict(
    vocab_size=VOCAB,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=1,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=16,
    use_cache=False,
)

COMMON_GPT_OSS = dict(
    vocab_size=VOCAB,
    hidden_size=64,
    intermediate_size=64,
    num_hidden_layers=1,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=16,
    num_local_experts=4,
    num_experts_per_tok=2,
    layer_types=["full_attention"],
    max_position_embeddings=131072,
    rope_parameters=dict(
        rope_type="yarn",
        rope_theta=150000.0,
        factor=32.0,
        beta_fast=32.0,
        beta_slow=1.0,
        truncate=False,
        original_max_position_embeddings=4096,
    ),
    use_cache=False,
)

SPECS = [
    Spec(
        name="llama3_eager",
        title="Llama-3.1 style, llama3 RoPE scaling, eager attention",
        config_cls="LlamaConfig",
        model_cls="LlamaModel",
        config=dict(
            COMMON_LLAMA,
            max_position_embeddings=131072,
            rope_parameters=dict(
                rope_type="llama3",
                rope_theta=500000.0,
                factor=8.0,
                low_freq_factor=1.0,
                high_freq_factor=4.0,
                original_max_position_embeddings=8192,
            ),
        ),
        extra=dict(attn_implementation="eager"),
        seed=1,
        encoding="RoPE half-split, llama3 scaling x8 (Llama-3.1 values), GQA 4/2",
    ),
    Spec(
        name="llama3_sdpa",
        title="Llama-3.1 style, llama3 RoPE scaling, SDPA attention",
        config_cls="LlamaConfig",
        model_cls="LlamaModel",
        config=dict(
            COMMON_LLAMA,
            max_position_embeddings=131072,
            rope_parameters=dict(
                rope_type="llama3",
                rope_theta=500000.0,
                factor=8.0,
                low_freq_factor=1.0,
                high_freq_factor=4.0,
                original_max_position_embeddings=8192,
            ),
        ),
        extra=dict(attn_implementation="sdpa"),
        seed=1,
        encoding="RoPE half-split, llama3 scaling x8, GQA 4/2, "
        "torch.nn.functional.scaled_dot_product_attention",
    ),
    Spec(
        name="qwen2_yarn",
        title="Qwen2.5 style, YaRN RoPE scaling x4",
        config_cls="Qwen2Config",
        model_cls="Qwen2Model",
        config=dict(
            COMMON_LLAMA,
            max_position_embeddings=131072,
            rope_parameters=dict(
                rope_type="yarn",
                rope_theta=1000000.0,
                factor=4.0,
                original_max_position_embeddings=32768,
            ),
        ),
        extra=dict(attn_implementation="eager"),
        seed=2,
        encoding="RoPE half-split, YaRN x4 (attention factor 0.1 ln 4 + 1), "
        "GQA 4/2, q/k/v biases",
    ),
    Spec(
        name="gptj",
        title="GPT-J, interleaved rotary on part of the head",
        config_cls="GPTJConfig",
        model_cls="GPTJModel",
        config=dict(
            vocab_size=VOCAB,
            n_positions=32,
            n_embd=64,
            n_layer=1,
            n_head=4,
            rotary_dim=8,
            n_inner=128,
            bos_token_id=None,
            eos_token_id=None,
            use_cache=False,
        ),
        extra=dict(attn_implementation="eager"),
        seed=3,
        encoding="RoPE interleaved (rotate_every_two), rotary_dim 8 of head_dim 16, "
        "sin/cos gathered from a [n_positions, rotary_dim] table, MHA 4",
    ),
    Spec(
        name="phi3_partial",
        title="Phi-3 style, partial rotary (factor 0.5)",
        config_cls="Phi3Config",
        model_cls="Phi3Model",
        config=dict(
            vocab_size=VOCAB,
            hidden_size=64,
            intermediate_size=128,
            num_hidden_layers=1,
            num_attention_heads=4,
            num_key_value_heads=2,
            max_position_embeddings=4096,
            original_max_position_embeddings=4096,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0,
                                 partial_rotary_factor=0.5),
            pad_token_id=0,
            bos_token_id=1,
            eos_token_id=2,
            use_cache=False,
        ),
        extra=dict(attn_implementation="eager"),
        seed=4,
        encoding="RoPE half-split on the first 8 of 16 head dims (theta 10000), "
        "fused qkv_proj, GQA 4/2",
    ),
    Spec(
        name="bloom",
        title="BLOOM, ALiBi",
        config_cls="BloomConfig",
        model_cls="BloomModel",
        config=dict(
            vocab_size=VOCAB,
            hidden_size=64,
            n_layer=1,
            n_head=4,
            use_cache=False,
        ),
        extra=dict(attn_implementation="eager"),
        position_ids=False,
        seed=5,
        encoding="ALiBi (BLOOM form: slopes x (cumsum(attention_mask)-1), added with "
        "baddbmm), MHA 4",
        notes="BloomModel always builds ALiBi from `attention_mask.cumsum(-1)` (it makes an "
        "all-ones mask when none is given), which torch-mlir lowers to `tm_tensor.scan` "
        "(generic form, see above); here the mask is a constant, so the scan's input is a "
        "constant too, and posenc-raise-alibi evaluates it and erases the scan.",
    ),
    Spec(
        name="mpt",
        title="MPT, ALiBi",
        config_cls="MptConfig",
        model_cls="MptModel",
        config=dict(
            vocab_size=VOCAB,
            d_model=64,
            n_heads=4,
            n_layers=1,
            expansion_ratio=2,
            max_seq_len=32,
            use_cache=False,
        ),
        extra=dict(attn_implementation="eager"),
        position_ids=False,
        seed=6,
        encoding="ALiBi (MPT form: slopes x arange(1-max_seq_len, 1), sliced to the "
        "last 16 keys), MHA 4",
    ),
    Spec(
        name="gpt2",
        title="GPT-2, learned absolute position embeddings",
        config_cls="GPT2Config",
        model_cls="GPT2Model",
        config=dict(
            vocab_size=VOCAB,
            n_positions=32,
            n_embd=64,
            n_layer=1,
            n_head=4,
            n_inner=128,
            bos_token_id=None,
            eos_token_id=None,
            resid_pdrop=0.0,
            embd_pdrop=0.0,
            attn_pdrop=0.0,
            use_cache=False,
        ),
        extra=dict(attn_implementation="eager"),
        seed=7,
        encoding="learned absolute: wte[input_ids] + wpe[arange(16)], MHA 4",
    ),
    Spec(
        name="gpt_oss",
        title="gpt-oss style, YaRN x32 (truncate=False), attention sinks, MoE",
        config_cls="GptOssConfig",
        model_cls="GptOssModel",
        config=COMMON_GPT_OSS,
        extra=dict(attn_implementation="eager", experts_implementation="batched_mm"),
        seed=8,
        encoding="RoPE half-split (chunk form: x1 cos - x2 sin, x2 cos + x1 sin, half-width cos/sin), "
        "YaRN x32 truncate=False (gpt-oss values), GQA 4/2, "
        "per-head attention sinks, 4-expert top-2 MoE",
        notes="`experts_implementation=\"batched_mm\"`: the default (`grouped_mm`) uses "
        "`aten.histc`, which torch-mlir cannot lower. The router's top-k becomes "
        "`tm_tensor.sort` (generic form, see above; posenc-run cannot compile it: see "
        "gpt_oss_nomoe for a form it can).",
    ),
    Spec(
        name="gpt_oss_nomoe",
        title="gpt-oss style without its MoE (YaRN x32, truncate=False, attention sinks)",
        config_cls="GptOssConfig",
        model_cls="GptOssModel",
        config=COMMON_GPT_OSS,
        extra=dict(attn_implementation="eager", experts_implementation="batched_mm"),
        seed=8,
        encoding="RoPE half-split (chunk form: x1 cos - x2 sin, x2 cos + x1 sin, half-width cos/sin), "
        "YaRN x32 truncate=False (gpt-oss values), GQA 4/2, "
        "per-head attention sinks",
        notes="Fallback form: the whole GptOssModel, but `layers[0].mlp` (the MoE) is "
        "replaced by a function returning zeros (no parameters), because the MoE's "
        "top-k routing exports as `tm_tensor.sort`, which posenc-run cannot compile. "
        "Embedding, RoPE, mask, sinks attention and norms are HF's own code.",
        patch=drop_moe,
    ),
    # Local and capped attention (issue 23): windows shorter than SEQ so
    # that the masks differ from causal ones.
    Spec(
        name="mistral_window",
        title="Mistral style, sliding window 6 on every layer",
        config_cls="MistralConfig",
        model_cls="MistralModel",
        config=dict(COMMON_LLAMA, sliding_window=6, rope_theta=10000.0),
        extra=dict(attn_implementation="eager"),
        seed=9,
        encoding="RoPE half-split (rotate_half), GQA 4/2, causal sliding window "
        "(HF sliding_window 6: posenc window(<left = 5>))",
    ),
    Spec(
        name="qwen2_window",
        title="Qwen2 style, use_sliding_window with max_window_layers 0",
        config_cls="Qwen2Config",
        model_cls="Qwen2Model",
        config=dict(COMMON_LLAMA, sliding_window=5, use_sliding_window=True,
                    max_window_layers=0, rope_theta=1000000.0),
        extra=dict(attn_implementation="eager"),
        seed=10,
        encoding="RoPE half-split, GQA 4/2, q/k/v biases, causal sliding window "
        "(sliding_window 5 from layer 0: window(<left = 4>))",
    ),
    Spec(
        name="gemma2_capped",
        title="Gemma 2 style, sliding layer with logit soft-capping",
        config_cls="Gemma2Config",
        model_cls="Gemma2Model",
        config=dict(COMMON_LLAMA, sliding_window=6, layer_types=["sliding_attention"],
                    attn_logit_softcapping=1.0, final_logit_softcapping=None,
                    query_pre_attn_scalar=24, rope_theta=10000.0),
        extra=dict(attn_implementation="eager"),
        seed=11,
        encoding="RoPE half-split, GQA 4/2, scale 24^-0.5 (query_pre_attn_scalar), "
        "logits soft-capped at 1.0 (softcap(1.0)), sliding window 6 (window(<left = 5>))",
    ),
    Spec(
        name="gemma3_local_global",
        title="Gemma 3 style, a local and a global layer with their own RoPE tables",
        config_cls="Gemma3TextConfig",
        model_cls="Gemma3TextModel",
        config=dict(COMMON_LLAMA, num_hidden_layers=2, sliding_window=6,
                    layer_types=["sliding_attention", "full_attention"],
                    rope_parameters={
                        "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                        "full_attention": {"rope_type": "linear", "factor": 8.0,
                                           "rope_theta": 1000000.0}},
                    query_pre_attn_scalar=24),
        extra=dict(attn_implementation="eager"),
        seed=15,
        encoding="layer 0: RoPE base 1e4 (rope_local_base_freq), sliding window 6 "
        "(window(<left = 5>)); layer 1: RoPE base 1e6 with linear scaling 8, full causal; "
        "both half-split, GQA 4/2, scale 24^-0.5, q/k RMS-normed before RoPE",
    ),
    Spec(
        name="gpt_oss_sliding",
        title="gpt-oss style sliding layer without its MoE (window 6, sinks, YaRN)",
        config_cls="GptOssConfig",
        model_cls="GptOssModel",
        config=dict(COMMON_GPT_OSS, sliding_window=6, layer_types=["sliding_attention"]),
        extra=dict(attn_implementation="eager", experts_implementation="batched_mm"),
        seed=12,
        encoding="as gpt_oss_nomoe, on a sliding_attention layer (window 6: "
        "window(<left = 5>)) with sinks",
        notes="The MoE is replaced by zeros as in gpt_oss_nomoe.",
        patch=drop_moe,
    ),
    Spec(
        name="llama4_chunked",
        title="Llama 4 text style, a chunked RoPE layer",
        config_cls="Llama4TextConfig",
        model_cls="Llama4TextModel",
        config=dict(COMMON_LLAMA, intermediate_size_mlp=128, attention_chunk_size=4,
                    moe_layers=[], no_rope_layers=[1], rope_theta=500000.0),
        extra=dict(attn_implementation="eager"),
        seed=16,
        encoding="RoPE interleaved (complex form, view_as_complex), GQA 4/2, causal "
        "within chunks of 4 (chunk_size(4)); HF's chunked mask counts the left padding "
        "of attention_mask with a cumsum (tm_tensor.scan)",
        notes="`moe_layers=[]`: a dense MLP. The rotary embedding is replaced by a table "
        "of the complex freqs_cis it computes for positions 0..15 (TabledFreqsCis): HF "
        "computes it with `torch.polar` per call, which torch-mlir cannot lower (\"Only "
        "integer/float dtype supported\"), and torch.export's `_assert_tensor_metadata` "
        "nodes (of freqs_cis' `.to(device)`) are dropped: torch-mlir cannot canonicalize "
        "them on complex tensors.",
        patch=table_freqs_cis,
        strip_metadata_asserts=True,
    ),
    Spec(
        name="llama4_nope",
        title="Llama 4 text style, a NoPE layer with attention temperature tuning",
        config_cls="Llama4TextConfig",
        model_cls="Llama4TextModel",
        config=dict(COMMON_LLAMA, intermediate_size_mlp=128, attention_chunk_size=4,
                    moe_layers=[], no_rope_layers=[0], attn_temperature_tuning=True,
                    floor_scale=4, attn_scale=0.5, rope_theta=500000.0),
        extra=dict(attn_implementation="eager"),
        seed=14,
        encoding="no RoPE (NoPE layer: full causal attention, no chunks); q scaled by "
        "log(floor((pos + 1) / 4) + 1) * 0.5 + 1 (query_temperature(<floor_scale = 4.0, "
        "attn_scale = 0.5>)), GQA 4/2",
        notes="`moe_layers=[]`: a dense MLP (Llama4TextMLP) instead of the MoE. "
        "llama4_chunked has the RoPE layer kind.",
    ),
]


# ---------------------------------------------------------------------------
# Building, export, files
# ---------------------------------------------------------------------------


def reinit_(model: nn.Module, gen: torch.Generator) -> None:
    """Seeded re-initialization giving O(1) activations and attention logits.

    HF's _init_weights (std 0.02) makes attention nearly uniform, which would
    hide positional-encoding errors; here matrices get N(0, 1/fan_in), norm
    scales 1 + N(0, 0.1^2), biases and attention sinks N(0, 0.1^2), embeddings
    N(0, 1).
    """
    from transformers.pytorch_utils import Conv1D

    for mod in model.modules():
        for leaf, p in mod.named_parameters(recurse=False):
            shape = tuple(p.shape)
            if "bias" in leaf or leaf == "sinks":
                val = 0.1 * torch.randn(shape, generator=gen)
            elif isinstance(mod, nn.Embedding):
                val = torch.randn(shape, generator=gen)
            elif p.dim() == 1:  # norm scales
                val = 1.0 + 0.1 * torch.randn(shape, generator=gen)
            else:
                # nn.Linear and routers store [out, in], GPT-2's Conv1D [in, out],
                # MoE experts [E, in, out].
                fan_in = shape[0] if isinstance(mod, Conv1D) else shape[1]
                val = torch.randn(shape, generator=gen) / float(fan_in) ** 0.5
            with torch.no_grad():
                p.copy_(val.to(p.dtype))


# Models also exported as "<name>_padded" (PaddedModel): every model whose
# un-raised export posenc-run can compile (BLOOM's ALiBi positions come from
# attention_mask.cumsum, tm_tensor.scan; gpt_oss's router from tm_tensor.sort).
PADDED = ("llama3_eager", "llama3_sdpa", "qwen2_yarn", "gptj", "phi3_partial", "mpt",
          "gpt2", "gpt_oss_nomoe")
# Padded models also exported with a dynamic sequence length ("<name>_dynamic").
# Not MPT: torch-mlir cannot import the `max(0, P - S)` (sym_max) of its ALiBi
# slice on a symbolic length ("Unimplemented call_function").
DYNAMIC = tuple(m for m in PADDED if m != "mpt")
BATCH = 2
PAD = 5  # left padding of the second sequence


# The "<name>_dynamic" exports (the padded models with a dynamic sequence
# length, torch.export.Dim) are also checked at this second length.
SECOND_SEQ = 11


def padded_inputs(gen: torch.Generator, seq: int = SEQ):
    """input_ids, attention_mask and position_ids of the padded batch: row 0
    is `seq` tokens, row 1 seq - PAD tokens after PAD pads (mask 0, position 1,
    as HF's generate() fills them); positions grow by 1 or 2 (gaps) from 0."""
    ids = torch.randint(0, VOCAB, (BATCH, seq), generator=gen, dtype=torch.int64)
    mask = torch.ones(BATCH, seq, dtype=torch.int64)
    mask[1, :PAD] = 0
    steps = torch.randint(1, 3, (BATCH, seq), generator=gen, dtype=torch.int64)
    pos = torch.zeros(BATCH, seq, dtype=torch.int64)
    pos[0] = torch.cumsum(steps[0], 0) - steps[0, 0]
    pos[1, :PAD] = 1
    pos[1, PAD:] = torch.cumsum(steps[1, PAD:], 0) - steps[1, PAD]
    return ids, mask, pos


def build(spec: Spec, padded: bool = False):
    cfg_cls = getattr(transformers, spec.config_cls)
    model_cls = getattr(transformers, spec.model_cls)
    cfg = cfg_cls(**spec.config, **spec.extra)
    gen = torch.Generator().manual_seed(spec.seed)
    torch.manual_seed(spec.seed)
    model = model_cls(cfg).eval()
    if spec.patch is not None:
        spec.patch(model)
    reinit_(model, gen)
    _keep_buffers_as_constants(model)
    names = [n for n, _ in model.named_parameters()]
    params = [p.detach().clone().contiguous() for _, p in model.named_parameters()]
    if padded:
        ids, mask, pos = padded_inputs(gen)
        wrapper = PaddedModel(model, names, spec.position_ids).eval()
        inputs = [ids, mask] + ([pos] if spec.position_ids else [])
        input_names = ["input_ids", "attention_mask"] + (
            ["position_ids"] if spec.position_ids else [])
        return cfg, wrapper, inputs + params, input_names + names
    ids = torch.randint(0, VOCAB, (1, SEQ), generator=gen, dtype=torch.int64)
    wrapper = WholeModel(model, names, spec.pass_attention_mask).eval()
    args = [ids] + params
    arg_names = ["input_ids"] + names
    return cfg, wrapper, args, arg_names


def param_roles(model: nn.Module) -> dict:
    """name -> what the tensor is (owning module class, layout convention)."""
    from transformers.pytorch_utils import Conv1D

    roles = {}
    for mname, mod in model.named_modules():
        for leaf, _ in mod.named_parameters(recurse=False):
            full = f"{mname}.{leaf}" if mname else leaf
            cls = type(mod).__name__
            if isinstance(mod, nn.Embedding):
                role = f"{cls} table [num, hidden]"
            elif isinstance(mod, nn.Linear):
                role = f"{cls} {leaf}" + (" [out, in]: y = x W^T + b" if leaf == "weight" else "")
            elif isinstance(mod, Conv1D):
                role = f"{cls} {leaf}" + (" [in, out]: y = x W + b" if leaf == "weight" else "")
            elif leaf == "sinks":
                role = "attention sink logit per query head"
            else:
                role = f"{cls} {leaf}"
            roles.setdefault(full, role)
    return roles


def registered_dialects(posenc_opt: str) -> set:
    """The dialects posenc-opt registers (its --show-dialects line)."""
    out = subprocess.run([posenc_opt, "--show-dialects"], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("Available Dialects:"):
            return set(line.split(":", 1)[1].strip().split(","))
    raise RuntimeError(f"cannot read the dialects of {posenc_opt}")


def foreign_ops(module, known: set) -> list:
    """Names of the ops in `module` whose dialect posenc does not register."""
    from torch_mlir import ir

    names = set()

    def visit(op):
        name = op.name
        if name.split(".", 1)[0] not in known:
            names.add(name)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return sorted(names)


def dynamic_shapes(spec: Spec, args):
    """torch.export's dynamic_shapes for a PaddedModel: one `seq` dimension
    shared by input_ids, attention_mask and position_ids."""
    seq = torch.export.Dim("seq", min=2, max=4096)
    inputs = 3 if spec.position_ids else 2
    rest = [{1: seq}] * (inputs - 2) + [None] * (len(args) - inputs)
    return ({1: seq}, {1: seq}, tuple(rest))


def export(spec: Spec, wrapper: nn.Module, args, posenc_opt: str, shapes=None) -> str:
    program = wrapper
    if spec.strip_metadata_asserts:
        program = torch.export.export(wrapper, tuple(args), dynamic_shapes=shapes)
        graph = program.graph_module.graph
        for node in list(graph.nodes):
            if node.target is torch.ops.aten._assert_tensor_metadata.default:
                graph.erase_node(node)
        program.graph_module.recompile()
    from torch_mlir import fx  # here: scripts/export_iree_input.py needs no torch-mlir

    module = fx.export_and_import(
        program, *args, output_type="linalg-on-tensors", func_name=spec.name,
        **({"dynamic_shapes": shapes} if shapes and program is wrapper else {})
    )
    if not foreign_ops(module, registered_dialects(posenc_opt)):
        return str(module)
    # Ops of dialects posenc does not register (torch-mlir's tm_tensor.scan,
    # tm_tensor.sort) can only be read back in generic form, and then only
    # with --allow-unregistered-dialect. MLIR prints a whole module either
    # generic or custom, so print it generic and let posenc-opt re-print it:
    # registered ops come back in custom form, the foreign ones stay generic.
    generic = module.operation.get_asm(print_generic_op_form=True)
    proc = subprocess.run([posenc_opt, "--allow-unregistered-dialect"], input=generic,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{posenc_opt} cannot re-print {spec.name}:\n{proc.stderr}")
    return proc.stdout.rstrip("\n") + "\n"


def write_if_changed(path: str, data: bytes) -> None:
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return
    with open(path, "wb") as f:
        f.write(data)


def npy_bytes(a: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(a), allow_pickle=False)
    return buf.getvalue()


INPUT_ROLES = {
    "input_ids": "token ids, seeded uniform in [0, %d)" % VOCAB,
    "attention_mask": f"0/1 key mask: row 1 left-padded by {PAD}",
    "position_ids": "positions with gaps (steps of 1 or 2); pads at 1",
}


def run_one(spec: Spec, posenc_opt: str, variant: str = "") -> dict:
    """Exports `spec` whole ("") or as "padded" or "dynamic" (padded, with a
    dynamic sequence length; also run at SECOND_SEQ, data in seqN/)."""
    padded = bool(variant)
    cfg, wrapper, args, arg_names = build(spec, padded)
    shapes = dynamic_shapes(spec, args) if variant == "dynamic" else None
    if padded:
        title = {"padded": ", padded batch",
                 "dynamic": ", padded batch, dynamic sequence length"}[variant]
        spec = dataclasses.replace(spec, name=f"{spec.name}_{variant}",
                                   title=spec.title + title)
    with torch.no_grad():
        out = wrapper(*args)
        ir = export(spec, wrapper, args, posenc_opt, shapes)
    d = os.path.join(OUT_DIR, spec.name)
    os.makedirs(d, exist_ok=True)
    if shapes:
        inputs = 3 if spec.position_ids else 2
        second = list(padded_inputs(torch.Generator().manual_seed(spec.seed + 1),
                                    SECOND_SEQ))[:inputs]
        sub = os.path.join(d, f"seq{SECOND_SEQ}")
        os.makedirs(sub, exist_ok=True)
        for i, a in enumerate(second):
            write_if_changed(os.path.join(sub, f"arg{i}.npy"), npy_bytes(a.numpy()))
        with torch.no_grad():
            out2 = wrapper(*second, *args[inputs:])
        write_if_changed(os.path.join(sub, "out0.npy"), npy_bytes(out2.numpy()))
    header = (
        f"// Generated by {COMMAND} {spec.name}; do not edit.\n"
        f"// {spec.title}: {spec.model_cls}({spec.config_cls}), "
        f"see test/Raising/Models/MANIFEST.md.\n"
        + (f"// Arguments: %arg0 = input_ids, %arg1 = attention_mask, then position_ids "
           f"(if taken) and the parameters (MANIFEST.md lists them).\n" if padded else
           f"// Arguments: %arg0 = input_ids, %arg1.. = parameters "
           f"(MANIFEST.md lists them).\n")
    )
    write_if_changed(os.path.join(d, "model.mlir"), (header + ir).encode())
    for old in os.listdir(d):
        if old.startswith("arg") and old.endswith(".npy"):
            if int(old[3:-4]) >= len(args):
                os.remove(os.path.join(d, old))
    for i, a in enumerate(args):
        write_if_changed(os.path.join(d, f"arg{i}.npy"), npy_bytes(a.numpy()))
    write_if_changed(os.path.join(d, "out0.npy"), npy_bytes(out.detach().numpy()))
    roles = param_roles(wrapper.model)
    return dict(
        spec=spec,
        cfg=cfg,
        arg_names=arg_names,
        arg_roles=[INPUT_ROLES.get(n) or roles.get(n, "") for n in arg_names],
        args=[(tuple(a.shape), str(a.dtype).replace("torch.", "")) for a in args],
        out=(tuple(out.shape), str(out.dtype).replace("torch.", "")),
        ir_bytes=len(header) + len(ir),
    )


def manifest(results) -> str:
    v = dict(
        torch=torch.__version__,
        transformers=transformers.__version__,
        torch_mlir=_torch_mlir_version(),
        numpy=np.__version__,
    )
    lines = [
        "# Raising test models (generated)",
        "",
        "Generated by `scripts/export_hf_attention.py`; do not edit by hand.",
        "Regenerate everything (about 15 s on 2 cores; byte-identical output):",
        "",
        "```sh",
        "python3 -m pip install -r requirements-hf.txt",
        "python3 -m pip install --no-deps -r requirements-raising.txt",
        COMMAND,
        "```",
        "",
        f"Versions: torch {v['torch']}, transformers {v['transformers']}, "
        f"torch-mlir {v['torch_mlir']}, numpy {v['numpy']}.",
        "",
        "Every model is a whole 1-layer Hugging Face `XxxModel` (gpt_oss_nomoe: with its",
        "MoE removed, see there) built from the config below (no hub access), re-initialized from `torch.Generator().manual_seed(seed)`",
        "(matrices N(0, 1/fan_in), norm scales 1 + 0.1 N(0, 1), biases and sinks",
        "0.1 N(0, 1), embeddings N(0, 1); HF's own std-0.02 init makes attention nearly",
        "uniform, hiding position-encoding errors), wrapped as",
        "",
        "```python",
        "def forward(input_ids, *params):   # params in model.named_parameters() order",
        "    return torch.func.functional_call(model, dict(zip(names, params)), (input_ids,),",
        "        {'use_cache': False, 'attention_mask': torch.ones_like(input_ids)})[0]",
        "```",
        "",
        "and exported with `torch_mlir.fx.export_and_import(wrapper, *args,",
        "output_type=\"linalg-on-tensors\", func_name=<name>)` under `torch.no_grad()`,",
        "`eval()`, after clearing every module's `_non_persistent_buffers_set` (so",
        "`inv_freq`, GPT-J's `embed_positions` etc. become constants: `dense_resource`",
        "blobs or folded). HF code computes positions (arange), cos/sin, causal mask",
        "and ALiBi itself, as in real use. `attention_mask = ones_like(input_ids)` is",
        "what a tokenizer returns for one unpadded sequence; with `attention_mask=None`",
        "and no cache, transformers 5 instead runs its packed-sequence detection",
        "(`find_packed_sequence_indices`: cumsum of position-id differences), which",
        "torch-mlir lowers to `tm_tensor.scan`.",
        "",
        "`<name>_padded` (issue 26) is the same model on what serving hands it: a batch",
        f"of {BATCH} sequences, the second left-padded by {PAD} tokens, with the 0/1",
        "`attention_mask` and `position_ids` with gaps (steps of 1 or 2; pads at",
        "position 1) as function arguments (`PaddedModel`: `forward(input_ids,",
        "attention_mask[, position_ids], *params)`; MPT takes no position_ids). HF",
        "builds its 4-D mask from `attention_mask` with boolean tensors (i1 in the",
        "export). BLOOM (positions from `attention_mask.cumsum`, `tm_tensor.scan`)",
        "and gpt_oss (`tm_tensor.sort`) have no padded form: posenc-run cannot",
        "compile their un-raised export.",
        "",
        "`<name>_dynamic` (issue 24) is the padded model exported with a dynamic",
        "sequence length (`torch.export.Dim(\"seq\")` on dimension 1 of input_ids,",
        "attention_mask and position_ids: `tensor<2x?xi64>` arguments), as serving",
        "stacks export. Its data is the padded model's at 16 tokens plus, in",
        f"`seq{SECOND_SEQ}/`, inputs and torch's output at {SECOND_SEQ} tokens (the same",
        "parameters; check_model.py `--length seq11`). Not MPT: torch-mlir cannot",
        "import the `sym_max` of its ALiBi slice on a symbolic length. posenc-run runs it through a",
        "static wrapper that check_model.py adds (tensor.cast to the dynamic types).",
        "",
        "Ops of dialects posenc does not register (torch-mlir's `tm_tensor.scan` in bloom,",
        "`tm_tensor.sort` in gpt_oss) have no custom syntax posenc can parse: such a module",
        "is printed in generic form and re-printed by `posenc-opt",
        "--allow-unregistered-dialect`, so registered ops are in custom form and only the",
        "foreign ops are generic. posenc-opt reads these two files with",
        "`--allow-unregistered-dialect`; posenc-run has no such flag, so it reads bloom only",
        "once raised (posenc-raise-alibi erases the dead scan) and never gpt_oss.",
        "Regenerating needs a built `build/bin/posenc-opt` (or `--posenc-opt PATH`).",
        "",
        "Files per model: `model.mlir` (one public function `@<name>`), `argN.npy` (the",
        "N-th function argument), `out0.npy` (torch's fp32 `last_hidden_state` of the",
        "wrapper on those arguments, single-threaded). Check with",
        "`python3 test/Raising/check_model.py test/Raising/Models/<name> build/bin/posenc-run`;",
        "results in NOTES.md, the IR patterns in PATTERNS.md.",
        "",
    ]
    for r in results:
        s: Spec = r["spec"]
        lines += [
            f"## {s.name}",
            "",
            f"{s.title}. `transformers.{s.model_cls}(transformers.{s.config_cls}(**config))`,"
            f" seed {s.seed}; {r['ir_bytes'] // 1024} KiB of IR.",
            "",
            f"Positional encoding: {s.encoding}.",
            "",
        ]
        if s.notes:
            lines += [s.notes, ""]
        cfg = dict(s.config, **s.extra)
        lines += ["```python", "config = " + _pyrepr(cfg), "```", ""]
        lines += [
            "| arg | name | shape | dtype | what |",
            "|---|---|---|---|---|",
        ]
        for i, (n, role, (shape, dt)) in enumerate(zip(r["arg_names"], r["arg_roles"], r["args"])):
            shp = "x".join(str(x) for x in shape)
            lines.append(f"| {i} | `{n}` | {shp} | {dt} | {role} |")
        oshape, odt = r["out"]
        lines += [
            "",
            f"Output `out0`: `last_hidden_state`, {'x'.join(str(x) for x in oshape)} {odt}.",
            "",
        ]
    return "\n".join(lines)


def _pyrepr(d: dict) -> str:
    return json.dumps(d, indent=4, sort_keys=False).replace("true", "True").replace(
        "false", "False"
    ).replace("null", "None")


def _torch_mlir_version() -> str:
    try:
        from importlib.metadata import version

        return version("torch-mlir")
    except Exception:  # pragma: no cover
        return "unknown"


def main() -> int:
    # Python randomizes str hashes per process, and HF iterates sets of layer
    # types (Gemma 3 builds its per-kind RoPE tables in that order): fixed,
    # the exported op order is the same on every run.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable] + sys.argv,
                  dict(os.environ, PYTHONHASHSEED="0"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", help="subset of: " + " ".join(s.name for s in SPECS))
    ap.add_argument("--no-manifest", action="store_true")
    ap.add_argument("--posenc-opt", default=os.path.join(ROOT, "build", "bin", "posenc-opt"),
                    help="posenc-opt binary: which dialects posenc registers, and the "
                    "printer of modules with foreign ops (default: build/bin/posenc-opt)")
    opts = ap.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    wanted = set(opts.models) or {s.name for s in SPECS}
    unknown = wanted - {s.name for s in SPECS}
    if unknown:
        ap.error("unknown model(s): " + " ".join(sorted(unknown)))
    results = []
    for spec in SPECS:
        variants = ("",) + (("padded",) if spec.name in PADDED else ()) + (
            ("dynamic",) if spec.name in DYNAMIC else ())
        if spec.name not in wanted:
            continue
        for variant in variants:
            r = run_one(spec, opts.posenc_opt, variant)
            print(f"{r['spec'].name}: {r['ir_bytes']} bytes of IR, "
                  f"{len(r['args'])} arguments", flush=True)
            results.append(r)
    if not opts.no_manifest and wanted == {s.name for s in SPECS}:
        write_if_changed(os.path.join(OUT_DIR, "MANIFEST.md"), manifest(results).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
