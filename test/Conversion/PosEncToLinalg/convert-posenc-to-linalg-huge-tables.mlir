// RUN: posenc-opt %s --split-input-file --convert-posenc-to-linalg --verify-diagnostics
//
// Tables the folder and the lowering would materialize as constants are
// capped at kMaxConstantElements (2^16) entries. Shapes are user input: a
// tensor<4611686018427387903xf32> made the folder ask for 2^62 doubles
// ("SmallVector unable to grow", an abort), and 10^9 ALiBi heads exhausted
// memory (found by posenc-pass-fuzzer). The lowering reports them;
// Transforms/posenc-fold-frequencies-huge-tables.mlir checks that the folder
// leaves them alone.

func.func @huge_frequencies() -> tensor<4611686018427387903xf32> {
  // expected-error @+2 {{rotary_dim/2 = 4611686018427387903 frequencies exceed the 65536 the lowering materializes as a constant}}
  // expected-error @+1 {{failed to legalize operation 'posenc.rope_frequencies'}}
  %inv, %af = posenc.rope_frequencies dim 9223372036854775806 base 10000.0 : tensor<4611686018427387903xf32>, f32
  return %inv : tensor<4611686018427387903xf32>
}

// -----

func.func @huge_sinusoidal() -> tensor<1x4611686018427387904xf32> {
  // expected-error @+2 {{encoding dimension 4611686018427387904 exceeds the 65536 columns the lowering materializes as constants}}
  // expected-error @+1 {{failed to legalize operation 'posenc.sinusoidal'}}
  %t = posenc.sinusoidal interleaved : tensor<1x4611686018427387904xf32>
  return %t : tensor<1x4611686018427387904xf32>
}

// -----

func.func @huge_alibi() -> tensor<1000000000x1x1xf32> {
  // expected-error @+2 {{ALiBi slopes of 1000000000 heads exceed the 65536 the lowering materializes as a constant; pass a slopes tensor}}
  // expected-error @+1 {{failed to legalize operation 'posenc.alibi'}}
  %b = posenc.alibi symmetric slopes(<num_heads = 1000000000>) : tensor<1000000000x1x1xf32>
  return %b : tensor<1000000000x1x1xf32>
}

// -----

func.func @huge_attention_alibi(%q: tensor<1x100000x1x8xf32>, %k: tensor<1x1x1x8xf32>) -> tensor<1x100000x1x8xf32> {
  // expected-error @+2 {{ALiBi slopes of 100000 heads exceed the 65536 the lowering materializes as a constant; pass alibi slopes as a tensor}}
  // expected-error @+1 {{failed to legalize operation 'posenc.attention'}}
  %o = posenc.attention %q, %k, %k alibi(<num_heads = 100000>) : tensor<1x100000x1x8xf32>, tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32> -> tensor<1x100000x1x8xf32>
  return %o : tensor<1x100000x1x8xf32>
}

// -----

// Runtime dynamic NTK builds its table with a generic, not a constant: any
// size lowers.
func.func @huge_dynamic_ntk(%n: index) -> tensor<4611686018427387903xf32> {
  %inv, %af = posenc.rope_frequencies dim 9223372036854775806 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 16>) seq_len(%n : index) : tensor<4611686018427387903xf32>, f32
  return %inv : tensor<4611686018427387903xf32>
}
