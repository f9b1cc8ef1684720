//===- AttentionTerms.cpp - logit terms of decomposed attention
//------------===//
//
// What posenc-raise-attention reads off the logits of a decomposed
// attention: positional masks (causal, windowed, chunked), ALiBi biases,
// scales, Gemma 2's soft-cap and Llama 4's query temperature.
//
//===----------------------------------------------------------------------===//

#include "AttentionTerms.h"

#include "posenc/Raising/Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

/// Logits at or below this are masked out: HF fills with the dtype's
/// minimum (-3.4e38 for f32) rather than -inf; exp underflows to 0 alike.
static constexpr double kMaskedLogit = -1e30;

/// Reads a term broadcast over batch and heads: its values over `[Sq, Sk]`
/// (row or column may be broadcast too).
static std::optional<std::function<double(int64_t, int64_t)>>
rowColumnValues(Value term, AffineMap map, const LogitsSpace &space) {
  auto type = cast<RankedTensorType>(term.getType());
  std::optional<SmallVector<unsigned>> dims = nonUnitDims(map, type);
  if (!dims)
    return std::nullopt;
  bool hasRow = llvm::is_contained(*dims, space.row);
  bool hasCol = llvm::is_contained(*dims, space.col);
  if (dims->size() != unsigned(hasRow) + unsigned(hasCol) ||
      (hasRow && hasCol && (*dims)[0] != space.row))
    return std::nullopt;
  std::optional<SmallVector<double>> values = evaluateConstantTensor(term);
  if (!values)
    return std::nullopt;
  int64_t sk = space.sk;
  return
      [values = std::move(*values), hasRow, hasCol, sk](int64_t i, int64_t j) {
        return values[(hasRow ? i * (hasCol ? sk : 1) : 0) + (hasCol ? j : 0)];
      };
}

/// Classifies the masked entries of `[Sq, Sk]` (query positions `i + Sk -
/// Sq`, the causal mask's bottom-right alignment; key positions `j`) as a
/// causal mask, with a sliding window or chunks when some row starts after
/// key 0. Each row must see exactly one run of keys ending at the query's
/// position; the window's extent and the chunk size are read off the rows
/// and then checked on every row, so a mask that is neither (a window off
/// by one between rows, shifted chunks) is not matched.
static LogicalResult
classifyPositionalMask(const LogitsSpace &space,
                       llvm::function_ref<bool(int64_t, int64_t)> masked,
                       Terms &terms) {
  int64_t offset = space.sk - space.sq;
  SmallVector<int64_t> first(space.sq);
  for (int64_t i = 0; i < space.sq; ++i) {
    int64_t q = i + offset;
    int64_t j = 0;
    while (j < space.sk && masked(i, j))
      ++j;
    first[i] = j;
    if (j > q)
      return failure(); // the query does not see itself
    for (; j < space.sk; ++j)
      if (masked(i, j) != (j > q))
        return failure();
  }
  std::optional<int64_t> windowLeft, chunk;
  auto rowsAre = [&](llvm::function_ref<int64_t(int64_t)> start) {
    for (int64_t i = 0; i < space.sq; ++i)
      if (first[i] != start(i + offset))
        return false;
    return true;
  };
  if (llvm::any_of(first, [](int64_t j) { return j > 0; })) {
    int64_t left = 0, size = space.sk;
    for (int64_t i = 0; i < space.sq; ++i) {
      left = std::max(left, i + offset - first[i]);
      if (first[i] > 0)
        size = std::min(size, first[i]);
    }
    if (rowsAre([&](int64_t q) { return std::max<int64_t>(0, q - left); }))
      windowLeft = left;
    else if (rowsAre([&](int64_t q) { return q / size * size; }))
      chunk = size;
    else
      return failure();
  }
  // A second mask must be the same kind: two different ones would mask
  // their union, which these terms do not describe.
  if (terms.hasMask() &&
      (terms.windowLeft != windowLeft || terms.chunk != chunk))
    return failure();
  terms.causal = true;
  terms.windowLeft = windowLeft;
  terms.chunk = chunk;
  return success();
}

/// The fill of `select(cond, a, b)` where `a` is 0 and `b` masks (or null).
static std::optional<double> keepZeroFill(const Elementwise &select) {
  std::optional<double> keep = select.getConstantFloatOperand(1),
                        fill = select.getConstantFloatOperand(2);
  if (!keep || *keep != 0.0 || !fill || *fill > kMaskedLogit)
    return std::nullopt;
  return fill;
}

