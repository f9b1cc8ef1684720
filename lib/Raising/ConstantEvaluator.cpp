//===- ConstantEvaluator.cpp - tensors the IR computes from constants -----===//
//
// Importers compute masks, position tables and ALiBi slopes from constants
// with fills, reshapes, cumsum scans, gathers, integer reductions and
// elementwise generics. This file
// evaluates such IR element by element, as the program would compute it
// (see evaluateConstantTensor in Match.h).
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluatorOps.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <memory>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {
/// Evaluates static tensors computed from constants (see
/// evaluateConstantTensor); memoized per value.
class ConstantEvaluator {
public:
  explicit ConstantEvaluator(int64_t maxElements, bool symbolicKeys = false)
      : maxElements(maxElements), symbolicKeys(symbolicKeys) {}

  /// With symbolic keys: the [B, Sk] i1 tensor taken as the symbol.
  Value keys;

  const SmallVector<double> *eval(Value v) {
    if (auto it = cache.find(v); it != cache.end())
      return it->second.get();
    cache[v] = nullptr; // cuts cycles and repeated failures
    std::optional<SmallVector<double>> result = compute(v);
    if (!result)
      result = symbolOf(v);
    if (!result)
      return nullptr;
    // Heap storage: the pointer stays valid while the cache grows.
    auto stored = std::make_unique<SmallVector<double>>(std::move(*result));
    const SmallVector<double> *ptr = stored.get();
    cache[v] = std::move(stored);
    return ptr;
  }

private:
  static constexpr double kLiteral = KeyMaskedTensor::kKeyLiteral;

  /// Whether `x` of type `t` is an element of the symbol (an i1 above 1).
  static bool isLiteral(Type t, double x) {
    return x >= kLiteral && getElementTypeOrSelf(t).isInteger(1);
  }

  /// `v` as the symbol: the first [B, Sk] i1 tensor that has no value.
  std::optional<SmallVector<double>> symbolOf(Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!symbolicKeys || keys || !type || type.getRank() != 2 ||
        !type.hasStaticShape() || !type.getElementType().isInteger(1) ||
        type.getNumElements() > maxElements)
      return std::nullopt;
    keys = v;
    SmallVector<double> values(type.getNumElements());
    for (auto [k, x] : llvm::enumerate(values))
      x = kLiteral + double(k);
    return values;
  }

  std::optional<SmallVector<double>> compute(Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    // The size in double: getNumElements wraps for shapes such as
    // 2^32 x 2^32 (to 0, which would pass the limit).
    double size = 1.0;
    for (int64_t d : type.getShape())
      size *= double(d);
    if (size > double(maxElements))
      return std::nullopt;
    int64_t n = type.getNumElements();
    Attribute attr;
    if (matchPattern(v, m_Constant(&attr)))
      return fromAttr(attr, n);
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
      const SmallVector<double> *src = eval(def->getOperand(0));
      return src ? std::optional(*src) : std::nullopt;
    }
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
      return evalSlice(slice);
    if (auto fill = dyn_cast<linalg::FillOp>(def)) {
      std::optional<double> x = scalarConstant(fill.getInputs()[0]);
      if (!x)
        return std::nullopt;
      return SmallVector<double>(n, *x);
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(def))
      return evalGeneric(generic, cast<OpResult>(v).getResultNumber());
    if (std::optional<CumsumScan> scan = matchCumsumScan(def);
        scan && cast<OpResult>(v).getResultNumber() == 0)
      return evalCumsum(*scan, type);
    return std::nullopt;
  }

  /// A static slice (IREE's GatherND reads index columns of a constant).
  std::optional<SmallVector<double>> evalSlice(tensor::ExtractSliceOp slice) {
    RankedTensorType srcType = slice.getSourceType();
    if (!srcType.hasStaticShape() || slice.getOffsets().size() ||
        slice.getSizes().size() || slice.getStrides().size())
      return std::nullopt;
    const SmallVector<double> *src = eval(slice.getSource());
    if (!src)
      return std::nullopt;
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    ArrayRef<int64_t> strides = slice.getStaticStrides();
    int64_t rank = srcType.getRank();
    SmallVector<int64_t> srcStrides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      srcStrides[d] = srcStrides[d + 1] * srcType.getDimSize(d + 1);
    SmallVector<double> out;
    SmallVector<int64_t> index(rank, 0);
    int64_t n = 1;
    for (int64_t size : sizes)
      n *= size;
    for (int64_t k = 0; k < n; ++k) {
      int64_t at = 0;
      for (int64_t d = 0; d < rank; ++d)
        at += (offsets[d] + index[d] * strides[d]) * srcStrides[d];
      out.push_back((*src)[at]);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < sizes[d])
          break;
        index[d] = 0;
      }
    }
    return out;
  }

  /// The running sums of a cumsum scan, each rounded to the element type.
  std::optional<SmallVector<double>> evalCumsum(const CumsumScan &scan,
                                                RankedTensorType type) {
    const SmallVector<double> *in = eval(scan.input);
    const SmallVector<double> *acc =
        scan.inclusive ? nullptr : eval(scan.accumulator);
    if (!in || (!scan.inclusive && !acc))
      return std::nullopt;
    if (symbolicKeys && (containsLiteral(scan.input, *in) ||
                         (acc && containsLiteral(scan.accumulator, *acc))))
      return std::nullopt;
    ArrayRef<int64_t> shape = type.getShape();
    int64_t len = shape[scan.dimension], inner = 1;
    for (int64_t d = scan.dimension + 1; d < type.getRank(); ++d)
      inner *= shape[d];
    int64_t n = type.getNumElements();
    SmallVector<double> out(n);
    if (n == 0)
      return out;
    Type elementType = type.getElementType();
    for (int64_t outer = 0; outer < n / (len * inner); ++outer) {
      for (int64_t i = 0; i < inner; ++i) {
        int64_t base = outer * len * inner + i;
        // inclusive: out[t] = out[t-1] + in[t]; exclusive: out[0] = acc,
        // out[t] = out[t-1] + in[t-1].
        double sum = scan.inclusive ? 0.0 : (*acc)[outer * inner + i];
        for (int64_t t = 0; t < len; ++t) {
          double x = (*in)[base + t * inner];
          if (scan.inclusive) {
            sum = t == 0 ? x : roundTo(elementType, sum + x);
            out[base + t * inner] = sum;
          } else {
            out[base + t * inner] = sum;
            sum = roundTo(elementType, sum + x);
          }
        }
      }
    }
    return out;
  }

  static bool containsLiteral(Value v, ArrayRef<double> values) {
    return llvm::any_of(values,
                        [&](double x) { return isLiteral(v.getType(), x); });
  }

  static std::optional<double> scalarConstant(Value v) {
    if (std::optional<double> f = getConstantFloat(v))
      return f;
    APInt i;
    if (matchPattern(v, m_ConstantInt(&i)))
      return i.getBitWidth() == 1 ? double(i.getZExtValue())
                                  : double(i.getSExtValue());
    return std::nullopt;
  }

  static std::optional<SmallVector<double>> fromAttr(Attribute attr,
                                                     int64_t n) {
    SmallVector<double> values;
    if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
      for (const APFloat &x : dense.getValues<APFloat>())
        values.push_back(x.convertToDouble());
    } else if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
      bool isBool = dense.getElementType().isInteger(1);
      for (const APInt &x : dense.getValues<APInt>())
        values.push_back(isBool ? double(x.getZExtValue())
                                : double(x.getSExtValue()));
    } else if (auto res = dyn_cast<DenseF32ResourceElementsAttr>(attr)) {
      std::optional<ArrayRef<float>> data = res.tryGetAsArrayRef();
      if (!data)
        return std::nullopt;
      values.assign(data->begin(), data->end());
    } else if (auto res = dyn_cast<DenseI64ResourceElementsAttr>(attr)) {
      std::optional<ArrayRef<int64_t>> data = res.tryGetAsArrayRef();
      if (!data)
        return std::nullopt;
      for (int64_t x : *data)
        values.push_back(double(x));
    } else {
      return std::nullopt;
    }
    if (int64_t(values.size()) == 1 && n != 1)
      values.assign(n, values.front());
    if (int64_t(values.size()) != n)
      return std::nullopt;
    return values;
  }

  /// An input of a generic, read at `sum(index[dim] * stride)` (broadcasts
  /// are constant-0 results of the map).
  struct Input {
    const SmallVector<double> *data;
    SmallVector<std::pair<unsigned, int64_t>> terms;
  };
  /// A step's operand: a slot or a constant.
  struct Operand {
    int slot; // -1: the constant
    double constant;
    bool boolean = false; // an i1 (may hold an element of the symbol)
  };
  struct Step {
    Operation *op;
    SmallVector<Operand, 3> operands;
    unsigned result;
    std::optional<unsigned> indexDim;
    /// A `tensor.extract` from a tensor computed outside the body (a gather:
    /// HF's per-batch padding counts): its values and shape.
    const SmallVector<double> *table = nullptr;
    ArrayRef<int64_t> tableShape;
  };
  /// A generic's body as steps over numbered slots: block arguments, then
  /// results.
  struct Program {
    SmallVector<Step> steps;
    unsigned numSlots = 0;
    Operand yielded;
  };

  /// An all-parallel generic, or one with reductions computing only
  /// integers (exact in any order; a float reduction's order is the
  /// compiler's, so its rounding is not known here).
  std::optional<SmallVector<double>> evalGeneric(linalg::GenericOp generic,
                                                 unsigned resultIdx) {
    SmallVector<int64_t> loops = generic.getStaticLoopRanges();
    double points = 1.0;
    for (int64_t extent : loops) {
      if (ShapedType::isDynamic(extent))
        return std::nullopt;
      points *= double(extent);
    }
    if (points > double(maxElements))
      return std::nullopt;
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    unsigned numInputs = generic.getNumDpsInputs();
    AffineMap outMap = maps[numInputs + resultIdx];
    auto outType =
        cast<RankedTensorType>(generic.getResult(resultIdx).getType());
    bool reduces = generic.getNumReductionLoops() != 0;
    if (reduces ? !isIntegerOnly(generic) || !outMap.isProjectedPermutation()
                : !outMap.isIdentity())
      return std::nullopt;
    std::optional<SmallVector<Input>> inputs = readInputs(generic, maps);
    if (!inputs)
      return std::nullopt;
    std::optional<Program> program = compileBody(generic.getBody(), resultIdx);
    if (!program)
      return std::nullopt;
    // The body may read its own result's accumulator, no other output.
    Block *body = generic.getBody();
    const SmallVector<double> *init = nullptr;
    for (unsigned i = 0; i < generic.getNumDpsInits(); ++i) {
      if (body->getArgument(numInputs + i).use_empty())
        continue;
      if (i != resultIdx)
        return std::nullopt;
      init = eval(generic.getDpsInits()[i]);
      if (!init)
        return std::nullopt;
    }
    std::optional<Input> out = indexed(init, outMap, outType);
    if (!out)
      return std::nullopt;
    return runProgram(*program, *inputs, loops, *out, numInputs + resultIdx,
                      outType.getNumElements());
  }

  /// Whether `generic`'s result and every value its body computes are
  /// integers (or indices): then its reductions are exact in any order.
  static bool isIntegerOnly(linalg::GenericOp generic) {
    auto integral = [](Type t) {
      t = getElementTypeOrSelf(t);
      return isa<IntegerType, IndexType>(t);
    };
    if (!llvm::all_of(generic.getResultTypes(), integral))
      return false;
    for (Operation &op : generic.getBody()->without_terminator())
      if (!llvm::all_of(op.getResultTypes(), integral))
        return false;
    return true;
  }

  /// The values of every input of `generic` and how each is indexed.
  std::optional<SmallVector<Input>> readInputs(linalg::GenericOp generic,
                                               ArrayRef<AffineMap> maps) {
    SmallVector<Input> inputs;
    for (auto [i, in] : llvm::enumerate(generic.getDpsInputs())) {
      auto inType = dyn_cast<RankedTensorType>(in.getType());
      if (!inType)
        return std::nullopt;
      const SmallVector<double> *data = eval(in);
      if (!data)
        return std::nullopt;
      std::optional<Input> input = indexed(data, maps[i], inType);
      if (!input)
        return std::nullopt;
      inputs.push_back(std::move(*input));
    }
    return inputs;
  }

  /// `data` (of `type`) read through `map`: a loop dim per tensor dim, or a
  /// constant 0 (a broadcast); nullopt for any other map result.
  static std::optional<Input> indexed(const SmallVector<double> *data,
                                      AffineMap map, RankedTensorType type) {
    Input input{data, {}};
    int64_t stride = 1;
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      AffineExpr e = map.getResult(d);
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        input.terms.push_back({dim.getPosition(), stride});
      else if (!isa<AffineConstantExpr>(e) ||
               cast<AffineConstantExpr>(e).getValue() != 0)
        return std::nullopt;
      stride *= type.getDimSize(d);
    }
    return input;
  }

  /// `body` as a program yielding its result `resultIdx`; nullopt when an
  /// operand is neither computed in it nor a scalar constant (or, for
  /// `tensor.extract`, a tensor this class evaluates).
  std::optional<Program> compileBody(Block *body, unsigned resultIdx) {
    Program program;
    DenseMap<Value, unsigned> slotOf;
    for (BlockArgument arg : body->getArguments())
      slotOf[arg] = slotOf.size();
    auto operandOf = [&](Value v) -> std::optional<Operand> {
      if (auto it = slotOf.find(v); it != slotOf.end())
        return Operand{int(it->second), 0.0, v.getType().isInteger(1)};
      if (std::optional<double> c = scalarConstant(v))
        return Operand{-1, *c};
      return std::nullopt;
    };
    for (Operation &op : body->without_terminator()) {
      // A guard (torch-mlir's nonzero check before a division) changes no
      // value: its step rewrites the condition's slot with itself and fails
      // where the condition is false.
      if (auto check = dyn_cast<cf::AssertOp>(op)) {
        std::optional<Operand> cond = operandOf(check.getArg());
        if (!cond || (cond->slot < 0 && cond->constant == 0))
          return std::nullopt;
        if (cond->slot >= 0)
          program.steps.push_back(Step{
              &op, {*cond}, unsigned(cond->slot), std::nullopt, nullptr, {}});
        continue;
      }
      if (op.getNumResults() != 1)
        return std::nullopt;
      Step step{&op, {}, 0, std::nullopt, nullptr, {}};
      auto extract = dyn_cast<tensor::ExtractOp>(op);
      if (extract && !slotOf.count(extract.getTensor())) {
        step.table = eval(extract.getTensor());
        if (!step.table)
          return std::nullopt;
        step.tableShape = extract.getTensor().getType().getShape();
        for (Value index : extract.getIndices()) {
          std::optional<Operand> o = operandOf(index);
          if (!o)
            return std::nullopt;
          step.operands.push_back(*o);
        }
      } else if (auto idx = dyn_cast<linalg::IndexOp>(op))
        step.indexDim = idx.getDim();
      else if (!isa<arith::ConstantOp>(op))
        for (Value operand : op.getOperands()) {
          std::optional<Operand> o = operandOf(operand);
          if (!o)
            return std::nullopt;
          step.operands.push_back(*o);
        }
      if (isa<arith::ConstantOp>(op)) {
        std::optional<double> c = scalarConstant(op.getResult(0));
        if (!c)
          return std::nullopt;
        step.operands.push_back({-1, *c});
      }
      step.result = slotOf[op.getResult(0)] = slotOf.size();
      program.steps.push_back(std::move(step));
    }
    std::optional<Operand> yielded =
        operandOf(body->getTerminator()->getOperand(resultIdx));
    if (!yielded)
      return std::nullopt;
    program.yielded = *yielded;
    program.numSlots = slotOf.size();
    return program;
  }

  /// Runs `program` at every point of the loop space `loops`, in row-major
  /// order, each point reading and writing the output element `out` maps it
  /// to (`out.data` the initial values where the body reads them, else 0)
  /// through the slot `outSlot`.
  static std::optional<SmallVector<double>>
  runProgram(const Program &program, ArrayRef<Input> inputs,
             ArrayRef<int64_t> loops, const Input &out, unsigned outSlot,
             int64_t outSize) {
    SmallVector<double> result =
        out.data ? *out.data : SmallVector<double>(outSize, 0.0);
    SmallVector<int64_t> index(loops.size(), 0);
    SmallVector<double> slots(program.numSlots);
    SmallVector<double, 3> args;
    const Operand &yielded = program.yielded;
    int64_t points = 1;
    for (int64_t extent : loops)
      points *= extent;
    auto offsetOf = [&](const Input &input) {
      int64_t offset = 0;
      for (auto [dim, stride] : input.terms)
        offset += index[dim] * stride;
      return offset;
    };
    for (int64_t linear = 0; linear < points; ++linear) {
      for (auto [i, input] : llvm::enumerate(inputs))
        slots[i] = (*input.data)[offsetOf(input)];
      int64_t outOffset = offsetOf(out);
      slots[outSlot] = result[outOffset];
      for (const Step &step : program.steps) {
        if (step.indexDim) {
          slots[step.result] = double(index[*step.indexDim]);
          continue;
        }
        args.clear();
        for (const Operand &o : step.operands)
          args.push_back(o.slot < 0 ? o.constant : slots[o.slot]);
        if (isa<arith::ConstantOp>(step.op)) {
          slots[step.result] = args[0];
          continue;
        }
        bool literal = false;
        for (auto [o, x] : llvm::zip_equal(step.operands, args))
          literal |= o.boolean && x >= kLiteral;
        std::optional<double> value = literal ? applyToLiteral(*step.op, args)
                                      : step.table
                                          ? readTable(step, args)
                                          : applyScalarOp(*step.op, args);
        if (!value)
          return std::nullopt;
        slots[step.result] = *value;
      }
      result[outOffset] =
          yielded.slot < 0 ? yielded.constant : slots[yielded.slot];
      for (int64_t d = loops.size() - 1; d >= 0; --d) {
        if (++index[d] < loops[d])
          break;
        index[d] = 0;
      }
    }
    return result;
  }

  /// The element of an extract step's table at `indices`; nullopt out of
  /// bounds (the program's behaviour is undefined there).
  static std::optional<double> readTable(const Step &step,
                                         ArrayRef<double> indices) {
    int64_t offset = 0;
    for (auto [i, extent] : llvm::enumerate(step.tableShape)) {
      double x = indices[i];
      if (!(x >= 0 && x < double(extent)) || x != std::floor(x))
        return std::nullopt;
      offset = offset * extent + int64_t(x);
    }
    return (*step.table)[offset];
  }

  int64_t maxElements;
  bool symbolicKeys;
  DenseMap<Value, std::unique_ptr<SmallVector<double>>> cache;
};
} // namespace

std::optional<SmallVector<double>>
raising::evaluateConstantTensor(Value v, int64_t maxElements) {
  ConstantEvaluator evaluator(maxElements);
  const SmallVector<double> *values = evaluator.eval(v);
  return values ? std::optional(*values) : std::nullopt;
}

std::optional<KeyMaskedTensor>
raising::evaluateKeyMaskedTensor(Value v, int64_t maxElements) {
  ConstantEvaluator evaluator(maxElements, /*symbolicKeys=*/true);
  const SmallVector<double> *values = evaluator.eval(v);
  if (!values || !evaluator.keys || v == evaluator.keys)
    return std::nullopt;
  return KeyMaskedTensor{evaluator.keys, *values};
}
