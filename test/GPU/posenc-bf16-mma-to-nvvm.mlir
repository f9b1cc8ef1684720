// RUN: posenc-opt %s --split-input-file --posenc-bf16-mma-to-nvvm | FileCheck %s

// bf16 m16n8k16 with f32 accumulators: each row of the A and B fragments
// becomes one packed 32-bit register (two bf16, element 0 in the low half;
// 1-D bitcasts), C four f32 values, D's rows are put back into a 2x2 vector.
// CHECK-LABEL: func.func @bf16
// CHECK-SAME: (%[[A:.+]]: vector<4x2xbf16>, %[[B:.+]]: vector<2x2xbf16>, %[[C:.+]]: vector<2x2xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<2x2xf32>
// CHECK: %[[AR0:.+]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK: %[[AP0:.+]] = vector.bitcast %[[AR0]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[A0:.+]] = vector.extract %[[AP0]][0] : i32 from vector<1xi32>
// CHECK: %[[AR3:.+]] = vector.extract %[[A]][3]
// CHECK: %[[AP3:.+]] = vector.bitcast %[[AR3]]
// CHECK: %[[A3:.+]] = vector.extract %[[AP3]][0]
// CHECK: %[[BR1:.+]] = vector.extract %[[B]][1] : vector<2xbf16> from vector<2x2xbf16>
// CHECK: %[[BP1:.+]] = vector.bitcast %[[BR1]]
// CHECK: %[[B1:.+]] = vector.extract %[[BP1]][0]
// CHECK: %[[C0:.+]] = vector.extract %[[C]][0, 0] : f32 from vector<2x2xf32>
// CHECK: %[[D:.+]] = nvvm.mma.sync A[%[[A0]], %{{.+}}, %{{.+}}, %[[A3]]] B[%{{.+}}, %[[B1]]] C[%[[C0]], %{{.+}}, %{{.+}}, %{{.+}}]
// CHECK-SAME: layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME: (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[D0:.+]] = llvm.extractvalue %[[D]][0]
// CHECK: %[[D1:.+]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[R0:.+]] = vector.from_elements %[[D0]], %[[D1]] : vector<2xf32>
// CHECK: %[[P:.+]] = vector.insert %[[R0]], %[[ZERO]] [0]
// CHECK: %[[D2:.+]] = llvm.extractvalue %[[D]][2]
// CHECK: %[[D3:.+]] = llvm.extractvalue %[[D]][3]
// CHECK: %[[R1:.+]] = vector.from_elements %[[D2]], %[[D3]] : vector<2xf32>
// CHECK: %[[R:.+]] = vector.insert %[[R1]], %[[P]] [1]
// CHECK: return %[[R]]
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// f16 is convert-nvgpu-to-nvvm's: left alone.
// CHECK-LABEL: func.func @f16
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.mma.sync
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// bf16 into bf16 accumulators: not an m16n8k16 bf16 mma.sync that PTX has.
// CHECK-LABEL: func.func @bf16_accumulators
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.mma.sync
func.func @bf16_accumulators(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xbf16>) -> vector<2x2xbf16> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xbf16>) -> vector<2x2xbf16>
  return %d : vector<2x2xbf16>
}