/// The key-validity part of classifyKeyMask: `valid` ([B?, 1?, Sq, Sk] i1,
/// read through `map`) is false where the positional mask hides a key and
/// the key's own `[B, Sk]` validity entry elsewhere.
static LogicalResult classifyKeyValidity(Value valid, AffineMap map,
                                         const LogitsSpace &space,
                                         Terms &terms) {
  if (terms.keyMask)
    return failure();
  if (space.isDynamic())
    return classifySymbolicValidity(valid, map, space, terms);
  auto type = cast<RankedTensorType>(valid.getType());
  std::optional<SmallVector<unsigned>> dims = nonUnitDims(map, type);
  if (!dims || llvm::is_contained(*dims, space.head))
    return failure();
  std::optional<KeyMaskedTensor> mask = evaluateKeyMaskedTensor(valid);
  if (!mask)
    return failure();
  auto keysType = cast<RankedTensorType>(mask->keys.getType());
  if (keysType.getDimSize(0) != space.b || keysType.getDimSize(1) != space.sk)
    return failure();
  // The element read at logit (b, h, i, j): a map result is a logits axis
  // or a broadcast 0.
  SmallVector<int64_t> strides(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  auto offsetOf = [&](int64_t b, int64_t i, int64_t j) {
    int64_t offset = 0;
    for (auto [d, e] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || type.getDimSize(d) == 1)
        continue;
      unsigned pos = dim.getPosition();
      int64_t at = pos == space.row ? i : pos == space.col ? j : b;
      offset += at * strides[d];
    }
    return offset;
  };
  if (llvm::any_of(*dims, [&](unsigned d) {
        return d != space.row && d != space.col && d != space.batch;
      }))
    return failure();
  // Every element is false (a positional mask, the same in every sequence)
  // or the key's own validity.
  SmallVector<bool> masked(space.sq * space.sk);
  for (int64_t b = 0; b < space.b; ++b)
    for (int64_t i = 0; i < space.sq; ++i)
      for (int64_t j = 0; j < space.sk; ++j) {
        double x = mask->values[offsetOf(b, i, j)];
        bool hidden = x == 0.0;
        if (!hidden &&
            x != KeyMaskedTensor::kKeyLiteral + double(b * space.sk + j))
          return failure();
        if (b == 0)
          masked[i * space.sk + j] = hidden;
        else if (masked[i * space.sk + j] != hidden)
          return failure();
      }
  if (llvm::any_of(masked, [](bool m) { return m; }) &&
      failed(classifyPositionalMask(
          space, [&](int64_t i, int64_t j) { return masked[i * space.sk + j]; },
          terms)))
    return failure();
  terms.keyMask = mask->keys;
  return success();
}

LogicalResult mlir::posenc::raising::classifyKeyMask(Value term, AffineMap map,
                                                     const LogitsSpace &space,
                                                     Terms &terms) {
  auto select = matchElementwise<arith::SelectOp>(term);
  if (!select || !select->getInput(0) || !select->isIdentityInput(0))
    return failure();
  if (!keepZeroFill(*select))
    return failure();
  return classifyKeyValidity(select->getInput(0)->get(), map, space, terms);
}

/// MPT's `masked_fill(where(valid, 0, fill) != 0, ...)`: `valid` behind the
/// condition `masked` (or null).
static Value validityBehindMaskedCondition(Value masked) {
  auto ne = matchElementwise<arith::CmpFOp>(masked);
  if (!ne || !ne->isIdentityInput(0))
    return Value();
  auto predicate = cast<arith::CmpFOp>(ne->body).getPredicate();
  Value zero = ne->getScalar(1);
  if (!zero && ne->getInput(1))
    zero = ne->getInput(1)->get();
  std::optional<double> z = zero ? getConstantFloat(zero) : std::nullopt;
  if ((predicate != arith::CmpFPredicate::UNE &&
       predicate != arith::CmpFPredicate::ONE) ||
      !z || *z != 0.0)
    return Value();
  auto bias = matchElementwise<arith::SelectOp>(ne->getInput(0)->get());
  if (!bias || !bias->getInput(0) || !bias->isIdentityInput(0) ||
      !keepZeroFill(*bias))
    return Value();
  return bias->getInput(0)->get();
}

