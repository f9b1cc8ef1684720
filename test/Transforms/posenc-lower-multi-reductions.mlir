// RUN: posenc-opt %s --split-input-file --posenc-lower-multi-reductions | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-lower-multi-reductions=lowering=inner-reduction | FileCheck %s --check-prefix=INNER

// 24 parallel lanes (D12's row max): one vector.reduction per kept element
// instead of inner-parallel's 24-lane shuffles, which LLVM 22's x86 backend
// miscompiles.
// CHECK-LABEL: func.func @odd_lanes
// CHECK-NOT: vector.multi_reduction
// CHECK-NOT: vector.transpose
// CHECK-COUNT-24: vector.reduction <maximumf>, %{{.+}}, %{{.+}} : vector<7xf32> into f32
// CHECK-NOT: vector.reduction
// CHECK: return
// INNER-LABEL: func.func @odd_lanes
// INNER-COUNT-24: vector.reduction <maximumf>
func.func @odd_lanes(%x: vector<2x3x4x7xf32>, %acc: vector<2x3x4xf32>) -> vector<2x3x4xf32> {
  %r = vector.multi_reduction <maximumf>, %x, %acc [3] : vector<2x3x4x7xf32> to vector<2x3x4xf32>
  return %r : vector<2x3x4xf32>
}

// -----

// 16 lanes: upstream's inner-parallel, rows of 16 lanes added elementwise;
// with lowering=inner-reduction, one vector.reduction per lane.
// CHECK-LABEL: func.func @pow2_lanes
// CHECK: vector.transpose %{{.+}}, [2, 0, 1] : vector<4x4x7xf32> to vector<7x4x4xf32>
// CHECK-COUNT-7: arith.addf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK-NOT: vector.reduction
// CHECK: return
// INNER-LABEL: func.func @pow2_lanes
// INNER-COUNT-16: vector.reduction <add>
// INNER-NOT: arith.addf
func.func @pow2_lanes(%x: vector<4x4x7xf32>, %acc: vector<4x4xf32>) -> vector<4x4xf32> {
  %r = vector.multi_reduction <add>, %x, %acc [2] : vector<4x4x7xf32> to vector<4x4xf32>
  return %r : vector<4x4xf32>
}

// -----

// Reducing every dimension keeps one lane (a power of two): upstream's
// inner-parallel, fifteen one-lane additions.
// CHECK-LABEL: func.func @all_dims
// CHECK: vector.shape_cast %{{.+}} : vector<3x5xf32> to vector<1x15xf32>
// CHECK-COUNT-15: arith.addf %{{.+}}, %{{.+}} : vector<1xf32>
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @all_dims(%x: vector<3x5xf32>, %acc: f32) -> f32 {
  %r = vector.multi_reduction <add>, %x, %acc [0, 1] : vector<3x5xf32> to f32
  return %r : f32
}

// -----

// Three lanes under a mask: each row's reduction keeps its row of the mask.
// CHECK-LABEL: func.func @masked_odd_lanes
// CHECK-COUNT-3: vector.mask %{{.+}} { vector.reduction <add>, %{{.+}}, %{{.+}} : vector<8xf32> into f32 } : vector<8xi1> -> f32
// CHECK-NOT: vector.multi_reduction
func.func @masked_odd_lanes(%x: vector<3x8xf32>, %acc: vector<3xf32>, %m: vector<3x8xi1>) -> vector<3xf32> {
  %r = vector.mask %m { vector.multi_reduction <add>, %x, %acc [1] : vector<3x8xf32> to vector<3xf32> } : vector<3x8xi1> -> vector<3xf32>
  return %r : vector<3xf32>
}

// -----

// Odd lanes kept on the outer dimension, reduced over the first: the same
// per-element reductions (a transpose brings the reduced dimension inside).
// CHECK-LABEL: func.func @odd_lanes_outer_reduction
// CHECK: vector.transpose %{{.+}}, [1, 0] : vector<4x6xf32> to vector<6x4xf32>
// CHECK-COUNT-6: vector.reduction <minimumf>, %{{.+}}, %{{.+}} : vector<4xf32> into f32
func.func @odd_lanes_outer_reduction(%x: vector<4x6xf32>, %acc: vector<6xf32>) -> vector<6xf32> {
  %r = vector.multi_reduction <minimumf>, %x, %acc [0] : vector<4x6xf32> to vector<6xf32>
  return %r : vector<6xf32>
}
