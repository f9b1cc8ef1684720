//===- HFConfigFuzzer.cpp - libFuzzer target: the HF config.json importer -===//
//
// Input: one option byte, then the text of a config.json. The option byte
// picks the importer options (sequence length, batch, element type, f64
// frequencies) and whether the imported module is also lowered with
// `posenc-fold-frequencies,convert-posenc-to-linalg`.
//
// Oracles (besides crashes, assertions and sanitizer reports):
// - a rejected config yields exactly one error diagnostic (the importer's
//   contract, see HFConfig.h);
// - an accepted config yields a module that verifies, prints, and parses
//   back;
// - the lowering of an imported module succeeds (or reports a table too
//   large to materialize, see kMaxConstantElements).
//
//===----------------------------------------------------------------------===//

#include "TextMutator.h"

#include "posenc/InitPosEnc.h"
#include "posenc/Target/HFConfig.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    posenc::registerHFImportDialects(*r);
    posenc::registerPosEncDialects(*r);
    r->insert<func::FuncDialect>();
    return r;
  }();
  return *registry;
}

/// Inputs / imported / rejected / lowered.
uint64_t numInputs = 0, numImported = 0, numRejected = 0, numLowered = 0;

/// Appends `hf-config-fuzzer <inputs> <imported> <rejected> <lowered>` to
/// $POSENC_FUZZ_STATS at exit (scripts/fuzz.sh sums the lines).
void writeStats() {
  const char *path = std::getenv("POSENC_FUZZ_STATS");
  if (!path)
    return;
  if (FILE *file = std::fopen(path, "a")) {
    std::fprintf(file, "hf-config-fuzzer\t%llu\t%llu\t%llu\t%llu\n",
                 static_cast<unsigned long long>(numInputs),
                 static_cast<unsigned long long>(numImported),
                 static_cast<unsigned long long>(numRejected),
                 static_cast<unsigned long long>(numLowered));
    std::fclose(file);
  }
}

[[noreturn]] void fail(const Twine &what, StringRef json) {
  llvm::errs() << "posenc-hf-config-fuzzer: " << what
               << "\n--- config.json ---\n"
               << json << "\n";
  llvm::errs().flush();
  std::abort();
}

} // namespace

/// Replacement candidates of the token mutator: numbers at the edges of the
/// importer's ranges (2^40 cap, overflow to Inf, fractions that truncate),
/// and config keys and values (strings are quoted by the mutator).
constexpr const char *kNumbers[] = {"0",
                                    "1",
                                    "2",
                                    "3",
                                    "-1",
                                    "4",
                                    "7",
                                    "8",
                                    "32",
                                    "64",
                                    "128",
                                    "4096",
                                    "131072",
                                    "1099511627776",
                                    "1099511627777",
                                    "9223372036854775807",
                                    "9223372036854775808",
                                    "18446744073709551616",
                                    "0.0",
                                    "-0.0",
                                    "0.25",
                                    "0.4",
                                    "0.5",
                                    "0.999",
                                    "1.0",
                                    "1.5",
                                    "2.0",
                                    "8.0",
                                    "1e-300",
                                    "1e300",
                                    "1e999",
                                    "-1e999",
                                    "4096.0",
                                    "4096.5",
                                    "null",
                                    "true",
                                    "false",
                                    "[]",
                                    "{}",
                                    "[1.0, 1.0]",
                                    "\"32\""};
constexpr const char *kWords[] = {
    // Keys.
    "model_type", "architectures", "dtype", "torch_dtype",
    "num_attention_heads", "num_key_value_heads", "head_dim", "hidden_size",
    "n_head", "n_embed", "n_heads", "d_model", "partial_rotary_factor",
    "rope_theta", "rope_scaling", "rope_parameters", "rope_type", "type",
    "factor", "original_max_position_embeddings", "max_position_embeddings",
    "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow", "mscale",
    "mscale_all_dim", "attention_factor", "truncate", "short_factor",
    "long_factor", "rope_interleave", "qk_rope_head_dim", "qk_nope_head_dim",
    "v_head_dim", "attn_config", "alibi", "alibi_bias_max", "attn_type",
    "kv_n_heads", "prefix_lm", "softmax_scale", "rotary_pct", "rotary_emb_base",
    "rotary_dim", "full_attention", "sliding_attention", "",
    // Values.
    "default", "linear", "dynamic", "ntk", "yarn", "llama3", "longrope", "su",
    "mrope", "", "llama", "bloom", "mpt", "deepseek_v3", "gpt_oss", "phi3",
    "qwen2", "", "float32", "float16", "bfloat16", "torch.float16", "float64",
    "half", "float", "", "multihead_attention", "multiquery_attention",
    "grouped_query_attention"};

/// libMLIR.so is not instrumented, but LLVM's BumpPtrAllocator poisons and
/// unpoisons its slabs from whichever code inlines it: allocations made by
/// libMLIR's copy stay poisoned for ours (false use-after-poison reports).
/// scripts/fuzz.sh and scripts/test-sanitizers.sh set the same option.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  posenc::registerPosEncPasses();
  std::atexit(writeStats);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  return posenc_fuzz::mutateInput(data, size, maxSize, seed, kNumbers, kWords);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  ++numInputs;
  uint8_t flags = data[0];
  StringRef json(reinterpret_cast<const char *>(data + 1), size - 1);

  posenc::HFImportOptions opts;
  constexpr int64_t kSeqLens[] = {0, 1, 7, 4096};
  if (int64_t seqLen = kSeqLens[flags & 3])
    opts.seqLen = seqLen;
  opts.batch = (flags & 4) ? 3 : 1;
  switch ((flags >> 3) & 3) {
  case 0:
    break; // from the config
  case 1:
    opts.elementType = posenc::HFElementType::f32;
    break;
  case 2:
    opts.elementType = posenc::HFElementType::f16;
    break;
  case 3:
    opts.elementType = posenc::HFElementType::bf16;
    break;
  }
  opts.f64Frequencies = flags & 32;
  bool lower = flags & 64;

  MLIRContext ctx(getRegistry(), MLIRContext::Threading::DISABLED);
  int errors = 0;
  ScopedDiagnosticHandler count(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return success();
  });
  FailureOr<OwningOpRef<ModuleOp>> module =
      posenc::importHFConfig(json, &ctx, opts);
  if (failed(module)) {
    if (errors != 1)
      fail("rejected with " + Twine(errors) + " errors (expected exactly 1)",
           json);
    ++numRejected;
    return 0;
  }
  ++numImported;
  if (errors != 0)
    fail("accepted with " + Twine(errors) + " errors", json);
  if (failed(verify(**module)))
    fail("imported module does not verify", json);

  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    (*module)->print(os);
  }
  ParserConfig config(&ctx, /*verifyAfterParse=*/true);
  if (!parseSourceString<ModuleOp>(printed, config))
    fail("imported module does not parse back:\n" + printed, json);

  if (lower) {
    PassManager pm = PassManager::on<ModuleOp>(&ctx);
    pm.enableVerifier(true);
    if (failed(parsePassPipeline(
            "posenc-fold-frequencies,convert-posenc-to-linalg", pm,
            llvm::errs())))
      fail("cannot build the lowering pipeline", json);
    // The one accepted failure: a table beyond kMaxConstantElements (a huge
    // head dim), which the lowering reports as such.
    std::string diagnostics;
    ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return success();
    });
    if (failed(pm.run(**module))) {
      if (StringRef(diagnostics).contains("the lowering materializes"))
        return 0;
      fail("lowering of the imported module failed:\n" + diagnostics + printed,
           json);
    }
    ++numLowered;
  }
  return 0;
}
