//===- Match.cpp - matchers over importer-style linalg IR -----------------===//

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>
#include <memory>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

OpOperand *Elementwise::getInput(unsigned i) const {
  auto arg = dyn_cast<BlockArgument>(body->getOperand(i));
  if (!arg || arg.getOwner() != generic.getBody())
    return nullptr;
  return generic.getDpsInputOperand(arg.getArgNumber());
}

Value Elementwise::getScalar(unsigned i) const {
  return getInput(i) ? Value() : body->getOperand(i);
}

AffineMap Elementwise::getMap(unsigned i) const {
  return generic.getMatchingIndexingMap(getInput(i));
}

bool Elementwise::isIdentityInput(unsigned i) const {
  OpOperand *in = getInput(i);
  return in && getMap(i).isIdentity() &&
         cast<ShapedType>(in->get().getType()).getShape() ==
             cast<ShapedType>(generic.getResult(0).getType()).getShape();
}

std::optional<Elementwise> raising::matchElementwise(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumResults() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block *block = generic.getBody();
  auto yield = cast<linalg::YieldOp>(block->getTerminator());
  if (yield.getValues().size() != 1 || block->without_terminator().empty())
    return std::nullopt;
  Operation *body = yield.getValues()[0].getDefiningOp();
  if (!body || body->getBlock() != block || body->getNumResults() != 1 ||
      body->getNextNode() != yield)
    return std::nullopt;
  // Ops before the body may only compute scalars from values defined above
  // (`arith.truncf %cst : f64 to f32` of a Python float factor).
  for (Operation &op : block->without_terminator()) {
    if (&op == body)
      break;
    if (op.getNumRegions() != 0 || !isPure(&op) ||
        llvm::any_of(op.getOperands(), [&](Value x) {
          return isa<BlockArgument>(x) &&
                 cast<BlockArgument>(x).getOwner() == block;
        }))
      return std::nullopt;
  }
  for (Value operand : body->getOperands()) {
    if (auto arg = dyn_cast<BlockArgument>(operand)) {
      // Reading the output element makes it an accumulation, not a map.
      if (arg.getOwner() == block &&
          arg.getArgNumber() >= generic.getNumDpsInputs())
        return std::nullopt;
      continue;
    }
    Operation *def = operand.getDefiningOp();
    if (def && generic->isAncestor(def) && def->getBlock() != block)
      return std::nullopt;
  }
  return Elementwise{generic, body};
}

static bool onlyUnitDimsChange(ArrayRef<ReassociationIndices> groups,
                               ArrayRef<int64_t> expandedShape) {
  for (const ReassociationIndices &group : groups) {
    int nonUnit = 0;
    for (int64_t d : group)
      if (expandedShape[d] != 1)
        ++nonUnit;
    if (nonUnit > 1 || llvm::any_of(group, [&](int64_t d) {
          return ShapedType::isDynamic(expandedShape[d]) && group.size() > 1;
        }))
      return false;
  }
  return true;
}

Value raising::stripUnitReshapes(Value v) {
  while (true) {
    if (auto expand = v.getDefiningOp<tensor::ExpandShapeOp>()) {
      if (!onlyUnitDimsChange(expand.getReassociationIndices(),
                              expand.getResultType().getShape()))
        return v;
      v = expand.getSrc();
      continue;
    }
    if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>()) {
      if (!onlyUnitDimsChange(collapse.getReassociationIndices(),
                              collapse.getSrcType().getShape()))
        return v;
      v = collapse.getSrc();
      continue;
    }
    return v;
  }
}

SmallVector<int64_t> raising::nonUnitShape(Value v) {
  SmallVector<int64_t> shape;
  for (int64_t d : cast<ShapedType>(v.getType()).getShape())
    if (d != 1)
      shape.push_back(d);
  return shape;
}

