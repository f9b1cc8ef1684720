//===- PosEncInterfaces.td - posenc attribute interfaces ---*- tablegen -*-===//

#ifndef POSENC_IR_POSENCINTERFACES_TD
#define POSENC_IR_POSENCINTERFACES_TD

include "mlir/IR/OpBase.td"

def PosEnc_RopeScalingAttrInterface
    : AttrInterface<"RopeScalingAttrInterface"> {
  let cppNamespace = "::mlir::posenc";
  let description = [{
    A RoPE frequency-scaling scheme (linear, NTK, YaRN, Llama 3, LongRoPE, ...).
    `posenc.rope_frequencies` accepts any attribute implementing it; the
    scheme says whether it needs the runtime sequence length and checks itself
    against the rotary dimension.
  }];
  let methods = [
    InterfaceMethod<[{
        Returns true when the frequencies depend on the sequence length seen at
        run time (HF dynamic NTK, HF LongRoPE switch), so that the op needs a
        `seq_len` operand.
      }], "bool", "needsSeqLen", (ins), "", "return false;">,
    InterfaceMethod<[{
        Verifies the scheme against the rotary dimension `rotaryDim` (even and
        positive, already checked by the caller).
      }], "::llvm::LogicalResult", "verifyRotaryDim",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "int64_t":$rotaryDim), "", "return ::mlir::success();">,
    InterfaceMethod<[{
        Computes the scheme's inverse frequencies (`rotaryDim / 2` values) and
        attention factor in fp64 for `base`. `seqLen` is the runtime sequence
        length; it must be given when `needsSeqLen()` and is ignored
        otherwise.
      }], "void", "computeFrequencies",
      (ins "int64_t":$rotaryDim, "double":$base,
           "std::optional<int64_t>":$seqLen,
           "::llvm::SmallVectorImpl<double> &":$invFreq,
           "double &":$attentionFactor)>
  ];
}

#endif // POSENC_IR_POSENCINTERFACES_TD