LogicalResult mlir::posenc::raising::classifyMask(Value term, AffineMap map,
                                                  const LogitsSpace &space,
                                                  Terms &terms) {
  if (space.isDynamic())
    return failure();
  auto values = rowColumnValues(term, map, space);
  if (!values)
    return failure();
  bool allZero = true, exact = true;
  for (int64_t i = 0; i < space.sq; ++i)
    for (int64_t j = 0; j < space.sk; ++j) {
      double m = (*values)(i, j);
      allZero &= m == 0.0;
      exact &= m == 0.0 || m <= kMaskedLogit;
    }
  if (allZero)
    return success();
  if (!exact)
    return failure();
  return classifyPositionalMask(
      space, [&](int64_t i, int64_t j) { return (*values)(i, j) != 0.0; },
      terms);
}

LogicalResult mlir::posenc::raising::classifySelectMask(
    const Elementwise &select, const LogitsSpace &space, Terms &terms) {
  if (space.isDynamic())
    return failure();
  OpOperand *cond = select.getInput(0);
  std::optional<double> fill = select.getConstantFloatOperand(1);
  if (!cond || !fill || *fill > kMaskedLogit)
    return failure();
  auto values = rowColumnValues(cond->get(), select.getMap(0), space);
  if (!values) {
    Value valid = validityBehindMaskedCondition(cond->get());
    return valid ? classifyKeyValidity(valid, select.getMap(0), space, terms)
                 : failure();
  }
  return classifyPositionalMask(
      space, [&](int64_t i, int64_t j) { return (*values)(i, j) != 0.0; },
      terms);
}

LogicalResult mlir::posenc::raising::classifyKeepMask(Value keep, AffineMap map,
                                                      const LogitsSpace &space,
                                                      Terms &terms) {
  if (space.isDynamic())
    return classifySymbolicValidity(keep, map, space, terms);
  auto values = rowColumnValues(keep, map, space);
  if (!values)
    return classifyKeyValidity(keep, map, space, terms);
  bool allKept = true;
  for (int64_t i = 0; i < space.sq; ++i)
    for (int64_t j = 0; j < space.sk; ++j)
      allKept &= (*values)(i, j) != 0.0;
  if (allKept)
    return success();
  return classifyPositionalMask(
      space, [&](int64_t i, int64_t j) { return (*values)(i, j) == 0.0; },
      terms);
}

/// True when `alibi` biases the logits as posenc.attention's alibi would,
/// with query positions `i + Sk - Sq` (the causal mask's alignment) and key
/// positions `j`, up to what softmax cancels. A key-linear bias reads no
/// query position, and key positions `c + j` (MPT's `k - (Sk - 1)`) add
/// `slope * c` to every logit of a row: softmax cancels it exactly in real
/// arithmetic (in f32 the logits round differently, by an ulp of their
/// magnitude).
static bool hasAttentionPositions(AlibiOp alibi, const LogitsSpace &space) {
  if (alibi.getAlignment() != Alignment::bottom_right && space.sq != space.sk)
    return false;
  if (alibi.getForm() == AlibiForm::key_linear)
    return !alibi.getKPositions() ||
           matchArange(alibi.getKPositions()).has_value();
  return !alibi.getQPositions() && !alibi.getKPositions();
}

LogicalResult mlir::posenc::raising::classifyAlibi(Value term, AffineMap map,
                                                   const LogitsSpace &space,
                                                   Terms &terms) {
  if (space.isDynamic())
    return failure();
  auto alibi = stripUnitReshapes(term).getDefiningOp<AlibiOp>();
  if (!alibi || terms.alibi || !hasAttentionPositions(alibi, space))
    return failure();
  std::optional<SmallVector<unsigned>> dims =
      nonUnitDims(map, cast<ShapedType>(term.getType()));
  auto shape = nonUnitShape(alibi.getResult());
  // Symmetric biases depend on the query; key-linear ones may be one row.
  SmallVector<unsigned> full = {space.head, space.row, space.col},
                        row = {space.head, space.col};
  SmallVector<int64_t> fullShape = {space.hq, space.sq, space.sk},
                       rowShape = {space.hq, space.sk};
  bool isFull = dims && *dims == full && shape == fullShape;
  bool isRow = dims && *dims == row && shape == rowShape &&
               (alibi.getForm() == AlibiForm::key_linear || space.sq == 1);
  if (!isFull && !isRow)
    return failure();
  terms.alibi = alibi;
  return success();
}