std::optional<double> raising::getConstantFloat(Value v) {
  if (auto cast = v.getDefiningOp<arith::TruncFOp>()) {
    std::optional<double> x = getConstantFloat(cast.getIn());
    if (!x)
      return std::nullopt;
    auto type = cast.getType();
    if (!type.isF32())
      return std::nullopt;
    return double(float(*x));
  }
  if (auto cast = v.getDefiningOp<arith::ExtFOp>())
    return getConstantFloat(cast.getIn());
  FloatAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr.getValueAsDouble();
  DenseFPElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return dense.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

std::optional<LastDimSlice> raising::matchLastDimSlice(Value v) {
  auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !slice.hasUnitStride())
    return std::nullopt;
  RankedTensorType srcType = slice.getSourceType();
  int64_t rank = srcType.getRank();
  if (slice.getResultType().getRank() != rank || !srcType.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (offsets[d] != 0 || sizes[d] != srcType.getDimSize(d))
      return std::nullopt;
  if (ShapedType::isDynamic(offsets.back()) ||
      ShapedType::isDynamic(sizes.back()))
    return std::nullopt;
  return LastDimSlice{slice.getSource(), offsets.back(), sizes.back()};
}

std::optional<SmallVector<Value>> raising::matchLastDimConcat(Value v) {
  auto concat = v.getDefiningOp<tensor::ConcatOp>();
  if (!concat ||
      int64_t(concat.getDim()) + 1 != concat.getResultType().getRank())
    return std::nullopt;
  return SmallVector<Value>(concat.getInputs());
}

bool raising::matchNegate(Value v, Value &x) {
  if (auto neg = matchElementwise<arith::NegFOp>(v)) {
    if (!neg->isIdentityInput(0))
      return false;
    x = neg->getInput(0)->get();
    return true;
  }
  auto mul = matchElementwise<arith::MulFOp>(v);
  if (!mul)
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    std::optional<double> c = getConstantFloat(
        mul->getScalar(1 - i) ? mul->getScalar(1 - i) : Value());
    if (c && *c == -1.0 && mul->isIdentityInput(i)) {
      x = mul->getInput(i)->get();
      return true;
    }
  }
  return false;
}

std::optional<SmallVector<unsigned>> raising::nonUnitDims(AffineMap map,
                                                          ShapedType type) {
  SmallVector<unsigned> dims;
  for (auto [expr, size] : llvm::zip_equal(map.getResults(), type.getShape())) {
    if (size == 1)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    dims.push_back(dim.getPosition());
  }
  return dims;
}

/// Integer values of a constant tensor (dense or resource), if small.
static std::optional<SmallVector<int64_t>> constantInts(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    SmallVector<int64_t> values;
    for (const APInt &x : dense.getValues<APInt>())
      values.push_back(x.getSExtValue());
    return values;
  }
  if (auto res = dyn_cast<DenseI64ResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<int64_t>> data = res.tryGetAsArrayRef();
    if (!data)
      return std::nullopt;
    return SmallVector<int64_t>(*data);
  }
  return std::nullopt;
}

