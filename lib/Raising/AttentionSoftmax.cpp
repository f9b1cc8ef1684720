//===- AttentionSoftmax.cpp - the softmax of decomposed attention ---------===//
//
// Importers decompose the softmax of attention logits into a row max, a
// subtraction, exp, a row sum and a division, and may add gpt-oss's sink
// column or SDPA's guard that zeroes fully masked rows. These matchers read
// the probabilities back to the logits.
//
//===----------------------------------------------------------------------===//

#include "AttentionSoftmax.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

/// A reduction over the last of 4 loops into `[B, H, Sq, 1]` or
/// `[B, H, Sq]`, reading `input` through the identity map; result `result`
/// of the generic yields `Combine(in, out)` from an init filled with `init`.
template <typename Combine>
static bool isRowReduction(Value v, Value input, double init) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getDpsInputs()[0] != input || generic.getNumLoops() != 4 ||
      generic.getNumReductionLoops() != 1 ||
      generic.getIteratorTypesArray()[3] != utils::IteratorType::reduction ||
      !generic.getIndexingMapsArray()[0].isIdentity())
    return false;
  unsigned r = cast<OpResult>(v).getResultNumber();
  OpOperand *initOperand = generic.getDpsInitOperand(r);
  auto fill = initOperand->get().getDefiningOp<linalg::FillOp>();
  std::optional<double> fillValue =
      fill ? getConstantFloat(fill.getInputs()[0]) : std::nullopt;
  if (!fillValue || *fillValue != init)
    return false;
  AffineMap outMap = generic.getMatchingIndexingMap(initOperand);
  auto outDims = nonUnitDims(outMap, cast<ShapedType>(v.getType()));
  auto inType = cast<ShapedType>(input.getType());
  SmallVector<unsigned> expected;
  for (unsigned d = 0; d < 3; ++d)
    if (inType.getDimSize(d) != 1)
      expected.push_back(d);
  if (!outDims || *outDims != expected)
    return false;
  Block *body = generic.getBody();
  Value yielded = body->getTerminator()->getOperand(r);
  auto combine = yielded.getDefiningOp<Combine>();
  if (!combine)
    return false;
  Value in = body->getArgument(0);
  Value out = body->getArgument(generic.getNumDpsInputs() + r);
  return (combine->getOperand(0) == in && combine->getOperand(1) == out) ||
         (combine->getOperand(0) == out && combine->getOperand(1) == in);
}

/// `x op rowValue`, with `rowValue` read as `[B, H, Sq, 1]` broadcast along
/// the keys; returns `x` and the row value's tensor.
template <typename OpTy>
static std::optional<std::pair<Value, Value>> matchRowBroadcast(Value v) {
  auto e = matchElementwise<OpTy>(v);
  if (!e || !e->isIdentityInput(0) || !e->getInput(1))
    return std::nullopt;
  auto dims = nonUnitDims(e->getMap(1),
                          cast<ShapedType>(e->getInput(1)->get().getType()));
  if (!dims || llvm::is_contained(*dims, 3u))
    return std::nullopt;
  return std::make_pair(e->getInput(0)->get(), e->getInput(1)->get());
}

Value raising::matchSoftmax(Value p) {
  auto div = matchRowBroadcast<arith::DivFOp>(p);
  if (!div)
    return Value();
  auto [e, sum] = *div;
  auto exp = matchElementwise<math::ExpOp>(e);
  if (!exp || !exp->isIdentityInput(0))
    return Value();
  if (!isRowReduction<arith::AddFOp>(stripUnitReshapes(sum), e, 0.0))
    return Value();
  auto sub = matchRowBroadcast<arith::SubFOp>(exp->getInput(0)->get());
  if (!sub)
    return Value();
  auto [x, max] = *sub;
  if (!isRowReduction<arith::MaximumFOp>(stripUnitReshapes(max), x, -INFINITY))
    return Value();
  return x;
}

