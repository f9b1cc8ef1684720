//===- RotaryComplexForm.cpp - Meta's complex rotary product --------------===//
//
// Meta's reference Llama rotates `view_as_complex` pairs of the input by a
// complex table `freqs_cis` and flattens `view_as_real` of the product back:
// an interleaved rotary. This file reads that form back.
//
//===----------------------------------------------------------------------===//

#include "RaisingDriver.h"
#include "RotaryRaising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// Meta's `view_as_complex(x.reshape(..., D/2, 2))` as torch-mlir emits it:
/// a generic without inputs over `[..., D/2]` yielding
/// `complex.create(e[i..., j, 0], e[i..., j, 1])`, every other index the
/// iteration index (or 0 on a unit dimension), with `e` an f32 expand_shape
/// into `[..., D/2, 2]` whose last group splits `D` into pairs (it may split
/// more: torch-mlir expands the projection `[S, H * D]` into
/// `[1, S, H, D/2, 2]` at once). Returns the expand.
tensor::ExpandShapeOp matchViewAsComplex(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return {};
  Block *body = generic.getBody();
  if (llvm::any_of(body->without_terminator(),
                   [](Operation &op) { return !isPure(&op); }))
    return {};
  auto create =
      body->getTerminator()->getOperand(0).getDefiningOp<complex::CreateOp>();
  if (!create)
    return {};
  auto re = create.getReal().getDefiningOp<tensor::ExtractOp>();
  auto im = create.getImaginary().getDefiningOp<tensor::ExtractOp>();
  if (!re || !im || re.getTensor() != im.getTensor())
    return {};
  auto expand = re.getTensor().getDefiningOp<tensor::ExpandShapeOp>();
  auto type = cast<RankedTensorType>(v.getType());
  int64_t n = type.getRank();
  if (!expand || !expand.getSrcType().getElementType().isF32() ||
      !expand.getResultType().hasStaticShape() ||
      expand.getResultType().getShape().back() != 2 ||
      expand.getResultType().getShape().drop_back() != type.getShape() ||
      !llvm::is_contained(expand.getReassociationIndices().back(), n - 1))
    return {};
  // The real part reads lane 0 of pair `j`, the imaginary part lane 1.
  auto readsLane = [&](tensor::ExtractOp extract, int64_t lane) {
    OperandRange indices = extract.getIndices();
    for (int64_t d = 0; d < n; ++d) {
      auto index = indices[d].getDefiningOp<linalg::IndexOp>();
      APInt zero;
      if (!(index && index->getBlock() == body &&
            int64_t(index.getDim()) == d) &&
          !(type.getDimSize(d) == 1 &&
            matchPattern(indices[d], m_ConstantInt(&zero)) && zero.isZero()))
        return false;
    }
    APInt c;
    return matchPattern(indices[n], m_ConstantInt(&c)) &&
           c.getSExtValue() == lane;
  };
  if (!readsLane(re, 0) || !readsLane(im, 1))
    return {};
  return expand;
}

/// The input `[..., D]` of the expand that `matchViewAsComplex` returned:
/// its source, expanded like it but for the pairs.
Value unpairedInput(PatternRewriter &rewriter, tensor::ExpandShapeOp expand,
                    RankedTensorType type) {
  SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
  groups.back().pop_back();
  if (llvm::all_of(groups, [](const ReassociationIndices &group) {
        return group.size() == 1;
      }))
    return expand.getSrc();
  return tensor::ExpandShapeOp::create(rewriter, expand.getLoc(), type,
                                       expand.getSrc(), groups);
}

/// What a body value of `view_as_real`'s generic is at lane `lane` of the
/// last loop `laneDim`: the real or imaginary part of `in`, through selects
/// on comparisons of `linalg.index laneDim` with constants.
enum class Part { Real, Imaginary, Other };
Part partAtLane(Value v, BlockArgument in, unsigned laneDim, int64_t lane) {
  if (auto re = v.getDefiningOp<complex::ReOp>())
    return re.getComplex() == in ? Part::Real : Part::Other;
  if (auto im = v.getDefiningOp<complex::ImOp>())
    return im.getComplex() == in ? Part::Imaginary : Part::Other;
  auto select = v.getDefiningOp<arith::SelectOp>();
  auto cmp = select ? select.getCondition().getDefiningOp<arith::CmpIOp>()
                    : arith::CmpIOp();
  if (!cmp)
    return Part::Other;
  auto laneValue = [&](Value x) -> std::optional<APInt> {
    APInt c;
    if (matchPattern(x, m_ConstantInt(&c)))
      return c;
    auto index = x.getDefiningOp<linalg::IndexOp>();
    if (index && index->getBlock() == in.getOwner() &&
        index.getDim() == laneDim)
      return APInt(64, lane);
    return std::nullopt;
  };
  std::optional<APInt> lhs = laneValue(cmp.getLhs());
  std::optional<APInt> rhs = laneValue(cmp.getRhs());
  if (!lhs || !rhs || lhs->getBitWidth() != rhs->getBitWidth())
    return Part::Other;
  bool taken = arith::applyCmpPredicate(cmp.getPredicate(), *lhs, *rhs);
  return partAtLane(taken ? select.getTrueValue() : select.getFalseValue(), in,
                    laneDim, lane);
}

