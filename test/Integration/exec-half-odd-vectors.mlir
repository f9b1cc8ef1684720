// bf16 attention with head dim 9 at 16 lanes: tiles became <9 x bfloat>
// masked loads, which abort LLVM 22's JIT in type legalization ("Do not know
// how to soft promote this operator's operand", finding D3 of the
// differential harness, docs/testing.md). 16-bit float tiles of
// non-power-of-two size now stay scalar; the harness checks the numbers
// (--replay 1:649 --vector-widths=1,8,16,32).
// REQUIRES: libomp
// RUN: posenc-run %s --iterations=1 --warmup=0 --pipeline='posenc-cpu-pipeline{vector-width=16}' | FileCheck %s
// RUN: posenc-run %s --iterations=1 --warmup=0 --pipeline='posenc-cpu-pipeline{vector-width=32}' | FileCheck %s
// CHECK: RESULT entry=att

func.func @att(%q: tensor<1x4x4x9xbf16>, %k: tensor<1x4x5x9xbf16>, %v: tensor<1x4x5x9xbf16>) -> tensor<1x4x4x9xbf16> {
  %o = posenc.attention %q, %k, %v : tensor<1x4x4x9xbf16>, tensor<1x4x5x9xbf16>, tensor<1x4x5x9xbf16> -> tensor<1x4x4x9xbf16>
  return %o : tensor<1x4x4x9xbf16>
}
