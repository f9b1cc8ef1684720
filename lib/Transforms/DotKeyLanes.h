//===- DotKeyLanes.h - lane bookkeeping of the dot-product key loop -*- C++
//-*-===//
//
// Index arithmetic of DotKeyLoop.cpp that builds no IR: the order in which
// its transposing reduction takes keys and the divisors that size its
// register blocks.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_TRANSFORMS_DOTKEYLANES_H
#define POSENC_LIB_TRANSFORMS_DOTKEYLANES_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir {
namespace posenc {
namespace flash {

/// The order in which to feed keys to the transposing reduction (see
/// DotKernel::push) so that lane j of its result is the sum of key j: key
/// `feed[t]` goes t-th.
llvm::SmallVector<int64_t> transposingFeedOrder(int64_t lanes);

/// The largest divisor of `n` that is at most `bound` (at least 1).
int64_t largestDivisor(int64_t n, int64_t bound);

} // namespace flash
} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_TRANSFORMS_DOTKEYLANES_H
