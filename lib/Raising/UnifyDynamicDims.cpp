//===- UnifyDynamicDims.cpp - posenc-unify-dynamic-dims -------------------===//
//
// Importers of dynamically shaped models compute one sequence length many
// times: `tensor.dim` of each argument, sizes re-derived from reshapes
// (`S * 2 / 2`), i64 copies for `view` shapes. The raising patterns compare
// values, so they would see as many lengths as there are computations. This
// pass proves which dynamic sizes are equal and makes them one SSA value.
//
// Sizes are equal when the program relies on it: operands of a linalg op
// indexed by the same loop dimension (a mismatch is undefined behavior), a
// `cf.assert` of their equality, a result and its destination, sizes passed
// through empty/expand/collapse/slice/concat/cast/reshape, index casts and
// `x * c / c`. A class of sizes that contains a dimension of a function
// argument is replaced by one `tensor.dim` of that argument at the function's
// entry. Then three rewrites that the shared sizes make provable:
// `index_cast(size) < 0` is false, a broadcast's `select(size == 1, 0, i)`
// over a loop of that size is `i`, and `tensor.reshape` to a shape built
// from the sizes is an expand or collapse.
//
//===----------------------------------------------------------------------===//

#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCUNIFYDYNAMICDIMS
#include "posenc/Raising/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

/// A size: a scalar value (dim -1) or a dynamic dimension of a tensor.
using SizeKey = std::pair<Value, int64_t>;

/// Union-find over sizes; ids in order of first appearance (deterministic).
class SizeClasses {
public:
  unsigned id(SizeKey key) {
    auto [it, inserted] = ids.try_emplace(key, parent.size());
    if (inserted) {
      parent.push_back(parent.size());
      keys.push_back(key);
    }
    return it->second;
  }
  unsigned find(unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(SizeKey a, SizeKey b) {
    unsigned ra = find(id(a)), rb = find(id(b));
    if (ra != rb)
      parent[std::max(ra, rb)] = std::min(ra, rb);
  }
  bool same(SizeKey a, SizeKey b) {
    auto ia = ids.find(a), ib = ids.find(b);
    return a == b || (ia != ids.end() && ib != ids.end() &&
                      find(ia->second) == find(ib->second));
  }
  ArrayRef<SizeKey> allKeys() const { return keys; }

private:
  llvm::DenseMap<SizeKey, unsigned> ids;
  SmallVector<unsigned> parent;
  SmallVector<SizeKey> keys;
};

SizeKey scalar(Value v) { return {v, -1}; }

bool isDynamicDim(Value tensor, int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  return type && dim >= 0 && dim < type.getRank() && type.isDynamicDim(dim);
}

/// `x` when `v` is `x * c` (arith.muli or an affine map `s0 * c`).
Value unscale(Value v, int64_t c) {
  APInt factor;
  if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
    if (matchPattern(mul.getRhs(), m_ConstantInt(&factor)) &&
        factor.getSExtValue() == c)
      return mul.getLhs();
    return {};
  }
  auto apply = v.getDefiningOp<affine::AffineApplyOp>();
  if (!apply || apply.getMapOperands().size() != 1)
    return {};
  AffineExpr expr = apply.getAffineMap().getResult(0);
  AffineExpr var = apply.getAffineMap().getNumDims() == 1
                       ? getAffineDimExpr(0, v.getContext())
                       : getAffineSymbolExpr(0, v.getContext());
  return expr == var * c ? apply.getMapOperands()[0] : Value();
}

/// Whether `v` is a size: a `tensor.dim`, possibly index-cast.
bool isSize(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<tensor::DimOp>(def))
      return true;
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return false;
}

