//===- DotKeyLanes.cpp - lane bookkeeping of the dot-product key loop ----===//
//
// See DotKeyLanes.h.
//
//===----------------------------------------------------------------------===//

#include "DotKeyLanes.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace llvm;
using namespace mlir::posenc;

/// The order in which to feed keys to the transposing reduction (see
/// DotKernel::push) so that lane j of its result is the sum of key j: key
/// `feed[t]` goes t-th. The reduction interleaves its operands' segments, so
/// its result lanes come out in a permuted order; simulated here on labels.
SmallVector<int64_t> flash::transposingFeedOrder(int64_t lanes) {
  SmallVector<std::pair<SmallVector<int64_t>, int64_t>> stack;
  for (int64_t t = 0; t < lanes; ++t) {
    SmallVector<int64_t> labels{t};
    int64_t level = 0;
    while (!stack.empty() && stack.back().second == level) {
      SmallVector<int64_t> x = stack.pop_back_val().first;
      SmallVector<int64_t> merged;
      for (auto [a, b] : llvm::zip_equal(x, labels))
        merged.append({a, b});
      labels = std::move(merged);
      ++level;
    }
    stack.push_back({std::move(labels), level});
  }
  SmallVector<int64_t> feed(lanes);
  for (auto [lane, leaf] : llvm::enumerate(stack.front().first))
    feed[leaf] = lane;
  return feed;
}

/// The largest divisor of `n` that is at most `bound` (at least 1).
int64_t flash::largestDivisor(int64_t n, int64_t bound) {
  for (int64_t d = std::clamp<int64_t>(bound, 1, n); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}
