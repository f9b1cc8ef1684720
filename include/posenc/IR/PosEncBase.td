//===- PosEncBase.td - posenc dialect definition -----------*- tablegen -*-===//
//
// The posenc dialect: positional encodings as first-class operations.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_IR_POSENCBASE_TD
#define POSENC_IR_POSENCBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def PosEnc_Dialect : Dialect {
  let name = "posenc";
  let cppNamespace = "::mlir::posenc";
  let summary = "Positional encodings (RoPE, ALiBi, sinusoidal, learned) as first-class ops";
  let description = [{
    The `posenc` dialect names positional encodings instead of leaving them as
    anonymous elementwise arithmetic: rotary embeddings (RoPE) with every
    published frequency-scaling scheme, ALiBi biases, sinusoidal and learned
    absolute tables, and an attention op that carries its positional
    configuration so that it can be lowered into one fused kernel.

    Numerics follow Hugging Face transformers v5 by default. Every place where
    production implementations (HF, vLLM, llama.cpp) disagree is an explicit,
    named option of an attribute or op, never an accident of the lowering.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
  private:
    void registerAttributes();
  public:
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
  // `posenc.reduced_angle` on a math.sin/math.cos: its operand is an angle
  // the lowering reduced to [-pi, pi] (in f64), so that the short polynomial
  // of posenc-approximate-trig is accurate on it.
  // `posenc.softcap_tanh` on a math.tanh: the soft-capping of a
  // posenc.attention logit, which posenc-approximate-trig{tanh} replaces by
  // its polynomial (user tanh, e.g. in GELU, keeps libm's unless asked).
  let discardableAttrs = (ins "::mlir::UnitAttr":$reduced_angle,
                              "::mlir::UnitAttr":$softcap_tanh);
}

// Base class of posenc ops: every op has a verifier.
class PosEnc_Op<string mnemonic, list<Trait> traits = []>
    : Op<PosEnc_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
}

class PosEnc_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<PosEnc_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // POSENC_IR_POSENCBASE_TD
