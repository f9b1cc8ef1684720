//===- PassFuzzer.cpp - libFuzzer target: parse, verify, run a posenc pass ===//
//
// Input: one selector byte, then MLIR text. The selector picks one entry of
// the target list (byte % size): every pass and pass pipeline that
// `registerPosEncPasses()` registers (enumerated from the global registry
// before the upstream passes are registered, so new posenc passes and
// pipelines are fuzzed without touching this file) plus a few fixed chains,
// each in two hosts: "full" (every upstream dialect and extension, as
// posenc-opt and mlir-opt have) and "minimal" (only what
// `registerPosEncDialects()` and func provide, as a lean embedding host).
//
// Each input is parsed and verified in a fresh context; IR that does not
// verify stops there (it must never reach a pass). Verified IR must print
// and parse back, then the selected pipeline runs, verifying after every
// pass. Diagnostics (parse errors, verifier errors, a pass that fails) are
// fine; crashes, assertions, sanitizer reports, hangs, round-trip failures
// and a pass that succeeds but leaves IR that does not verify are bugs.
// Inputs that do not parse or verify are kept out of the corpus (-1), and
// a custom mutator (TextMutator.h) keeps most mutants parseable.
//
// `POSENC_FUZZ_LIST_TARGETS=1 posenc-pass-fuzzer` prints the target list
// (index, name, pipeline, host) and exits; scripts/fuzz.sh passes its length
// to fuzz/make-seeds.py. With `POSENC_FUZZ_STATS=FILE`, each process appends
// per-target counts to FILE at exit (see writeStats); POSENC_FUZZ_DEBUG=1
// prints the diagnostics of each input; `POSENC_FUZZ_TARGETS=REGEX` fuzzes
// only the targets whose pipeline matches (the selector picks among them),
// to give a slow or rarely reached target more executions. See
// docs/testing.md.
//
//===----------------------------------------------------------------------===//

#include "TextMutator.h"

#include "posenc/IR/PosEncDialect.h"
#include "posenc/InitPosEnc.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// One fuzzed configuration: a textual pipeline nested under the module.
struct Target {
  std::string name;
  std::string pipeline;
  bool minimalHost;
  /// Whether the input may hold ops of unregistered dialects (the raising
  /// passes, which read importer output).
  bool allowUnregistered = false;
  /// Inputs that selected this target / parsed and verified (so ran the
  /// pipeline) / of those, contained posenc ops / the pipeline succeeded.
  uint64_t selected = 0, ran = 0, ranOnPosEnc = 0, succeeded = 0;
};

/// Pipelines beyond single registry entries, in the order a compiler runs
/// them. Entries naming a pass that is not registered are dropped.
constexpr const char *kChains[] = {
    "posenc-fold-frequencies,convert-posenc-to-linalg",
    "posenc-fold-frequencies,convert-posenc-to-linalg,"
    "func.func(posenc-tile-and-vectorize)",
    "convert-posenc-to-linalg,func.func(posenc-tile-and-vectorize{vector-"
    "width=1})",
    "convert-posenc-to-linalg,func.func(posenc-tile-and-vectorize{vector-"
    "width=7})",
};

/// A lean host: posenc's own dialect list and func, nothing else.
DialectRegistry &getMinimalRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    posenc::registerPosEncDialects(*r);
    r->insert<func::FuncDialect>();
    return r;
  }();
  return *registry;
}

/// A full host: every upstream dialect (with its interface models, e.g.
/// bufferization's) and extension, as posenc-opt and mlir-opt have.
DialectRegistry &getFullRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    registerAllDialects(*r);
    registerAllExtensions(*r);
    posenc::registerPosEncDialects(*r);
    return r;
  }();
  return *registry;
}

/// Names of every registered pass and pass pipeline. A pass-name parser with
/// an empty argument registers each registry entry as its own command-line
/// literal (mlir-opt's `--cse`), which makes the registry enumerable.
std::vector<std::string> getRegisteredPassArguments() {
  static auto *parser =
      new PassNameCLParser("", "passes and pipelines to fuzz");
  (void)parser;
  std::vector<std::string> names;
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    StringRef name = entry.first;
    if (PassInfo::lookup(name) || PassPipelineInfo::lookup(name))
      names.push_back(name.str());
  }
  llvm::sort(names);
  return names;
}

/// Runs `pipeline` (nested under the module) on a module with one function.
bool runsOnTrivialModule(StringRef pipeline) {
  MLIRContext ctx(getFullRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      "func.func @f() { return }", ParserConfig(&ctx));
  PassManager pm = PassManager::on<ModuleOp>(&ctx);
  return module && succeeded(parsePassPipeline(pipeline, pm, llvm::nulls())) &&
         succeeded(pm.run(*module));
}