/// Evaluates an integer-valued generic body with no inputs at `index` (the
/// iteration point); nullopt for anything but index arithmetic.
static std::optional<int64_t> evalIndexBody(linalg::GenericOp generic,
                                            ArrayRef<int64_t> index) {
  DenseMap<Value, int64_t> ints;
  DenseMap<Value, double> floats;
  for (Operation &op : generic.getBody()->without_terminator()) {
    Value r = op.getNumResults() == 1 ? op.getResult(0) : Value();
    auto intOf = [&](Value v) -> std::optional<int64_t> {
      if (auto it = ints.find(v); it != ints.end())
        return it->second;
      APInt c;
      if (matchPattern(v, m_ConstantInt(&c)))
        return c.getSExtValue();
      return std::nullopt;
    };
    auto floatOf = [&](Value v) -> std::optional<double> {
      if (auto it = floats.find(v); it != floats.end())
        return it->second;
      return getConstantFloat(v);
    };
    if (auto idx = dyn_cast<linalg::IndexOp>(op)) {
      ints[r] = index[idx.getDim()];
    } else if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op)) {
      auto x = intOf(op.getOperand(0));
      if (!x)
        return std::nullopt;
      ints[r] = *x;
    } else if (isa<arith::AddIOp, arith::MulIOp, arith::SubIOp>(op)) {
      auto a = intOf(op.getOperand(0)), b = intOf(op.getOperand(1));
      if (!a || !b)
        return std::nullopt;
      ints[r] = isa<arith::AddIOp>(op)   ? *a + *b
                : isa<arith::MulIOp>(op) ? *a * *b
                                         : *a - *b;
    } else if (isa<arith::SIToFPOp>(op)) {
      auto x = intOf(op.getOperand(0));
      if (!x)
        return std::nullopt;
      floats[r] = double(*x);
    } else if (isa<arith::AddFOp, arith::MulFOp>(op)) {
      auto a = floatOf(op.getOperand(0)), b = floatOf(op.getOperand(1));
      if (!a || !b)
        return std::nullopt;
      floats[r] = isa<arith::AddFOp>(op) ? *a + *b : *a * *b;
    } else if (isa<arith::FPToSIOp>(op)) {
      auto x = floatOf(op.getOperand(0));
      if (!x)
        return std::nullopt;
      ints[r] = int64_t(*x);
    } else if (!isa<arith::ConstantOp>(op)) {
      return std::nullopt;
    }
  }
  Value yielded = generic.getBody()->getTerminator()->getOperand(0);
  if (auto it = ints.find(yielded); it != ints.end())
    return it->second;
  return std::nullopt;
}

std::optional<int64_t> raising::matchArange(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
      !type.getElementType().isSignlessInteger())
    return std::nullopt;
  for (int64_t d : type.getShape().drop_back())
    if (d != 1)
      return std::nullopt;
  int64_t n = type.getShape().back();
  // Each element is checked (a generic is evaluated point by point): longer
  // sequences than 2^20 positions are not taken for aranges (2^32 took
  // minutes).
  if (n > (int64_t(1) << 20))
    return std::nullopt;
  SmallVector<int64_t> values;
  if (std::optional<SmallVector<int64_t>> c = constantInts(v)) {
    values = std::move(*c);
    if (int64_t(values.size()) == 1 && n > 1)
      values.assign(n, values.front()); // a splat
  } else if (auto generic = v.getDefiningOp<linalg::GenericOp>();
             generic && generic.getNumDpsInputs() == 0 &&
             generic.getNumResults() == 1 &&
             generic.getIndexingMapsArray().back().isIdentity()) {
    SmallVector<int64_t> index(type.getRank(), 0);
    for (int64_t s = 0; s < n; ++s) {
      index.back() = s;
      std::optional<int64_t> x = evalIndexBody(generic, index);
      if (!x)
        return std::nullopt;
      values.push_back(*x);
    }
  } else {
    return std::nullopt;
  }
  if (int64_t(values.size()) != n || n == 0)
    return std::nullopt;
  for (int64_t s = 0; s < n; ++s)
    if (values[s] != values[0] + s)
      return std::nullopt;
  return values[0];
}