/// Records every size equality the ops of `root` imply.
void collectEqualities(Operation *root, SizeClasses &classes) {
  auto uniteDims = [&](Value a, int64_t da, Value b, int64_t db) {
    if (isDynamicDim(a, da) && isDynamicDim(b, db))
      classes.unite({a, da}, {b, db});
  };
  auto uniteDim = [&](Value t, int64_t d, Value size) {
    if (isDynamicDim(t, d))
      classes.unite({t, d}, scalar(size));
  };
  // For expand/collapse: a group whose expanded side is one dynamic dimension
  // among unit ones has the collapsed dimension's size.
  auto uniteGroups = [&](Value collapsed, Value expanded,
                         ArrayRef<ReassociationIndices> groups) {
    auto expandedType = cast<RankedTensorType>(expanded.getType());
    for (auto [c, group] : llvm::enumerate(groups)) {
      std::optional<int64_t> dynamic;
      bool units = true;
      for (int64_t e : group) {
        if (expandedType.isDynamicDim(e))
          units &= !dynamic.has_value(), dynamic = e;
        else
          units &= expandedType.getDimSize(e) == 1;
      }
      if (units && dynamic)
        uniteDims(collapsed, c, expanded, *dynamic);
    }
  };
  root->walk([&](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](tensor::DimOp dim) {
          if (std::optional<int64_t> index = dim.getConstantIndex())
            uniteDim(dim.getSource(), *index, dim.getResult());
        })
        .Case<arith::IndexCastOp, arith::IndexCastUIOp>([&](Operation *cast) {
          classes.unite(scalar(cast->getResult(0)),
                        scalar(cast->getOperand(0)));
        })
        .Case([&](tensor::EmptyOp empty) {
          for (int64_t d = 0, e = empty.getType().getRank(); d < e; ++d)
            if (empty.getType().isDynamicDim(d))
              uniteDim(empty.getResult(), d, empty.getDynamicSize(d));
        })
        .Case([&](tensor::ExpandShapeOp expand) {
          for (auto [d, size] : llvm::enumerate(expand.getMixedOutputShape()))
            if (auto v = dyn_cast<Value>(size))
              uniteDim(expand.getResult(), d, v);
          uniteGroups(expand.getSrc(), expand.getResult(),
                      expand.getReassociationIndices());
        })
        .Case([&](tensor::CollapseShapeOp collapse) {
          uniteGroups(collapse.getResult(), collapse.getSrc(),
                      collapse.getReassociationIndices());
        })
        .Case([&](tensor::ExtractSliceOp slice) {
          if (slice.getType().getRank() != slice.getSourceType().getRank())
            return;
          for (auto [d, size] : llvm::enumerate(slice.getMixedSizes()))
            if (auto v = dyn_cast<Value>(size))
              uniteDim(slice.getResult(), d, v);
        })
        .Case([&](tensor::ConcatOp concat) {
          for (Value input : concat.getInputs())
            for (int64_t d = 0, e = concat.getRank(); d < e; ++d)
              if (d != static_cast<int64_t>(concat.getDim()))
                uniteDims(concat.getResult(), d, input, d);
        })
        .Case([&](tensor::CastOp cast) {
          for (int64_t d = 0, e = cast.getType().getRank(); d < e; ++d)
            uniteDims(cast.getResult(), d, cast.getSource(), d);
        })
        .Case([&](tensor::ReshapeOp reshape) {
          auto shape =
              reshape.getShape().getDefiningOp<tensor::FromElementsOp>();
          if (!shape)
            return;
          for (auto [d, size] : llvm::enumerate(shape.getElements()))
            uniteDim(reshape.getResult(), d, size);
        })
        .Case([&](cf::AssertOp assertOp) {
          auto cmp = assertOp.getArg().getDefiningOp<arith::CmpIOp>();
          if (cmp && cmp.getPredicate() == arith::CmpIPredicate::eq)
            classes.unite(scalar(cmp.getLhs()), scalar(cmp.getRhs()));
        })
        .Case<arith::DivSIOp, arith::DivUIOp>([&](Operation *div) {
          APInt c;
          if (!matchPattern(div->getOperand(1), m_ConstantInt(&c)) ||
              c.getSExtValue() <= 0)
            return;
          if (Value x = unscale(div->getOperand(0), c.getSExtValue()))
            classes.unite(scalar(div->getResult(0)), scalar(x));
        });
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      SmallVector<std::optional<SizeKey>> loops(linalgOp.getNumLoops());
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<RankedTensorType>(operand.get().getType()))
          continue;
        AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
        for (auto [d, expr] : llvm::enumerate(map.getResults())) {
          auto loop = dyn_cast<AffineDimExpr>(expr);
          if (!loop || !isDynamicDim(operand.get(), d))
            continue;
          std::optional<SizeKey> &key = loops[loop.getPosition()];
          if (key)
            classes.unite(*key, {operand.get(), static_cast<int64_t>(d)});
          else
            key = SizeKey{operand.get(), static_cast<int64_t>(d)};
        }
      }
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      for (OpResult result : op->getResults()) {
        if (!isa<RankedTensorType>(result.getType()))
          continue;
        Value init = dps.getTiedOpOperand(result)->get();
        for (int64_t d = 0,
                     e = cast<RankedTensorType>(result.getType()).getRank();
             d < e; ++d)
          uniteDims(result, d, init, d);
      }
    }
  });
}

