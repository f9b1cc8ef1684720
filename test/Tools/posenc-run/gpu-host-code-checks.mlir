// With --gpu the host code gets device pointers: it may only pass them to
// kernels. posenc-run checks the lowered host code before JIT-compiling it
// and rejects, with one error line, what would crash or read garbage on a
// GPU (a dry run checks too, without a device).

// A result that is an argument: bufferization copies the input buffer into
// the output on the host.
// RUN: env POSENC_LIBCUDA=%t.none not posenc-run --gpu --dry-run %s --entry=identity 2>&1 | FileCheck %s --check-prefix=COPY
// COPY: posenc-run: error: the lowered host code copies or sets memory on the host ('llvm.intr.memcpy'): with --gpu every buffer is device memory that only kernels may touch (the pipeline must compute results in place, or copy with gpu.memcpy)

// A scalar read from a tensor in the host code (LongRoPE's table choice
// between two constant tables, made on the host by posenc-gpu-pipeline).
// RUN: env POSENC_LIBCUDA=%t.none not posenc-run --gpu --dry-run %s --entry=host_read 2>&1 | FileCheck %s --check-prefix=READ
// READ: posenc-run: error: the lowered host code reads or writes a buffer on the host ('llvm.load' in @__posenc_run_entry): with --gpu every buffer is device memory that only kernels may touch

// Host stack memory handed to a kernel.
// RUN: env POSENC_LIBCUDA=%t.none not posenc-run --gpu --dry-run %s --entry=host_alloca 2>&1 | FileCheck %s --check-prefix=STACK
// STACK: posenc-run: error: the lowered host code passes host stack memory ('llvm.alloca') to kernel @{{.+}}: a temporary promoted to the stack outside the kernels (promote-buffers-to-stack) cannot be read on the GPU

// A temporary small enough for promote-buffers-to-stack shared by two
// kernels (the frequency table of two rotaries) stays a device allocation:
// posenc-gpu-pipeline promotes kernels' own temporaries only (session 6).
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=small_shared_table 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: dry run: @small_shared_table compiled and linked, not run

// The same modules are fine on the CPU.
// RUN: posenc-run %s --entry=identity --iterations=1 | FileCheck %s --check-prefix=CPU
// RUN: posenc-run %s --entry=small_shared_table --iterations=1 | FileCheck %s --check-prefix=CPU
// CPU: RESULT entry=

func.func @identity(%x: tensor<16xf32>) -> tensor<16xf32> {
  return %x : tensor<16xf32>
}

func.func @host_read(%n: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %len = tensor.extract %n[%c0] : tensor<1xi64>
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0, 1.5, 2.0, 2.5], long_factor = [3.0, 3.5, 4.0, 4.5], original_max_position_embeddings = 64, max_position_embeddings = 256, select = hf>) seq_len(%len : i64) : tensor<4xf32>, f32
  return %inv : tensor<4xf32>
}

func.func @host_alloca(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = memref.alloca() : memref<16xf32>
  %t = bufferization.to_tensor %a restrict writable : memref<16xf32> to tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.add ins(%x, %t : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

func.func @small_shared_table(%q: tensor<1x2x2x64xf32>, %k: tensor<1x2x2x64xf32>)
    -> (tensor<1x2x2x64xf32>, tensor<1x2x2x64xf32>) {
  %inv, %af = posenc.rope_frequencies dim 64 base 500000.0 : tensor<32xf32>, f32
  %qr = posenc.rotary %q half_split dim 64 inv_freq(%inv : tensor<32xf32>) : tensor<1x2x2x64xf32>
  %kr = posenc.rotary %k half_split dim 64 inv_freq(%inv : tensor<32xf32>) : tensor<1x2x2x64xf32>
  return %qr, %kr : tensor<1x2x2x64xf32>, tensor<1x2x2x64xf32>
}