std::optional<CumsumScan> raising::matchCumsumScan(Operation *op) {
  if (!op || op->getName().getStringRef() != "tm_tensor.scan" ||
      op->getNumOperands() != 3 || op->getNumResults() != 2 ||
      op->getNumRegions() != 1 || !op->getRegion(0).hasOneBlock())
    return std::nullopt;
  // Inherent attributes of an unregistered op are its properties; getAttr
  // reads them there.
  auto dim = dyn_cast_or_null<IntegerAttr>(op->getAttr("dimension"));
  auto inclusive = dyn_cast_or_null<BoolAttr>(op->getAttr("inclusive"));
  auto segments =
      dyn_cast_or_null<DenseI32ArrayAttr>(op->getAttr("operandSegmentSizes"));
  if (!dim || !inclusive || !segments ||
      segments.asArrayRef() != ArrayRef<int32_t>{1, 2})
    return std::nullopt;
  // ins(input) outs(output, accumulator): the output is the input's type,
  // the accumulator drops the scanned dimension.
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto accType = dyn_cast<RankedTensorType>(op->getOperand(2).getType());
  int64_t d = dim.getInt();
  if (!type || !accType || d < 0 || d >= type.getRank() ||
      op->getOperand(1).getType() != type ||
      op->getResult(0).getType() != type ||
      op->getResult(1).getType() != accType ||
      accType.getRank() + 1 != type.getRank() ||
      accType.getElementType() != type.getElementType())
    return std::nullopt;
  // The region adds the running value and the element, nothing else.
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 2 || body.getOperations().size() != 2)
    return std::nullopt;
  Operation &add = body.front();
  Operation *yield = body.getTerminator();
  if (!isa<arith::AddIOp, arith::AddFOp>(add) ||
      yield->getName().getStringRef() != "tm_tensor.yield" ||
      yield->getNumOperands() != 1 ||
      yield->getOperand(0) != add.getResult(0) ||
      !llvm::is_contained(add.getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(add.getOperands(), body.getArgument(1)) ||
      add.getResult(0).getType() != type.getElementType())
    return std::nullopt;
  return CumsumScan{op->getOperand(0), op->getOperand(2), d,
                    inclusive.getValue()};
}

/// `x` rounded to the float type `type` as a program computing in it rounds
/// (integers and f64 stay).
static double roundTo(Type type, double x) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType || floatType.isF64())
    return x;
  APFloat value(x);
  bool lost;
  value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
  return value.convertToDouble();
}

namespace {
/// Evaluates static tensors computed from constants (see
/// evaluateConstantTensor); memoized per value.
class ConstantEvaluator {
public:
  explicit ConstantEvaluator(int64_t maxElements) : maxElements(maxElements) {}

  const SmallVector<double> *eval(Value v) {
    if (auto it = cache.find(v); it != cache.end())
      return it->second.get();
    cache[v] = nullptr; // cuts cycles and repeated failures
    std::optional<SmallVector<double>> result = compute(v);
    if (!result)
      return nullptr;
    // Heap storage: the pointer stays valid while the cache grows.
    auto stored = std::make_unique<SmallVector<double>>(std::move(*result));
    const SmallVector<double> *ptr = stored.get();
    cache[v] = std::move(stored);
    return ptr;
  }

private:
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

