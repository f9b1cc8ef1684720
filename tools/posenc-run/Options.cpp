//===- Options.cpp - The command-line flags of posenc-run -----------------===//

#include "Options.h"

namespace mlir::posenc::run {

cl::OptionCategory runCategory("posenc-run options");
cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input.mlir>"),
                                   cl::init("-"), cl::cat(runCategory));
cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: the only public function)"),
              cl::value_desc("name"), cl::cat(runCategory));
cl::opt<std::string> pipelineOpt(
    "pipeline",
    cl::desc(
        "Pass pipeline on builtin.module, without the builtin.module(...) "
        "wrapper (default: the built-in CPU pipeline; --dump-ir shows it)"),
    cl::value_desc("passes"), cl::cat(runCategory));
cl::list<std::string> inputSpecs("input",
                                 cl::desc("Read argument IDX from a .npy file"),
                                 cl::value_desc("idx=path"),
                                 cl::cat(runCategory));
cl::list<std::string>
    inputList("inputs", cl::CommaSeparated,
              cl::desc("One .npy file per argument, in order"),
              cl::value_desc("path,path,..."), cl::cat(runCategory));
cl::opt<uint64_t> seed("seed",
                       cl::desc("Seed of the random inputs (default 0)"),
                       cl::init(0), cl::cat(runCategory));
cl::opt<uint64_t>
    intMax("int-max",
           cl::desc("Random integers are drawn from [0, N) (default 4096, "
                    "clamped to i1, i8 and i16)"),
           cl::value_desc("N"), cl::init(4096), cl::cat(runCategory));
cl::opt<bool> writableInputs(
    "writable-inputs",
    cl::desc("Let bufferization reuse input buffers in place; inputs are "
             "restored before every call, outside the timing"),
    cl::cat(runCategory));
cl::opt<bool> poisonAllocations(
    "poison-allocations",
    cl::desc("Fill every buffer the kernel allocates with 0xFF bytes (NaN "
             "floats, -1 integers) before the kernel sees it, so that a read "
             "of memory it never wrote shows in the results"),
    cl::cat(runCategory));
cl::list<std::string> outputSpecs("output",
                                  cl::desc("Write result IDX to a .npy file"),
                                  cl::value_desc("idx=path"),
                                  cl::cat(runCategory));
cl::opt<std::string>
    outputsDir("outputs-dir",
               cl::desc("Write every result to DIR/out<IDX>.npy"),
               cl::value_desc("dir"), cl::cat(runCategory));
cl::opt<bool> printOutput("print-output",
                          cl::desc("Print the results with full precision"),
                          cl::cat(runCategory));
cl::opt<unsigned> iterations("iterations",
                             cl::desc("Timed calls (default 10, at most 10^7)"),
                             cl::init(10), cl::cat(runCategory));
cl::opt<unsigned> warmup("warmup", cl::desc("Untimed calls first (default 1)"),
                         cl::init(1), cl::cat(runCategory));
cl::opt<double>
    flops("flops",
          cl::desc("Floating-point operations per call: print GFLOP/s"),
          cl::value_desc("F"), cl::cat(runCategory));
cl::opt<bool>
    dumpIR("dump-ir",
           cl::desc("Print the module with its entry wrapper and the lowered "
                    "module to stderr"),
           cl::cat(runCategory));
cl::opt<bool> printPipeline(
    "print-pipeline",
    cl::desc("Print the host CPU and the pass pipeline posenc-run would use "
             "(the default one with its host-tuned options), then exit"),
    cl::cat(runCategory));
cl::opt<std::string>
    dumpLLVM("dump-llvm",
             cl::desc("Write the optimized LLVM IR that the JIT compiles to "
                      "FILE (for llc / llvm-mca)"),
             cl::value_desc("file"), cl::cat(runCategory));
cl::opt<bool> useGPU(
    "gpu",
    cl::desc("Compile with posenc-gpu-pipeline and run on the CUDA device "
             "(driver loaded at run time; exit status 77 without one)"),
    cl::cat(runCategory));
cl::opt<std::string> chip(
    "chip",
    cl::desc("With --gpu: the target of the default GPU pipeline (default: "
             "the device's, e.g. sm_90; sm_90 without a device)"),
    cl::value_desc("sm_XY"), cl::cat(runCategory));
cl::opt<bool> dryRun(
    "dry-run",
    cl::desc("Compile and link, check the runtime functions the host code "
             "imports, but do not run (no device needed with --gpu)"),
    cl::cat(runCategory));
cl::opt<bool> compareCPU(
    "compare-cpu",
    cl::desc("With --gpu: also run the default CPU pipeline on the same "
             "inputs and print the max abs error of every result"),
    cl::cat(runCategory));
cl::opt<double> tolerance(
    "tolerance",
    cl::desc("With --compare-cpu: fail when the max abs error exceeds T"),
    cl::value_desc("T"), cl::cat(runCategory));
cl::opt<bool> copyBaseline(
    "copy-baseline",
    cl::desc("With --gpu: also time a device-to-device copy moving the same "
             "bytes (the bandwidth ceiling)"),
    cl::cat(runCategory));
cl::opt<bool> gpuInfo(
    "gpu-info",
    cl::desc("Print the CUDA device and exit (exit status 77 without one)"),
    cl::cat(runCategory));
cl::opt<bool> listRuntimeSymbols(
    "list-runtime-symbols",
    cl::desc("Print the mgpu* functions the GPU runtime provides to host "
             "code, with their LLVM IR types, and exit"),
    cl::cat(runCategory));
unsigned threads = 0;
cl::list<std::string> sharedLibs("shared-libs", cl::CommaSeparated,
                                 cl::desc("Extra shared libraries for the JIT"),
                                 cl::value_desc("path,path,..."),
                                 cl::cat(runCategory));

} // namespace mlir::posenc::run
