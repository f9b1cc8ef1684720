//===- PosEncInterfaces.td - posenc attribute interfaces ---*- tablegen -*-===//

#ifndef POSENC_IR_POSENCINTERFACES_TD
#define POSENC_IR_POSENCINTERFACES_TD

include "mlir/IR/OpBase.td"

def PosEnc_RopeScalingAttrInterface
    : AttrInterface<"RopeScalingAttrInterface"> {
  let cppNamespace = "::mlir::posenc";
  let description = [{
    A RoPE frequency-scaling scheme (linear, NTK, YaRN, Llama 3, LongRoPE, ...),
    and the only place that knows one: `posenc.rope_frequencies` (verifier,
    folder), its lowering and posenc-fold-frequencies reach every scheme
    through these methods. The scheme says whether it needs the runtime
    sequence length, checks itself against the rotary dimension, computes its
    table at a length (fp64) and builds its runtime form. Formulas are stated
    once: the runtime form evaluates the same code as the fold, on runtime
    values (posenc/IR/ScalingFormulas.h).

    A new scheme is an attribute in PosEncAttrs.td (parameters, `verify`),
    these methods (lib/IR/RopeScaling.cpp) and its tests and docs.
  }];
  let methods = [
    InterfaceMethod<[{
        Returns true when the frequencies depend on the sequence length seen at
        run time (HF dynamic NTK, HF LongRoPE switch), so that the op needs a
        `seq_len` operand.
      }], "bool", "needsSeqLen", (ins), "", "return false;">,
    InterfaceMethod<[{
        Verifies the scheme against the rotary dimension `rotaryDim` (positive
        and even, already checked by the caller: `checkRotaryDim`).
      }], "::llvm::LogicalResult", "verifyRotaryDim",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "int64_t":$rotaryDim), "", "return ::mlir::success();">,
    InterfaceMethod<[{
        Computes the scheme's inverse frequencies (`rotaryDim / 2` values) and
        attention factor in fp64 for `base`, at the runtime sequence length
        `seqLen`: this is the table the op folds to. `seqLen` must be given
        when `needsSeqLen()` and is ignored otherwise.
      }], "void", "computeFrequencies",
      (ins "int64_t":$rotaryDim, "double":$base,
           "std::optional<int64_t>":$seqLen,
           "::llvm::SmallVectorImpl<double> &":$invFreq,
           "double &":$attentionFactor)>,
    InterfaceMethod<[{
        Runtime sequence lengths at which the table reaches its extremes or
        changes its formula (empty for static schemes). The verifier checks
        that the table is finite at each of them.
      }], "::llvm::SmallVector<int64_t>", "getCriticalSeqLens", (ins), "",
      "return {};">,
    InterfaceMethod<[{
        The scaling parameter responsible for entry `index` of the table at
        `seqLen` (for diagnostics), as its name (`factor`, `long_factor[3]`)
        and value. The default names the scheme's `factor` parameter.
      }], "std::pair<std::string, double>", "getScalingParameter",
      (ins "int64_t":$index, "std::optional<int64_t>":$seqLen), "", [{
        return {"factor", static_cast<double>($_attr.getFactor())};
      }]>,
    InterfaceMethod<[{
        Builds the runtime form of a scheme that `needsSeqLen()`: the inverse
        frequencies and attention factor as functions of the runtime sequence
        length, from `builder` (which the lowering implements). Fails when
        the scheme has none or `builder` reports an error.
      }], "::mlir::FailureOr<::mlir::posenc::RuntimeFrequencies>",
      "buildRuntimeFrequencies",
      (ins "::mlir::posenc::RuntimeFrequencyBuilder &":$builder,
           "int64_t":$rotaryDim, "double":$base), "",
      "return ::mlir::failure();">
  ];
}

#endif // POSENC_IR_POSENCINTERFACES_TD
