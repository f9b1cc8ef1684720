#!/usr/bin/env python3
"""Export Meta's reference Llama attention (complex-product RoPE) to MLIR.

The rotary embedding of Meta's reference code (github.com/meta-llama/llama,
llama/model.py) multiplies `view_as_complex` pairs of Q and K by a complex
table `freqs_cis = polar(1, outer(t, inv_freq))`, unlike Hugging Face's
rotate_half.  This writes one attention layer of that code, transcribed
below (wq/wk/wv/wo, precompute_freqs_cis, apply_rotary_emb, repeat_kv, the
causal mask, softmax), with tiny seeded weights, under
test/Raising/Models/meta_llama/ in the layout of
scripts/export_hf_attention.py:

  model.mlir   torch-mlir's linalg-on-tensors import (function @meta_llama)
  argN.npy     arg0 = hidden states x [1, 16, 64] f32, arg1..4 = wq, wk, wv,
               wo ([out, in], y = x W^T)
  out0.npy     torch's fp32 output on those arguments

Differences from the reference: no model parallelism (plain linears) and no
KV cache: the layer runs one prefill at start_pos = 0, where the reference
reads back exactly the keys and values it just wrote.  freqs_cis is a buffer
(a complex64 constant of the module) sliced to the sequence, as
Transformer.forward does.  Regenerating gives byte-identical files.

    python3 scripts/export_meta_llama.py

Requirements: torch and torch-mlir (requirements-raising.txt).
"""

import io
import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_mlir import fx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "test", "Raising", "Models", "meta_llama")
NAME = "meta_llama"
SEED = 9
SEQ = 16
DIM = 64
N_HEADS = 4
N_KV_HEADS = 2
MAX_SEQ_LEN = 32
ROPE_THETA = 500000.0


# Meta's reference code (llama/model.py), transcribed.


def precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device, dtype=torch.float32)
    freqs = torch.outer(t, freqs)
    freqs_cis = torch.polar(torch.ones_like(freqs), freqs)  # complex64
    return freqs_cis


def reshape_for_broadcast(freqs_cis: torch.Tensor, x: torch.Tensor):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """torch.repeat_interleave(x, dim=2, repeats=n_rep)"""
    bs, slen, n_kv_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    return (
        x[:, :, :, None, :]
        .expand(bs, slen, n_kv_heads, n_rep, head_dim)
        .reshape(bs, slen, n_kv_heads * n_rep, head_dim)
    )


class Attention(nn.Module):
    """Meta's Attention with its weights as arguments (no KV cache)."""

    def __init__(self, start_pos: int = 0):
        super().__init__()
        self.n_local_heads = N_HEADS
        self.n_local_kv_heads = N_KV_HEADS
        self.n_rep = self.n_local_heads // self.n_local_kv_heads
        self.head_dim = DIM // N_HEADS
        self.start_pos = start_pos
        self.register_buffer(
            "freqs_cis",
            precompute_freqs_cis(self.head_dim, MAX_SEQ_LEN * 2, ROPE_THETA))

    def forward(self, x, wq, wk, wv, wo):
        bsz, seqlen, _ = x.shape
        start_pos = self.start_pos
        # Transformer.forward: the table rows and the mask of this chunk.
        freqs_cis = self.freqs_cis[start_pos:start_pos + seqlen]
        mask = torch.full((seqlen, seqlen), float("-inf"), device=x.device)
        mask = torch.triu(mask, diagonal=1)
        # Columns of the cached keys; none at start_pos = 0 (torch-mlir
        # cannot lower the empty [seqlen, 0] block, so it is skipped).
        if start_pos > 0:
            mask = torch.hstack([torch.zeros((seqlen, start_pos), device=x.device),
                                 mask])
        mask = mask.type_as(x)

        xq, xk, xv = F.linear(x, wq), F.linear(x, wk), F.linear(x, wv)
        xq = xq.view(bsz, seqlen, self.n_local_heads, self.head_dim)
        xk = xk.view(bsz, seqlen, self.n_local_kv_heads, self.head_dim)
        xv = xv.view(bsz, seqlen, self.n_local_kv_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)
        keys, values = xk, xv  # the cache rows [:start_pos + seqlen]

        keys = repeat_kv(keys, self.n_rep)
        values = repeat_kv(values, self.n_rep)
        xq = xq.transpose(1, 2)
        keys = keys.transpose(1, 2)
        values = values.transpose(1, 2)
        scores = torch.matmul(xq, keys.transpose(2, 3)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask
        scores = F.softmax(scores.float(), dim=-1).type_as(xq)
        output = torch.matmul(scores, values)
        output = output.transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return F.linear(output, wo)


def npy_bytes(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(a), allow_pickle=False)
    return buf.getvalue()


def write_if_changed(path: str, data: bytes) -> None:
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return
    with open(path, "wb") as f:
        f.write(data)


def main() -> int:
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    gen = torch.Generator().manual_seed(SEED)
    head_dim = DIM // N_HEADS
    # Weights N(0, 1/fan_in) as scripts/export_hf_attention.py draws them:
    # O(1) logits, so position errors show.
    shapes = [(N_HEADS * head_dim, DIM), (N_KV_HEADS * head_dim, DIM),
              (N_KV_HEADS * head_dim, DIM), (DIM, N_HEADS * head_dim)]
    x = torch.randn((1, SEQ, DIM), generator=gen)
    weights = [torch.randn(s, generator=gen) / float(s[1]) ** 0.5 for s in shapes]
    args = [x] + weights
    model = Attention().eval()
    with torch.no_grad():
        out = model(*args)
        module = fx.export_and_import(model, *args, output_type="linalg-on-tensors",
                                      func_name=NAME)
    header = (
        f"// Generated by python3 scripts/export_meta_llama.py; do not edit.\n"
        f"// Meta's reference Llama attention (complex-product RoPE, theta "
        f"{ROPE_THETA:g}, GQA {N_HEADS}/{N_KV_HEADS}, head_dim {head_dim}).\n"
        f"// Arguments: %arg0 = x [1, {SEQ}, {DIM}], %arg1..4 = wq, wk, wv, wo.\n"
    )
    os.makedirs(OUT_DIR, exist_ok=True)
    write_if_changed(os.path.join(OUT_DIR, "model.mlir"),
                     (header + str(module).rstrip("\n") + "\n").encode())
    for i, a in enumerate(args):
        write_if_changed(os.path.join(OUT_DIR, f"arg{i}.npy"), npy_bytes(a.numpy()))
    write_if_changed(os.path.join(OUT_DIR, "out0.npy"), npy_bytes(out.numpy()))
    print(f"{NAME}: {len(args)} arguments, output {list(out.shape)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