/// `index_cast(size) < 0` is false and `>= 0` true: selects on it (torch's
/// negative-dimension handling in `view` shapes) take their branch.
bool foldSizeSigns(Operation *root) {
  bool changed = false;
  SmallVector<arith::CmpIOp> cmps;
  root->walk([&](arith::CmpIOp cmp) { cmps.push_back(cmp); });
  for (arith::CmpIOp cmp : cmps) {
    bool lt = cmp.getPredicate() == arith::CmpIPredicate::slt;
    if ((!lt && cmp.getPredicate() != arith::CmpIPredicate::sge) ||
        !matchPattern(cmp.getRhs(), m_Zero()) || !isSize(cmp.getLhs()))
      continue;
    OpBuilder builder(cmp);
    Value constant = arith::ConstantIntOp::create(builder, cmp.getLoc(),
                                                  builder.getI1Type(), !lt);
    cmp.getResult().replaceAllUsesWith(constant);
    changed = true;
  }
  SmallVector<arith::SelectOp> selects;
  root->walk([&](arith::SelectOp select) { selects.push_back(select); });
  for (arith::SelectOp select : selects) {
    APInt cond;
    if (!matchPattern(select.getCondition(), m_ConstantInt(&cond)) ||
        !select.getType().isIntOrIndex())
      continue;
    select.getResult().replaceAllUsesWith(
        cond.isZero() ? select.getFalseValue() : select.getTrueValue());
    changed = true;
  }
  return changed;
}

/// Makes every class that holds a dimension of an argument of `func` one SSA
/// value: `tensor.dim` of the first such argument at the function's entry.
DenseMap<unsigned, Value> replaceByArgumentDims(FunctionOpInterface func,
                                                SizeClasses &classes) {
  Block &entry = func.getFunctionBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  DenseMap<unsigned, Value> reps;
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      continue;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      unsigned root = classes.find(classes.id({arg, d}));
      if (reps.count(root))
        continue;
      Value rep = tensor::DimOp::create(builder, func.getLoc(), arg, d);
      classes.unite(scalar(rep), {arg, d});
      reps[root] = rep;
    }
  }
  DenseMap<unsigned, Value> i64Reps;
  for (SizeKey key : llvm::to_vector(classes.allKeys())) {
    Value v = key.first;
    if (key.second != -1 || !v.getDefiningOp())
      continue;
    auto it = reps.find(classes.find(classes.id(key)));
    if (it == reps.end() || v == it->second)
      continue;
    Value rep = it->second;
    if (v.getType().isInteger(64)) {
      Value &cast = i64Reps[classes.find(classes.id(key))];
      if (!cast) {
        builder.setInsertionPointAfterValue(rep);
        cast = arith::IndexCastOp::create(builder, func.getLoc(),
                                          builder.getI64Type(), rep);
        classes.unite(scalar(cast), scalar(rep));
      }
      rep = cast;
    } else if (!v.getType().isIndex()) {
      continue;
    }
    // The asserts keep comparing the original sizes: a program that aborts
    // on mismatched inputs still does.
    if (v != rep)
      v.replaceUsesWithIf(rep, [](OpOperand &use) {
        Operation *user = use.getOwner();
        return !isa<arith::CmpIOp>(user) ||
               !llvm::all_of(user->getUsers(), llvm::IsaPred<cf::AssertOp>);
      });
  }
  return reps;
}