  /// The running sums of a cumsum scan, each rounded to the element type.
  std::optional<SmallVector<double>> evalCumsum(const CumsumScan &scan,
                                                RankedTensorType type) {
    const SmallVector<double> *in = eval(scan.input);
    const SmallVector<double> *acc =
        scan.inclusive ? nullptr : eval(scan.accumulator);
    if (!in || (!scan.inclusive && !acc))
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

  std::optional<SmallVector<double>> evalGeneric(linalg::GenericOp generic,
                                                 unsigned resultIdx) {
    if (generic.getNumParallelLoops() != generic.getNumLoops())
      return std::nullopt;
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    auto outType =
        cast<RankedTensorType>(generic.getResult(resultIdx).getType());
    if (!maps[generic.getNumDpsInputs() + resultIdx].isIdentity())
      return std::nullopt;
    // Each input is read at `sum(index[dim] * stride)` (broadcasts are
    // constant-0 results of the map).
    struct Input {
      const SmallVector<double> *data;
      SmallVector<std::pair<unsigned, int64_t>> terms;
    };
    SmallVector<Input> inputs;
    for (auto [i, in] : llvm::enumerate(generic.getDpsInputs())) {
      auto inType = dyn_cast<RankedTensorType>(in.getType());
      if (!inType)
        return std::nullopt;
      const SmallVector<double> *data = eval(in);
      if (!data)
        return std::nullopt;
      Input input{data, {}};
      int64_t stride = 1;
      for (int64_t d = inType.getRank() - 1; d >= 0; --d) {
        AffineExpr e = maps[i].getResult(d);
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          input.terms.push_back({dim.getPosition(), stride});
        else if (!isa<AffineConstantExpr>(e) ||
                 cast<AffineConstantExpr>(e).getValue() != 0)
          return std::nullopt;
        stride *= inType.getDimSize(d);
      }
      inputs.push_back(std::move(input));
    }
    // The body as steps over numbered slots: block arguments, then results.
    Block *body = generic.getBody();
    DenseMap<Value, unsigned> slotOf;
    for (BlockArgument arg : body->getArguments())
      slotOf[arg] = slotOf.size();
    struct Operand {
      int slot; // -1: the constant
      double constant;
    };
    struct Step {
      Operation *op;
      SmallVector<Operand, 3> operands;
      unsigned result;
      std::optional<unsigned> indexDim;
    };
    SmallVector<Step> steps;
    auto operandOf = [&](Value v) -> std::optional<Operand> {
      if (auto it = slotOf.find(v); it != slotOf.end())
        return Operand{int(it->second), 0.0};
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
          steps.push_back(
              Step{&op, {*cond}, unsigned(cond->slot), std::nullopt});
        continue;
      }
      if (op.getNumResults() != 1)
        return std::nullopt;
      Step step{&op, {}, 0, std::nullopt};
      if (auto idx = dyn_cast<linalg::IndexOp>(op))
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
      steps.push_back(std::move(step));
    }
    std::optional<Operand> yielded =
        operandOf(body->getTerminator()->getOperand(resultIdx));
    if (!yielded)
      return std::nullopt;

    ArrayRef<int64_t> shape = outType.getShape();
    int64_t n = outType.getNumElements();
    SmallVector<double> out(n);
    SmallVector<int64_t> index(shape.size(), 0);
    SmallVector<double> slots(slotOf.size());
    SmallVector<double, 3> args;
    for (int64_t linear = 0; linear < n; ++linear) {
      for (auto [i, input] : llvm::enumerate(inputs)) {
        int64_t offset = 0;
        for (auto [dim, stride] : input.terms)
          offset += index[dim] * stride;
        slots[i] = (*input.data)[offset];
      }
      for (const Step &step : steps) {
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
        std::optional<double> value = apply(*step.op, args);
        if (!value)
          return std::nullopt;
        slots[step.result] = *value;
      }
      out[linear] =
          yielded->slot < 0 ? yielded->constant : slots[yielded->slot];
      for (int64_t d = shape.size() - 1; d >= 0; --d) {
        if (++index[d] < shape[d])
          break;
        index[d] = 0;
      }
    }
    return out;
  }

  /// `op` on `a`, rounded to its float result type as the program rounds.
  static std::optional<double> apply(Operation &op, ArrayRef<double> a) {
    std::optional<double> r = applyExact(op, a);
    if (!r || op.getNumResults() != 1)
      return r;
    return roundTo(op.getResult(0).getType(), *r);
  }