/// `view_as_real(c)` as torch-mlir emits it: a generic over `[..., W, 2]`
/// reading `c` (`[..., W]`) that yields the real part of the element at lane
/// 0 of the new last loop and the imaginary part at lane 1. Returns `c`.
Value matchViewAsReal(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return Value();
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  unsigned n = generic.getNumLoops() - 1;
  Value c = generic.getDpsInputs()[0];
  auto type = cast<RankedTensorType>(v.getType());
  auto inType = dyn_cast<RankedTensorType>(c.getType());
  if (!maps[1].isIdentity() ||
      maps[0] != AffineMap::getMultiDimIdentityMap(n + 1, v.getContext())
                     .getMajorSubMap(n) ||
      !inType || inType.getShape() != type.getShape().drop_back() ||
      type.getShape().back() != 2)
    return Value();
  Block *body = generic.getBody();
  if (llvm::any_of(body->without_terminator(),
                   [](Operation &op) { return !isPure(&op); }))
    return Value();
  Value yielded = body->getTerminator()->getOperand(0);
  BlockArgument in = body->getArgument(0);
  if (partAtLane(yielded, in, n, 0) != Part::Real ||
      partAtLane(yielded, in, n, 1) != Part::Imaginary)
    return Value();
  return c;
}

/// Meta's complex table `freqs_cis` (`cos + i sin`, `[P, C]`) as the complex
/// multiply reads it, unit reshapes stripped, with `half` columns: rows
/// `[o, o + S)` sliced from it (the arange `o + s`), rows gathered by
/// positions, or the whole table (`P = S`). The table must be a constant or
/// an argument: a table computed in the IR (`conj(freqs_cis)`) is not read.
std::optional<TableSource> matchComplexTable(Value table, int64_t half) {
  Value t = stripUnitReshapes(table);
  auto type = cast<RankedTensorType>(t.getType());
  auto isTable = [](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    auto element = dyn_cast<ComplexType>(type.getElementType());
    return element && element.getElementType().isF32() && type.getRank() == 2 &&
           type.hasStaticShape() &&
           (isa<BlockArgument>(v) || matchPattern(v, m_Constant()));
  };
  TableSource src;
  if (auto slice = t.getDefiningOp<tensor::ExtractSliceOp>()) {
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    if (!isTable(slice.getSource()) || type.getRank() != 2 ||
        !slice.hasUnitStride() || ShapedType::isDynamic(offsets[0]) ||
        ShapedType::isDynamic(offsets[1]) || !type.hasStaticShape() ||
        type.getDimSize(1) != half)
      return std::nullopt;
    src.table = slice.getSource();
    src.offset = offsets[0];
    src.column = offsets[1];
    return src;
  }
  if (isTable(t)) {
    if (type.getDimSize(1) != half)
      return std::nullopt;
    src.table = t;
    return src;
  }
  std::optional<TableSource> rows = matchGatheredRows(t);
  if (!rows || !isTable(rows->table) || type.getShape().back() != half)
    return std::nullopt;
  return rows;
}

/// Meta's reference RoPE, the complex product:
/// `flatten(view_as_real(view_as_complex(x) * freqs_cis))`, pairs
/// `(2i, 2i+1)` multiplied by `freqs_cis[pos, i] = cos + i sin`:
/// `(x0 cos - x1 sin) + i (x0 sin + x1 cos)`, an interleaved rotary.
struct RaiseComplexProduct : CountingPattern<tensor::CollapseShapeOp> {
  using CountingPattern::CountingPattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResultType();
    if (!type.getElementType().isF32() || !type.hasStaticShape() ||
        !splitsLastIntoPairs(op.getReassociationIndices(), type.getRank(),
                             op.getSrcType().getShape().back()))
      return failure();
    Value product = matchViewAsReal(op.getSrc());
    if (!product)
      return rewriter.notifyMatchFailure(op, "not view_as_real");
    std::optional<Elementwise> mul = matchElementwise<complex::MulOp>(product);
    if (!mul || !mul->getInput(0) || !mul->getInput(1))
      return rewriter.notifyMatchFailure(op, "not a complex product");
    for (unsigned i = 0; i < 2; ++i) {
      if (!mul->isIdentityInput(i))
        continue;
      tensor::ExpandShapeOp pairs = matchViewAsComplex(mul->getInput(i)->get());
      if (!pairs)
        continue;
      OpOperand *table = mul->getInput(1 - i);
      std::optional<int64_t> token = tokenAxis(
          mul->getMap(1 - i), cast<ShapedType>(table->get().getType()),
          cast<RankedTensorType>(product.getType()));
      int64_t d = type.getShape().back();
      std::optional<TableSource> src = matchComplexTable(table->get(), d / 2);
      if (!token || !src)
        continue;
      // The real view of the table puts the imaginary parts (sin) after
      // the real ones (cos).
      int64_t columns =
          cast<RankedTensorType>(src->table.getType()).getDimSize(1);
      Value x = unpairedInput(rewriter, pairs, type);
      RotaryMatch m{x, d, *token, *src, columns + src->column};
      rewriter.replaceOp(
          op, buildRotary(rewriter, op.getLoc(), m, RotaryLayout::interleaved));
      ++count;
      return success();
    }
    return rewriter.notifyMatchFailure(op, "not view_as_complex(x) * table");
  }
};

} // namespace

void raising::populateComplexRotaryPatterns(RewritePatternSet &patterns,
                                            int64_t &count) {
  patterns.add<RaiseComplexProduct>(patterns.getContext(), count);
}