/// The size of loop `loop` of `linalgOp` as a class key, if dynamic.
std::optional<SizeKey> loopSize(linalg::LinalgOp linalgOp, unsigned loop) {
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    for (auto [d, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        if (dim.getPosition() == loop && isDynamicDim(operand.get(), d))
          return SizeKey{operand.get(), static_cast<int64_t>(d)};
  }
  return std::nullopt;
}

/// In a linalg body, `select(n == 1, 0, linalg.index d)` with `n` the size
/// of loop `d` is `linalg.index d`: the loop is 0 whenever `n` is 1 (torch's
/// broadcast of a dynamic dimension that may be 1).
void foldUnitBroadcasts(Operation *root, SizeClasses &classes) {
  SmallVector<std::pair<arith::SelectOp, Value>> folds;
  root->walk([&](arith::SelectOp select) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(select->getParentOp());
    auto index = select.getFalseValue().getDefiningOp<linalg::IndexOp>();
    auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
    if (!linalgOp || !index || !cmp ||
        !matchPattern(select.getTrueValue(), m_Zero()) ||
        cmp.getPredicate() != arith::CmpIPredicate::eq ||
        !matchPattern(cmp.getRhs(), m_One()))
      return;
    std::optional<SizeKey> size = loopSize(linalgOp, index.getDim());
    if (size && classes.same(*size, scalar(cmp.getLhs())))
      folds.push_back({select, index.getResult()});
  });
  for (auto [select, index] : folds)
    select.getResult().replaceAllUsesWith(index);
}

/// `tensor.reshape` whose result sizes are the source's, regrouped: the
/// expand or collapse that says so.
void foldReshapes(Operation *root, SizeClasses &classes,
                  const DenseMap<unsigned, Value> &reps) {
  SmallVector<tensor::ReshapeOp> reshapes;
  root->walk([&](tensor::ReshapeOp reshape) { reshapes.push_back(reshape); });
  // The shared size of a class when there is one, else a tensor.dim.
  auto sizeOf = [&](OpBuilder &builder, Value tensor, int64_t d) -> Value {
    auto it = reps.find(classes.find(classes.id({tensor, d})));
    if (it != reps.end())
      return it->second;
    return tensor::DimOp::create(builder, tensor.getLoc(), tensor, d);
  };
  for (tensor::ReshapeOp reshape : reshapes) {
    auto from = cast<RankedTensorType>(reshape.getSource().getType());
    auto to = cast<RankedTensorType>(reshape.getType());
    if (from.getRank() == to.getRank())
      continue;
    bool expand = from.getRank() < to.getRank();
    std::optional<SmallVector<ReassociationIndices>> groups =
        getReassociationIndicesForReshape(from, to);
    if (!groups)
      continue;
    RankedTensorType expandedType = expand ? to : from;
    Value collapsed = expand ? reshape.getSource() : reshape.getResult();
    Value expanded = expand ? reshape.getResult() : reshape.getSource();
    // Every group with a dynamic size: one dynamic expanded dimension among
    // unit ones, the same size as the collapsed dimension.
    bool provable = true;
    for (auto [c, group] : llvm::enumerate(*groups)) {
      auto dynamic = llvm::filter_to_vector(
          group, [&](int64_t e) { return expandedType.isDynamicDim(e); });
      if (dynamic.empty())
        continue;
      bool units = llvm::all_of(group, [&](int64_t e) {
        return expandedType.isDynamicDim(e) || expandedType.getDimSize(e) == 1;
      });
      provable &= dynamic.size() == 1 && units &&
                  classes.same({collapsed, static_cast<int64_t>(c)},
                               {expanded, dynamic.front()});
    }
    if (!provable)
      continue;
    OpBuilder builder(reshape);
    Value result;
    if (expand) {
      SmallVector<OpFoldResult> sizes;
      for (auto [c, group] : llvm::enumerate(*groups))
        for (int64_t e : group)
          sizes.push_back(
              to.isDynamicDim(e)
                  ? OpFoldResult(sizeOf(builder, reshape.getSource(), c))
                  : OpFoldResult(builder.getIndexAttr(to.getDimSize(e))));
      result = tensor::ExpandShapeOp::create(
          builder, reshape.getLoc(), to, reshape.getSource(), *groups, sizes);
    } else {
      result = tensor::CollapseShapeOp::create(builder, reshape.getLoc(), to,
                                               reshape.getSource(), *groups);
    }
    reshape.getResult().replaceAllUsesWith(result);
    reshape.erase();
  }
}

