//===- UnifyDynamicDims.cpp - posenc-unify-dynamic-dims -------------------===//
//
// Importers of dynamically shaped models compute one sequence length many
// times: `tensor.dim` of each argument, sizes re-derived from reshapes
// (`S * 2 / 2`), i64 copies for `view` shapes. The raising patterns compare
// values, so they would see as many lengths as there are computations. This
// pass proves which dynamic sizes are equal and makes them one SSA value.
//
// Sizes are equal when the program relies on it (SizeClasses.cpp). A class
// of sizes that contains a dimension of an input (argument, or IREE's imported
// tensor) is replaced by one `tensor.dim` of that input. Then the rewrites that
// the shared sizes make provable: size arithmetic that value bounds decide
// (SizeFolding.cpp), a broadcast's `select(size == 1, 0, i)` over a loop of
// that size is `i`, `tensor.reshape` to a shape built from the sizes is an
// expand or collapse.
//
//===----------------------------------------------------------------------===//

#include "SizeClasses.h"
#include "SizeFolding.h"

#include "posenc/Raising/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCUNIFYDYNAMICDIMS
#include "posenc/Raising/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

namespace {

/// The tensors whose sizes come from outside the function: its arguments,
/// then (IREE's input IR, whose functions take buffer views) the results of
/// ops of dialects posenc does not register (`hal.tensor.import`), in order.
SmallVector<Value> inputTensors(FunctionOpInterface func) {
  SmallVector<Value> inputs(func.getFunctionBody().getArguments());
  func.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!op->getName().isRegistered())
      llvm::append_range(inputs, op->getResults());
  });
  return inputs;
}

/// Makes every class that holds a dimension of an input of `func` one SSA
/// value: `tensor.dim` of the first such input, where that input is defined.
/// Sizes are replaced where the `tensor.dim` dominates them.
DenseMap<unsigned, Value> replaceByArgumentDims(FunctionOpInterface func,
                                                SizeClasses &classes,
                                                DominanceInfo &dominance) {
  Block &entry = func.getFunctionBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  DenseMap<unsigned, Value> reps;
  for (Value input : inputTensors(func)) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type)
      continue;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      unsigned root = classes.find(classes.id({input, d}));
      if (reps.count(root))
        continue;
      builder.setInsertionPointAfterValue(input);
      Value rep = tensor::DimOp::create(builder, func.getLoc(), input, d);
      classes.unite(scalar(rep), {input, d});
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
      v.replaceUsesWithIf(rep, [&](OpOperand &use) {
        Operation *user = use.getOwner();
        return dominance.properlyDominates(rep, user) &&
               (!isa<arith::CmpIOp>(user) ||
                !llvm::all_of(user->getUsers(), llvm::IsaPred<cf::AssertOp>));
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
    if (size && sameSize(classes, *size, scalar(cmp.getLhs())))
      folds.push_back({select, index.getResult()});
  });
  for (auto [select, index] : folds)
    select.getResult().replaceAllUsesWith(index);
}

/// `tensor.reshape` whose result sizes are the source's, regrouped: the
/// expand or collapse that says so.
void foldReshapes(Operation *root, SizeClasses &classes,
                  const DenseMap<unsigned, Value> &reps,
                  DominanceInfo &dominance) {
  SmallVector<tensor::ReshapeOp> reshapes;
  root->walk([&](tensor::ReshapeOp reshape) { reshapes.push_back(reshape); });
  // The shared size of a class when there is one, else a tensor.dim.
  auto sizeOf = [&](OpBuilder &builder, Value tensor, int64_t d) -> Value {
    auto it = reps.find(classes.find(classes.id({tensor, d})));
    if (it != reps.end() &&
        dominance.properlyDominates(it->second, &*builder.getInsertionPoint()))
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
                  sameSize(classes, {collapsed, static_cast<int64_t>(c)},
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
                       ? sameSize(classes, {source, dim}, {init, loop.getDim()})
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
      raising::foldDecidedSizeArithmetic(func);
      SizeClasses classes;
      collectEqualities(func, classes);
      DominanceInfo dominance(func);
      DenseMap<unsigned, Value> reps =
          replaceByArgumentDims(func, classes, dominance);
      // Sizes now shared decide more (`min(n - 1, n)` of one `n`).
      raising::foldDecidedSizeArithmetic(func);
      foldUnitBroadcasts(func, classes);
      foldReshapes(func, classes, reps, dominance);
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
