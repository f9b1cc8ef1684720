// RUN: posenc-opt %s --split-input-file --posenc-approximate-trig | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-approximate-trig=all=true | FileCheck %s --check-prefix=ALL

// Marked sin/cos (angles the lowering reduced to [-pi, pi]) on f32 scalars
// and vectors become arith polynomials; unmarked ones stay (their argument
// may be large) unless all=true; f64 and other math ops are never touched.
// CHECK-LABEL: func.func @trig
// CHECK-NOT: math.sin %arg0
// CHECK-NOT: math.cos %arg1
// CHECK: math.sin %arg2 : f32
// CHECK: math.cos %arg3 {posenc.reduced_angle} : f64
// CHECK: math.exp %arg0
// ALL-LABEL: func.func @trig
// ALL-NOT: math.sin %{{.+}} : f32
// ALL: math.cos %arg3 {posenc.reduced_angle} : f64
// ALL: math.exp %arg0
func.func @trig(%a: f32, %v: vector<16xf32>, %u: f32, %d: f64)
    -> (f32, vector<16xf32>, f32, f64, f32) {
  %s = math.sin %a {posenc.reduced_angle} : f32
  %c = math.cos %v {posenc.reduced_angle} : vector<16xf32>
  %t = math.sin %u : f32
  %e = math.cos %d {posenc.reduced_angle} : f64
  %x = math.exp %a : f32
  return %s, %c, %t, %e, %x : f32, vector<16xf32>, f32, f64, f32
}