/// A generic without inputs whose body yields `tensor.extract %t[i...]`,
/// each index a loop index or a constant 0 into a unit dimension (torch's
/// broadcast of a dynamic dimension, once foldUnitBroadcasts has removed its
/// `n == 1` selects), reads `%t` as an input through the indexing map those
/// indices make: the form of a static broadcast, which the patterns read.
/// Each dimension of `%t` read at a loop index must be that loop's size (a
/// longer `%t` read in part would not be a valid input).
void extractsToInputs(Operation *root, SizeClasses &classes) {
  SmallVector<linalg::GenericOp> generics;
  root->walk([&](linalg::GenericOp generic) { generics.push_back(generic); });
  for (linalg::GenericOp generic : generics) {
    Block *body = generic.getBody();
    if (generic.getNumDpsInputs() != 0 || generic.getNumDpsInits() != 1 ||
        generic.getNumResults() != 1 ||
        !generic.getIndexingMapsArray()[0].isIdentity())
      continue;
    Value init = generic.getDpsInits()[0];
    auto initType = cast<RankedTensorType>(init.getType());
    auto extract =
        body->getTerminator()->getOperand(0).getDefiningOp<tensor::ExtractOp>();
    if (!extract || extract->getBlock() != body ||
        generic->isAncestor(
            extract.getTensor().getParentRegion()->getParentOp()))
      continue;
    auto sourceType = cast<RankedTensorType>(extract.getTensor().getType());
    SmallVector<AffineExpr> exprs;
    Value source = extract.getTensor();
    for (auto [d, index] : llvm::enumerate(extract.getIndices())) {
      auto loop = index.getDefiningOp<linalg::IndexOp>();
      int64_t dim = static_cast<int64_t>(d);
      if (loop && (sourceType.isDynamicDim(d)
                       ? classes.same({source, dim}, {init, loop.getDim()})
                       : !initType.isDynamicDim(loop.getDim()) &&
                             initType.getDimSize(loop.getDim()) ==
                                 sourceType.getDimSize(d)))
        exprs.push_back(getAffineDimExpr(loop.getDim(), generic.getContext()));
      else if (matchPattern(index, m_Zero()) && !sourceType.isDynamicDim(d) &&
               sourceType.getDimSize(d) == 1)
        exprs.push_back(getAffineConstantExpr(0, generic.getContext()));
      else
        break;
    }
    bool onlyIndices =
        llvm::all_of(body->without_terminator(), [&](Operation &op) {
          return &op == extract.getOperation() ||
                 isa<linalg::IndexOp, arith::ConstantOp>(op);
        });
    if (exprs.size() != extract.getIndices().size() || !onlyIndices ||
        !extract->hasOneUse())
      continue;
    AffineMap map =
        AffineMap::get(generic.getNumLoops(), 0, exprs, generic.getContext());
    OpBuilder builder(generic);
    auto copy = linalg::GenericOp::create(
        builder, generic.getLoc(), generic.getResultTypes(),
        ValueRange{extract.getTensor()}, generic.getDpsInits(),
        ArrayRef<AffineMap>{map, generic.getIndexingMapsArray()[0]},
        generic.getIteratorTypesArray(),
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args[0]);
        });
    generic.getResult(0).replaceAllUsesWith(copy.getResult(0));
    generic.erase();
  }
}