Value mlir::posenc::raising::peelScale(Value v, double &scale) {
  auto e = matchElementwise(v);
  if (!e || e->getNumOperands() != 2 ||
      !isa<arith::MulFOp, arith::DivFOp>(e->body))
    return Value();
  for (unsigned t = 0; t < 2; ++t) {
    std::optional<double> c = e->getConstantFloatOperand(1 - t);
    if (!c || *c <= 0.0 || !e->isIdentityInput(t) ||
        (isa<arith::DivFOp>(e->body) && t != 0))
      continue;
    scale *= isa<arith::MulFOp>(e->body) ? *c : 1.0 / *c;
    return e->getInput(t)->get();
  }
  return Value();
}

Value mlir::posenc::raising::peelSoftcap(Value v, std::optional<double> &cap) {
  auto tanhInput = [](Value t) -> Value {
    auto tanh = matchElementwise<math::TanhOp>(t);
    return tanh && tanh->isIdentityInput(0) ? tanh->getInput(0)->get()
                                            : Value();
  };
  if (Value x = tanhInput(v)) {
    cap = 1.0;
    return x;
  }
  auto mul = matchElementwise<arith::MulFOp>(v);
  if (!mul)
    return Value();
  for (unsigned t = 0; t < 2; ++t) {
    Value scalar = mul->getScalar(1 - t);
    std::optional<double> outer =
        scalar ? getConstantFloat(scalar) : std::nullopt;
    if (!outer || *outer <= 0.0 || !std::isfinite(*outer) ||
        !mul->isIdentityInput(t))
      continue;
    Value scaled = tanhInput(mul->getInput(t)->get());
    double inner = 1.0;
    Value x = scaled ? peelScale(scaled, inner) : Value();
    // The two constants must agree in the element type the model computes
    // in (f32 `1 / c` is not always `1 / float(c)` in f64).
    if (!x || float(inner * *outer) != 1.0f)
      continue;
    cap = *outer;
    return x;
  }
  return Value();
}

/// Reads f and a off a constant temperature table `t` of `tokens` entries
/// (positions 0..tokens-1) and checks every entry; a table of ones has none.
static std::optional<std::pair<double, double>>
inferTemperature(ArrayRef<double> t) {
  auto near = [](double x, double y) {
    return std::abs(x - y) <= 4e-7 * std::max(1.0, std::abs(y));
  };
  int64_t first = 0;
  while (first < int64_t(t.size()) && near(t[first], 1.0))
    ++first;
  if (first == int64_t(t.size()))
    return std::nullopt;
  // floor((s + 1) / f) first reaches 1 at s + 1 = f (an integer f).
  double f = double(first + 1);
  double a = double(float((t[first] - 1.0) / std::log(2.0)));
  if (!std::isfinite(a) || a == 0.0)
    return std::nullopt;
  for (auto [s, value] : llvm::enumerate(t))
    if (!near(value, std::log1p(std::floor((double(s) + 1.0) / f)) * a + 1.0))
      return std::nullopt;
  return std::make_pair(f, a);
}

std::optional<QueryTemperature>
mlir::posenc::raising::matchQueryTemperature(Value q) {
  auto transpose = q.getDefiningOp<linalg::TransposeOp>();
  if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{0, 2, 1, 3})
    return std::nullopt;
  auto mul = matchElementwise<arith::MulFOp>(transpose.getInput());
  if (!mul)
    return std::nullopt;
  for (unsigned t = 0; t < 2; ++t) {
    OpOperand *table = mul->getInput(1 - t);
    if (!mul->isIdentityInput(t) || !table)
      continue;
    auto type = cast<RankedTensorType>(table->get().getType());
    std::optional<SmallVector<unsigned>> dims =
        nonUnitDims(mul->getMap(1 - t), type);
    if (!dims || *dims != SmallVector<unsigned>{1})
      continue;
    std::optional<SmallVector<double>> values =
        evaluateConstantTensor(table->get());
    if (!values)
      continue;
    std::optional<std::pair<double, double>> fa = inferTemperature(*values);
    if (!fa)
      continue;
    return QueryTemperature{mul->getInput(t)->get(), fa->first, fa->second};
  }
  return std::nullopt;
}
