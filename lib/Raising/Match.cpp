//===- Match.cpp - matchers over importer-style linalg IR -----------------===//

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

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

OpOperand *raising::matchCopy(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray()[1].isIdentity())
    return nullptr;
  Block *body = generic.getBody();
  if (!body->without_terminator().empty() ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return nullptr;
  return generic.getDpsInputOperand(0);
}

std::optional<double> Elementwise::getConstantFloatOperand(unsigned i) const {
  if (Value scalar = getScalar(i))
    return getConstantFloat(scalar);
  return getConstantFloat(getInput(i)->get());
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

/// Whether each group has at most one non-unit dimension (static or
/// dynamic): the reshape only adds or drops unit dimensions.
static bool onlyUnitDimsChange(ArrayRef<ReassociationIndices> groups,
                               ArrayRef<int64_t> expandedShape) {
  return llvm::all_of(groups, [&](const ReassociationIndices &group) {
    return llvm::count_if(
               group, [&](int64_t d) { return expandedShape[d] != 1; }) <= 1;
  });
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
  // A constant broadcast into a tensor (torch-mlir's at dynamic lengths).
  if (OpOperand *in = matchCopy(v); in && isa<ShapedType>(v.getType()))
    return getConstantFloat(in->get());
  return std::nullopt;
}

bool raising::isDimSize(OpFoldResult size, Value shaped, int64_t dim) {
  auto type = cast<ShapedType>(shaped.getType());
  std::optional<int64_t> constant = getConstantIntValue(size);
  if (!type.isDynamicDim(dim) || constant)
    return constant == type.getDimSize(dim);
  if (auto value = dyn_cast<Value>(size))
    if (auto dimOp = value.getDefiningOp<tensor::DimOp>())
      if (dimOp.getSource() == shaped && dimOp.getConstantIndex() == dim)
        return true;
  return ValueBoundsConstraintSet::compare(
      size, ValueBoundsConstraintSet::ComparisonOperator::EQ,
      ValueBoundsConstraintSet::Variable(shaped, dim));
}

bool raising::haveSameDim(Value x, int64_t a, Value y, int64_t b) {
  auto xType = cast<ShapedType>(x.getType());
  auto yType = cast<ShapedType>(y.getType());
  if (xType.isDynamicDim(a) != yType.isDynamicDim(b))
    return false;
  if (!xType.isDynamicDim(a))
    return xType.getDimSize(a) == yType.getDimSize(b);
  return ValueBoundsConstraintSet::compare(
      ValueBoundsConstraintSet::Variable(x, a),
      ValueBoundsConstraintSet::ComparisonOperator::EQ,
      ValueBoundsConstraintSet::Variable(y, b));
}

std::optional<LastDimSlice> raising::matchLastDimSlice(Value v) {
  auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !slice.hasUnitStride())
    return std::nullopt;
  RankedTensorType srcType = slice.getSourceType();
  int64_t rank = srcType.getRank();
  if (slice.getResultType().getRank() != rank)
    return std::nullopt;
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (getConstantIntValue(offsets[d]) != 0 ||
        !isDimSize(sizes[d], slice.getSource(), d))
      return std::nullopt;
  std::optional<int64_t> offset = getConstantIntValue(offsets.back());
  if (!offset)
    return std::nullopt;
  return LastDimSlice{
      slice.getSource(), *offset,
      getConstantIntValue(sizes.back()).value_or(ShapedType::kDynamic),
      sizes.back()};
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
    std::optional<double> c = mul->getConstantFloatOperand(1 - i);
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

std::optional<TableExtract> raising::matchTableExtract(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumResults() != 1 ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block *body = generic.getBody();
  auto extract =
      body->getTerminator()->getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract->getBlock() != body ||
      extract.getIndices().size() != 2)
    return std::nullopt;
  Value table = extract.getTensor();
  if (generic.getRegion().isAncestor(table.getParentRegion()))
    return std::nullopt;
  // The column is the last iteration index: a transposed read is no match.
  auto column = extract.getIndices()[1].getDefiningOp<linalg::IndexOp>();
  if (!column || column->getBlock() != body ||
      column.getDim() + 1 != generic.getNumLoops())
    return std::nullopt;
  return TableExtract{generic, extract, column, table};
}