/// How to nest registry entry `name` under the module: by its anchor op when
/// it has one, directly when it runs on a module, else on every op of the
/// module it can be scheduled on (`any`, e.g. function interface passes).
std::string nestedPipeline(StringRef name) {
  if (const PassInfo *info = PassInfo::lookup(name)) {
    OpPassManager probe;
    auto ignore = [](const Twine &) { return failure(); };
    if (succeeded(info->addToPipeline(probe, "", ignore)) &&
        probe.size() == 1) {
      std::optional<StringRef> anchor = probe.getPasses().begin()->getOpName();
      if (anchor && *anchor == ModuleOp::getOperationName())
        return name.str();
      if (anchor)
        return (*anchor + "(" + name + ")").str();
    }
  }
  if (runsOnTrivialModule(name))
    return name.str();
  return ("any(" + name + ")").str();
}

std::vector<Target> &getTargets() {
  static std::vector<Target> *targets = [] {
    auto *list = new std::vector<Target>;
    // The targets are the entries registered so far (posenc's alone); then
    // come the upstream passes that posenc's pipelines are built from.
    std::vector<std::string> names = getRegisteredPassArguments();
    registerAllPasses();
    std::vector<std::pair<std::string, std::string>> pipelines;
    for (const std::string &name : names)
      pipelines.emplace_back(name, nestedPipeline(name));
    for (const char *chain : kChains) {
      MLIRContext ctx(getFullRegistry());
      PassManager pm = PassManager::on<ModuleOp>(&ctx);
      if (succeeded(parsePassPipeline(chain, pm, llvm::nulls())))
        pipelines.emplace_back("chain", chain);
    }
    for (bool minimalHost : {false, true})
      for (auto &[name, pipeline] : pipelines) {
        StringRef p = pipeline;
        list->push_back({name, pipeline, minimalHost,
                         p.contains("posenc-raise-") ||
                             p.contains("posenc-fuse-attention")});
      }
    return list;
  }();
  return *targets;
}

/// The targets the selector byte picks from: those whose pipeline matches
/// $POSENC_FUZZ_TARGETS, or all of them.
std::vector<Target *> &getSelectableTargets() {
  static std::vector<Target *> *selectable = [] {
    auto *list = new std::vector<Target *>;
    const char *pattern = std::getenv("POSENC_FUZZ_TARGETS");
    llvm::Regex regex(pattern ? pattern : ".*");
    std::string error;
    if (!regex.isValid(error)) {
      llvm::errs() << "posenc-pass-fuzzer: POSENC_FUZZ_TARGETS: " << error
                   << '\n';
      std::abort();
    }
    for (Target &target : getTargets())
      if (regex.match(target.pipeline))
        list->push_back(&target);
    return list;
  }();
  return *selectable;
}

[[noreturn]] void fail(const Twine &what, StringRef text) {
  llvm::errs() << "posenc-pass-fuzzer: " << what << "\n--- input IR ---\n"
               << text << "\n";
  llvm::errs().flush();
  std::abort();
}

/// Verifies the IR after every pass that reports success: a pass may fail
/// on IR it cannot handle, but must not claim success and leave IR that does
/// not verify (the pass manager's own verifier would report both alike).
struct VerifyAfterSuccess : PassInstrumentation {
  explicit VerifyAfterSuccess(StringRef input) : input(input) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    std::string diagnostics;
    {
      ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
        diagnostics += d.str() + "\n";
        return success();
      });
      if (succeeded(verify(op)))
        return;
    }
    std::string ir;
    llvm::raw_string_ostream os(ir);
    op->print(os, OpPrintingFlags().printGenericOpForm().assumeVerified());
    fail(Twine("pass '") + pass->getName() +
             "' succeeded but the IR does not verify:\n" + diagnostics +
             "--- IR after the pass ---\n" + ir,
         input);
  }

  StringRef input;
};

/// Appends one line per target to $POSENC_FUZZ_STATS: `pass-fuzzer <index>
/// <selected> <ran> <ran-on-posenc> <succeeded> <host> <pipeline>`, tab
/// separated (scripts/fuzz.sh sums the lines of all processes).
void writeStats() {
  const char *path = std::getenv("POSENC_FUZZ_STATS");
  if (!path)
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [i, t] : llvm::enumerate(getTargets()))
    os << "pass-fuzzer\t" << i << '\t' << t.selected << '\t' << t.ran << '\t'
       << t.ranOnPosEnc << '\t' << t.succeeded << '\t'
       << (t.minimalHost ? "minimal" : "full") << '\t' << t.pipeline << '\n';
  if (FILE *file = std::fopen(path, "a")) {
    std::fwrite(text.data(), 1, text.size(), file);
    std::fclose(file);
  }
}

} // namespace