  static std::optional<double> applyExact(Operation &op, ArrayRef<double> a) {
    if (isa<cf::AssertOp>(op))
      return a[0] != 0 ? std::optional(a[0]) : std::nullopt;
    if (isa<math::PowFOp>(op))
      return std::pow(a[0], a[1]);
    if (isa<math::AbsFOp, math::AbsIOp>(op))
      return std::abs(a[0]);
    // Narrowing an index to i32 (torch-mlir's int32 aranges): exact when
    // the value fits, as it does for any position.
    if (auto trunc = dyn_cast<arith::TruncIOp>(op)) {
      unsigned width =
          getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth();
      if (width < 2 || width > 53 ||
          std::abs(a[0]) >= std::ldexp(1.0, int(width) - 1))
        return std::nullopt;
      return a[0];
    }
    if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp, arith::SIToFPOp,
            arith::UIToFPOp, arith::ExtFOp>(op))
      return a[0];
    if (isa<arith::TruncFOp>(op))
      return double(float(a[0]));
    if (isa<arith::FPToSIOp>(op))
      return std::trunc(a[0]);
    if (isa<arith::AddIOp, arith::AddFOp>(op))
      return a[0] + a[1];
    if (isa<arith::SubIOp, arith::SubFOp>(op))
      return a[0] - a[1];
    if (isa<arith::MulIOp, arith::MulFOp>(op))
      return a[0] * a[1];
    if (isa<arith::DivFOp>(op))
      return a[0] / a[1];
    if (isa<arith::NegFOp>(op))
      return -a[0];
    if (isa<arith::SelectOp>(op))
      return a[0] != 0 ? a[1] : a[2];
    if (isa<arith::AndIOp>(op))
      return double(a[0] != 0 && a[1] != 0);
    if (isa<arith::OrIOp>(op))
      return double(a[0] != 0 || a[1] != 0);
    if (isa<arith::XOrIOp>(op) && op.getResult(0).getType().isInteger(1))
      return double((a[0] != 0) != (a[1] != 0));
    if (isa<arith::MaximumFOp, arith::MaxSIOp>(op))
      return std::max(a[0], a[1]);
    if (isa<arith::MinimumFOp, arith::MinSIOp>(op))
      return std::min(a[0], a[1]);
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq:
        return double(a[0] == a[1]);
      case arith::CmpIPredicate::ne:
        return double(a[0] != a[1]);
      case arith::CmpIPredicate::slt:
        return double(a[0] < a[1]);
      case arith::CmpIPredicate::sle:
        return double(a[0] <= a[1]);
      case arith::CmpIPredicate::sgt:
        return double(a[0] > a[1]);
      case arith::CmpIPredicate::sge:
        return double(a[0] >= a[1]);
      default: // unsigned compares of non-negative indices only
        if (a[0] < 0 || a[1] < 0)
          return std::nullopt;
        switch (cmp.getPredicate()) {
        case arith::CmpIPredicate::ult:
          return double(a[0] < a[1]);
        case arith::CmpIPredicate::ule:
          return double(a[0] <= a[1]);
        case arith::CmpIPredicate::ugt:
          return double(a[0] > a[1]);
        default:
          return double(a[0] >= a[1]);
        }
      }
    }
    if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
      switch (cmp.getPredicate()) {
      case arith::CmpFPredicate::OEQ:
      case arith::CmpFPredicate::UEQ:
        return double(a[0] == a[1]);
      case arith::CmpFPredicate::OLT:
      case arith::CmpFPredicate::ULT:
        return double(a[0] < a[1]);
      case arith::CmpFPredicate::OLE:
      case arith::CmpFPredicate::ULE:
        return double(a[0] <= a[1]);
      case arith::CmpFPredicate::OGT:
      case arith::CmpFPredicate::UGT:
        return double(a[0] > a[1]);
      case arith::CmpFPredicate::OGE:
      case arith::CmpFPredicate::UGE:
        return double(a[0] >= a[1]);
      case arith::CmpFPredicate::ONE:
      case arith::CmpFPredicate::UNE:
        return double(a[0] != a[1]);
      default:
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  int64_t maxElements;
  DenseMap<Value, std::unique_ptr<SmallVector<double>>> cache;
};
} // namespace

std::optional<SmallVector<double>>
raising::evaluateConstantTensor(Value v, int64_t maxElements) {
  ConstantEvaluator evaluator(maxElements);
  const SmallVector<double> *values = evaluator.eval(v);
  return values ? std::optional(*values) : std::nullopt;
}