Value raising::matchSinkSoftmax(Value probs, Value &sinks) {
  std::optional<LastDimSlice> kept = matchLastDimSlice(probs);
  if (!kept || kept->offset != 0)
    return Value();
  Value combined = matchSoftmax(kept->source);
  if (!combined)
    return Value();
  if (auto sub = matchRowBroadcast<arith::SubFOp>(combined);
      sub && isRowReduction<arith::MaximumFOp>(stripUnitReshapes(sub->second),
                                               sub->first, -INFINITY))
    combined = sub->first;
  std::optional<SmallVector<Value>> pieces = matchLastDimConcat(combined);
  if (!pieces || pieces->size() != 2)
    return Value();
  Value logits = (*pieces)[0], column = (*pieces)[1];
  auto logitsType = cast<RankedTensorType>(logits.getType());
  auto columnType = cast<RankedTensorType>(column.getType());
  if (logitsType.getRank() != 4 || columnType.getDimSize(3) != 1 ||
      !isDimSize(kept->mixedSize, logits, 3))
    return Value();
  // The column copies a per-head value: read through the head axis only.
  OpOperand *copy = matchCopy(column);
  if (!copy)
    return Value();
  Value source = copy->get();
  auto dims = nonUnitDims(
      cast<linalg::GenericOp>(copy->getOwner()).getMatchingIndexingMap(copy),
      cast<ShapedType>(source.getType()));
  if (!dims || *dims != SmallVector<unsigned>{1})
    return Value();
  Value table = stripUnitReshapes(source);
  auto tableType = dyn_cast<RankedTensorType>(table.getType());
  if (!tableType || tableType.getRank() != 1 ||
      !tableType.getElementType().isF32())
    return Value();
  sinks = table;
  return logits;
}

/// `select(isnan(p), 0, p)` (isnan as `p != p` or `uno(p, p)`); returns `p`.
static Value stripNaNGuard(const Elementwise &select) {
  Value p = select.getInput(2)->get();
  auto isNaN = matchElementwise<arith::CmpFOp>(select.getInput(0)->get());
  if (!isNaN || !select.isIdentityInput(0) || !isNaN->isIdentityInput(0) ||
      !isNaN->isIdentityInput(1) || isNaN->getInput(0)->get() != p ||
      isNaN->getInput(1)->get() != p)
    return Value();
  auto cmp = cast<arith::CmpFOp>(isNaN->body);
  if (cmp.getPredicate() != arith::CmpFPredicate::UNE &&
      cmp.getPredicate() != arith::CmpFPredicate::UNO)
    return Value();
  return p;
}

Value raising::stripMaskedRowGuard(Value v, Value &logitsOut) {
  auto select = matchElementwise<arith::SelectOp>(v);
  if (!select || !select->getInput(0) || !select->isIdentityInput(2))
    return Value();
  std::optional<double> zero = select->getConstantFloatOperand(1);
  auto condDims =
      nonUnitDims(select->getMap(0),
                  cast<ShapedType>(select->getInput(0)->get().getType()));
  if (!zero || *zero != 0.0 || !condDims)
    return Value();
  if (llvm::is_contained(*condDims, 3u)) {
    logitsOut = Value();
    return stripNaNGuard(*select);
  }
  // The condition: an and-reduction over keys (init true) of
  // `logits == -inf` (compared in f32 or after extf to f64).
  auto all = select->getInput(0)->get().getDefiningOp<linalg::GenericOp>();
  if (!all || all.getNumDpsInputs() != 1 || all.getNumReductionLoops() != 1 ||
      all.getNumLoops() != 4 ||
      all.getIteratorTypesArray()[3] != utils::IteratorType::reduction)
    return Value();
  auto fill = all.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  APInt init;
  if (!fill || !matchPattern(fill.getInputs()[0], m_ConstantInt(&init)) ||
      init.isZero())
    return Value();
  Block *body = all.getBody();
  auto andOp =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::AndIOp>();
  if (!andOp)
    return Value();
  // `logits == -inf`, possibly compared after an extf to f64 in the body.
  auto eq = all.getDpsInputs()[0].getDefiningOp<linalg::GenericOp>();
  if (!eq || eq.getNumDpsInputs() != 1 || eq.getNumResults() != 1 ||
      !llvm::all_of(eq.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return Value();
  Block *eqBody = eq.getBody();
  auto cmp =
      eqBody->getTerminator()->getOperand(0).getDefiningOp<arith::CmpFOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpFPredicate::OEQ)
    return Value();
  Value lhs = cmp.getLhs();
  if (auto ext = lhs.getDefiningOp<arith::ExtFOp>())
    lhs = ext.getIn();
  std::optional<double> inf = getConstantFloat(cmp.getRhs());
  if (lhs != eqBody->getArgument(0) || !inf || !std::isinf(*inf) || *inf > 0 ||
      eqBody->getOperations().size() > 3)
    return Value();
  Value compared = eq.getDpsInputs()[0];
  logitsOut = compared;
  return select->getInput(2)->get();
}