/// Whether a `dimensions` or `permutation` keyword (linalg.broadcast,
/// linalg.reduce, linalg.transpose) is followed by anything but a plain
/// `= [integers]`, comma separated. On any other text (`dimensions = [?]`,
/// `dimensions =  0]`, `dimensions =token_dim [1]`, `permutation = [0, 2 3,
/// 1]`) their parsers store a null attribute after the error (SEGV in
/// NamedAttrList::set; stock mlir-opt 22 crashes alike). Not reported
/// upstream as far as we found.
static bool hasMalformedDimensionList(StringRef text) {
  static llvm::Regex wellFormed(
      "^[[:space:]]*=[[:space:]]*\\[[[:space:]]*(-?[0-9]+[[:space:]]*"
      "(,[[:space:]]*-?[0-9]+[[:space:]]*)*)?\\]");
  for (StringRef keyword : {"dimensions", "permutation"}) {
    for (size_t at = text.find(keyword); at != StringRef::npos;
         at = text.find(keyword, at + 1)) {
      StringRef rest = text.substr(at + keyword.size());
      // Part of a longer name (`dimensions_x`, `%permutation`): not linalg's.
      if (!rest.empty() && (llvm::isAlnum(rest.front()) || rest.front() == '_'))
        continue;
      if (!wellFormed.match(rest))
        return true;
    }
  }
  return false;
}

/// Inputs that crash MLIR 22's own parser (libMLIR.so, not posenc code) are
/// skipped, so that the fuzzer keeps looking for posenc bugs. Each entry
/// names the upstream report.
static bool hitsKnownUpstreamCrash(StringRef text) {
  // `array<index: ...>`: Parser::parseDenseArrayAttr takes the bit width of
  // `index` (null dereference in release builds). llvm/llvm-project#179045,
  // fixed by #179075 after 22.1.8.
  static llvm::Regex denseArrayOfIndex("array[[:space:]]*<[[:space:]]*index");
  // `%r#2147483647`: the parser sizes the result list of %r to the number
  // used (forward references), 8 GB here; stock mlir-opt 22 runs out of
  // memory alike. Not reported upstream as far as we found.
  static llvm::Regex hugeResultNumber("#[0-9]{7,}");
  return denseArrayOfIndex.match(text) || hugeResultNumber.match(text) ||
         hasMalformedDimensionList(text);
}

