// The timing report: a human-readable summary and the machine-readable
// RESULT line (numbers only; nothing is asserted about speed).

// RUN: posenc-run %s --iterations=5 --warmup=2 | FileCheck %s
// RUN: posenc-run %s --iterations=4 --warmup=0 --flops=4096 | FileCheck %s --check-prefix=FLOPS

// 3 x 1024 f32 = 12288 bytes per call.
// CHECK:      compiled @scale in {{[0-9.]+}} ms (pipeline {{[0-9.]+}} ms, JIT {{[0-9.]+}} ms)
// CHECK-NEXT: @scale: 5 iterations after 2 warmup, 12288 bytes moved per call
// CHECK-NEXT: median {{[0-9.e+-]+}} ms  min {{[0-9.e+-]+}} ms  max {{[0-9.e+-]+}} ms  {{[0-9.e+-]+}} GB/s
// CHECK-NEXT: RESULT entry=scale median_ms={{[0-9.e+-]+}} min_ms={{[0-9.e+-]+}} max_ms={{[0-9.e+-]+}} gbps={{[0-9.e+-]+}}{{$}}
// CHECK-NOT: output

// FLOPS:      @scale: 4 iterations after 0 warmup, 12288 bytes moved per call
// FLOPS-NEXT: GB/s  {{[0-9.e+-]+}} GFLOP/s
// FLOPS-NEXT: RESULT entry=scale median_ms={{[0-9.e+-]+}} min_ms={{[0-9.e+-]+}} max_ms={{[0-9.e+-]+}} gbps={{[0-9.e+-]+}} gflops={{[0-9.e+-]+}}{{$}}

func.func @scale(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]} ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