/// A generic that copies its input to a result of the same type through
/// identity maps (torch's `expand` to the sizes a tensor already has, kept at
/// dynamic lengths) is its input.
void foldIdentityCopies(Operation *root) {
  SmallVector<linalg::GenericOp> copies;
  root->walk([&](linalg::GenericOp generic) {
    Block *body = generic.getBody();
    if (generic.getNumDpsInputs() == 1 && generic.getNumDpsInits() == 1 &&
        generic.getNumResults() == 1 &&
        generic.getNumParallelLoops() == generic.getNumLoops() &&
        llvm::all_of(generic.getIndexingMapsArray(),
                     [](AffineMap map) { return map.isIdentity(); }) &&
        generic.getDpsInputs()[0].getType() == generic.getResultTypes()[0] &&
        body->without_terminator().empty() &&
        body->getTerminator()->getOperand(0) == body->getArgument(0))
      copies.push_back(generic);
  });
  for (linalg::GenericOp copy : copies) {
    copy.getResult(0).replaceAllUsesWith(copy.getDpsInputs()[0]);
    copy.erase();
  }
}

/// Erases the scalar computations (sizes, casts, compares, selects) and
/// shapes that the rewrites left without uses.
void eraseDeadScalars(FunctionOpInterface func) {
  bool erased = true;
  while (erased) {
    erased = false;
    SmallVector<Operation *> dead;
    func.walk<WalkOrder::PostOrder>([&](Operation *op) {
      bool scalar = llvm::none_of(op->getResultTypes(), [](Type type) {
        return isa<ShapedType>(type);
      });
      if ((isa<tensor::DimOp, tensor::FromElementsOp, affine::AffineApplyOp,
               linalg::IndexOp>(op) ||
           (scalar && op->getDialect() &&
            isa<arith::ArithDialect>(op->getDialect()))) &&
          isOpTriviallyDead(op))
        dead.push_back(op);
    });
    for (Operation *op : llvm::reverse(dead))
      if (isOpTriviallyDead(op)) {
        op->erase();
        erased = true;
      }
  }
}

struct UnifyDynamicDims
    : posenc::impl::PosEncUnifyDynamicDimsBase<UnifyDynamicDims> {
  void runOnOperation() override {
    SmallVector<FunctionOpInterface> funcs;
    if (auto func = dyn_cast<FunctionOpInterface>(getOperation()))
      funcs.push_back(func);
    else
      getOperation()->walk(
          [&](FunctionOpInterface func) { funcs.push_back(func); });
    for (FunctionOpInterface func : funcs) {
      if (func.isExternal() || !hasDynamicTensors(func))
        continue;
      foldSizeSigns(func);
      SizeClasses classes;
      collectEqualities(func, classes);
      DenseMap<unsigned, Value> reps = replaceByArgumentDims(func, classes);
      foldUnitBroadcasts(func, classes);
      foldReshapes(func, classes, reps);
      eraseDeadScalars(func);
      extractsToInputs(func, classes);
      foldIdentityCopies(func);
    }
  }

  static bool hasDynamicTensors(FunctionOpInterface func) {
    return func
        .walk([](Operation *op) {
          for (Type type : op->getResultTypes())
            if (auto tensor = dyn_cast<RankedTensorType>(type))
              if (!tensor.hasStaticShape())
                return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  }
};

} // namespace