/// Memrefs whose layout is not strided (`affine_map<(d0, d1) -> (d1 mod 4,
/// d0)>`): MLIR 22's ownership-based buffer deallocation (in
/// posenc-cpu-pipeline's buffer-deallocation-pipeline) takes
/// `memref.extract_strided_metadata` of every memref argument, which does
/// not verify on them, and reports success. Not a posenc issue; not
/// reported upstream as far as we found.
static bool hasNonStridedMemRef(ModuleOp module) {
  auto nonStrided = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && !memref.isStrided();
  };
  return module
      ->walk([&](Operation *op) {
        for (Region &region : op->getRegions())
          for (Block &block : region)
            if (llvm::any_of(block.getArgumentTypes(), nonStrided))
              return WalkResult::interrupt();
        if (llvm::any_of(op->getOperandTypes(), nonStrided) ||
            llvm::any_of(op->getResultTypes(), nonStrided))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Two more MLIR 22 issues that user IR reaches through the upstream passes
/// of posenc-cpu-pipeline (not posenc code; not reported upstream as far as
/// we found):
/// - vectors of more than 2^16 elements in the input: upstream vector
///   lowering patterns abort ("SmallVector unable to grow") on 2^31 lanes;
/// - tensor.collapse_shape/expand_shape whose reassociation is not
///   0, 1, ..., rank-1 in order: the tensor verifiers accept some such
///   groups ([[huge], [1], [2, 3]]), one-shot-bufferize copies them into
///   memref reshapes, whose verifiers reject them.
static bool hasHugeVectorOrOddReshape(ModuleOp module) {
  auto huge = [](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    return vector && vector.getNumElements() > (int64_t(1) << 16);
  };
  auto odd = [](ArrayRef<ReassociationIndices> groups) {
    int64_t next = 0;
    for (const ReassociationIndices &group : groups)
      for (int64_t index : group)
        if (index != next++)
          return true;
    return false;
  };
  return module
      ->walk([&](Operation *op) {
        if (llvm::any_of(op->getOperandTypes(), huge) ||
            llvm::any_of(op->getResultTypes(), huge))
          return WalkResult::interrupt();
        if (auto c = dyn_cast<tensor::CollapseShapeOp>(op);
            c && odd(c.getReassociationIndices()))
          return WalkResult::interrupt();
        if (auto e = dyn_cast<tensor::ExpandShapeOp>(op);
            e && odd(e.getReassociationIndices()))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Ops of dialect `ns` in the input. MLIR 22's ownership-based buffer
/// deallocation, part of posenc-cpu-pipeline and posenc-gpu-pipeline
/// (which create such ops themselves, after it), reports success on IR it
/// breaks: it inserts ops into `omp.wsloop`, a loop wrapper that must hold
/// exactly its loop nest, and gives `gpu.launch` workgroup attributions
/// that are not memrefs ("expected memref type in attribution"). Not posenc
/// issues; the passes that work on OpenMP or GPU IR
/// (posenc-nontemporal-stores, the GPU passes) are still fuzzed on it.
static bool hasDialectOps(ModuleOp module, StringRef ns) {
  return module
      ->walk([&](Operation *op) {
        return op->getDialect() && op->getDialect()->getNamespace() == ns
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Replacement candidates of the token mutator: extents and attribute values
/// at the edges, and the element types, keywords and parameter names of the
/// posenc syntax (the input's own identifiers are candidates too).
constexpr const char *kNumbers[] = {"0",
                                    "1",
                                    "2",
                                    "3",
                                    "-1",
                                    "-2",
                                    "7",
                                    "8",
                                    "16",
                                    "63",
                                    "64",
                                    "65",
                                    "127",
                                    "128",
                                    "1024",
                                    "65536",
                                    "65537",
                                    "2147483647",
                                    "2147483648",
                                    "4294967296",
                                    "1099511627776",
                                    "4611686018427387903",
                                    "4611686018427387904",
                                    "9223372036854775806",
                                    "9223372036854775807",
                                    "-9223372036854775808",
                                    "0.0",
                                    "-0.0",
                                    "0.5",
                                    "1.0",
                                    "1.5",
                                    "2.0",
                                    "1.000000e+00",
                                    "1.0e+308",
                                    "-1.0e+308",
                                    "1.0e-308",
                                    "4.9e-324",
                                    "1e999",
                                    "0x7FF8000000000000",
                                    "0x7FF0000000000000",
                                    "0xFFF0000000000000"};
constexpr const char *kWords[] = {
    // Element types.
    "f16", "bf16", "f32", "f64", "", "i1", "i8", "i16", "i32", "i64", "i128",
    "index", "",
    // Enum cases.
    "half_split", "interleaved", "concatenated", "chunked", "", "symmetric",
    "key_linear", "", "bottom_right", "top_left", "", "hf", "vllm",
    "vllm_legacy", "fixed_short", "fixed_long", "", "true", "false", "",
    // Attribute parameters.
    "factor", "num_heads", "head_offset", "max_bias",
    "original_max_position_embeddings", "max_position_embeddings", "beta_fast",
    "beta_slow", "truncate", "mscale", "mscale_all_dim", "attention_factor",
    "low_freq_factor", "high_freq_factor", "short_factor", "long_factor",
    "select", "form", "rule", "layout", "rotary_dim", "",
    // Op clauses.
    "scale", "causal", "rope", "alibi", "positions", "offset",
    "attention_factor", "inv_freq", "cos_sin", "q_positions", "k_positions",
    "slopes", "seq_len", "scaling", "token_dim", "mrope_sections",
    "mrope_layout", "",
    // Attribute and op names.
    "posenc.linear", "posenc.ntk", "posenc.dynamic_ntk", "posenc.yarn",
    "posenc.llama3", "posenc.longrope", "", "posenc.alibi_slopes",
    "posenc.rope", "", "posenc.rotary", "posenc.alibi", "posenc.sinusoidal",
    "posenc.learned_absolute", "posenc.attention", "posenc.rope_frequencies"};

/// libMLIR.so is not instrumented, but LLVM's BumpPtrAllocator poisons and
/// unpoisons its slabs from whichever code inlines it: allocations made by
/// libMLIR's copy stay poisoned for ours (false use-after-poison reports).
/// scripts/fuzz.sh and scripts/test-sanitizers.sh set the same option.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  posenc::registerPosEncPasses();
  std::vector<Target> &targets = getTargets();
  if (targets.empty()) {
    llvm::errs() << "posenc-pass-fuzzer: no passes registered\n";
    std::abort();
  }
  if (getSelectableTargets().empty()) {
    llvm::errs() << "posenc-pass-fuzzer: no target matches "
                    "POSENC_FUZZ_TARGETS\n";
    std::abort();
  }
  std::atexit(writeStats);
  if (std::getenv("POSENC_FUZZ_LIST_TARGETS")) {
    for (auto [i, target] : llvm::enumerate(targets))
      llvm::outs() << i << '\t' << target.name << '\t' << target.pipeline
                   << '\t' << (target.minimalHost ? "minimal" : "full") << '\n';
    llvm::outs().flush();
    std::exit(0);
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  return posenc_fuzz::mutateInput(data, size, maxSize, seed, kNumbers, kWords);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  std::vector<Target *> &targets = getSelectableTargets();
  Target &target = *targets[data[0] % targets.size()];
  ++target.selected;
  // MLIR's lexer reads the NUL after the buffer (files and std::strings
  // have one; libFuzzer's data does not): parse a copy.
  std::string input(reinterpret_cast<const char *>(data + 1), size - 1);
  StringRef text = input;
  // Bytecode goes to the upstream bytecode reader, not to posenc code.
  if (text.starts_with("ML\xEFR") || hitsKnownUpstreamCrash(text))
    return -1;

  MLIRContext ctx(target.minimalHost ? getMinimalRegistry() : getFullRegistry(),
                  MLIRContext::Threading::DISABLED);
  // The raising passes take importer output as posenc-opt
  // --allow-unregistered-dialect reads it: ops of dialects posenc does not
  // register (torch-mlir's tm_tensor.scan/sort, printed generic) are part of
  // the exported models (test/Raising/Models) and of raising tests, and
  // posenc-raise-alibi matches tm_tensor.scan by name.
  ctx.allowUnregisteredDialects(target.allowUnregistered);
  // Diagnostics are expected and dropped; POSENC_FUZZ_DEBUG=1 prints them
  // (why an input did not reach or pass a pipeline).
  static const bool debug = std::getenv("POSENC_FUZZ_DEBUG");
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &diag) {
    if (debug)
      llvm::errs() << diag.getLocation() << ": " << diag << '\n';
    return success();
  });
  ParserConfig parseOnly(&ctx, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, parseOnly);
  // Syntax errors stay out of the corpus (-1): they mostly exercise the
  // uninstrumented upstream parser, and mutants of parseable IR reach posenc
  // code far more often.
  if (!module)
    return -1;
  // IR that does not verify never reaches a pass. Most mutants of valid IR
  // fail here, so the verifiers are exercised all the time; keeping such
  // inputs out of the corpus keeps it made of IR that reaches the passes
  // (POSENC_FUZZ_KEEP_INVALID=1 keeps them, for verifier-focused runs).
  static const bool keepInvalid = std::getenv("POSENC_FUZZ_KEEP_INVALID");
  if (failed(verify(*module)))
    return keepInvalid ? 0 : -1;
  if (hasNonStridedMemRef(*module) || hasHugeVectorOrOddReshape(*module) ||
      ((StringRef(target.pipeline).contains("posenc-cpu-pipeline") ||
        StringRef(target.pipeline).contains("posenc-gpu-pipeline")) &&
       (hasDialectOps(*module, "omp") || hasDialectOps(*module, "gpu"))))
    return -1;
  ParserConfig config(&ctx, /*verifyAfterParse=*/true);

  // Whatever verifies prints in a form that parses and verifies again.
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  if (!parseSourceString<ModuleOp>(printed, config))
    fail("verified IR does not parse back after printing:\n" + printed, text);

  ++target.ran;
  if (module
          ->walk([](Operation *op) {
            return isa_and_present<posenc::PosEncDialect>(op->getDialect())
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted())
    ++target.ranOnPosEnc;

  PassManager pm = PassManager::on<ModuleOp>(&ctx);
  pm.enableVerifier(false); // VerifyAfterSuccess verifies, more strictly
  pm.addInstrumentation(std::make_unique<VerifyAfterSuccess>(text));
  if (failed(parsePassPipeline(target.pipeline, pm, llvm::errs())))
    fail("cannot build pipeline '" + target.pipeline + "'", text);
  if (succeeded(pm.run(*module))) {
    ++target.succeeded;
    // The result must print (it verified after every pass).
    std::string result;
    llvm::raw_string_ostream os(result);
    module->print(os);
  }
  return 0;
}
