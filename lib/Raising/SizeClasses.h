//===- SizeClasses.h - which dynamic sizes are equal ------------*- C++ -*-===//
//
// Part of posenc-unify-dynamic-dims: the equalities of sizes a program
// relies on, as classes.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_RAISING_SIZECLASSES_H
#define POSENC_LIB_RAISING_SIZECLASSES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace posenc {
namespace raising {

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

/// The size `v` (a scalar).
inline SizeKey scalar(Value v) { return {v, -1}; }

/// Whether dimension `dim` of `tensor` is a dynamic one.
bool isDynamicDim(Value tensor, int64_t dim);

/// Whether two sizes are equal: one class, or (once the classes share one
/// value) equal by ValueBoundsOpInterface, as `(n + 1) - 1` and `n` are.
bool sameSize(SizeClasses &classes, SizeKey a, SizeKey b);

/// Records every size equality the ops of `root` imply.
void collectEqualities(Operation *root, SizeClasses &classes);

} // namespace raising
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_RAISING_SIZECLASSES_H
