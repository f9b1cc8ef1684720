//===- TileAttention.cpp - the posenc-tile-attention pass -----------------===//
//
// A thin pass over posenc/Transforms/FlashAttention.h: every posenc.attention
// with enough scores (min-scores) that the flash nest can take becomes that
// nest; the others are left for the reference lowering.
//
//===----------------------------------------------------------------------===//

#include "posenc/Transforms/FlashAttention.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCTILEATTENTION
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;
using namespace mlir::posenc;

namespace {

struct PosEncTileAttentionPass
    : posenc::impl::PosEncTileAttentionBase<PosEncTileAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    if (queryTile <= 0 || keyTile <= 0 || decodeChunk <= 0 || decodeRows < 0 ||
        vectorWidth < 0) {
      getOperation()->emitError(
          "posenc-tile-attention: query-tile, key-tile and decode-chunk must "
          "be positive, decode-rows and vector-width non-negative");
      return signalPassFailure();
    }
    PosEncTileAttentionOptions options;
    options.queryTile = queryTile;
    options.keyTile = keyTile;
    options.decodeRows = decodeRows;
    options.decodeChunk = decodeChunk;
    options.prerotateKeys = prerotateKeys;
    options.vectorWidth = vectorWidth;
    options.bf16DotProducts = bf16DotProducts;
    options.minScores = minScores;
    SmallVector<AttentionOp> ops;
    getOperation()->walk([&](AttentionOp op) {
      if (!hasFewerScores(op, minScores))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (AttentionOp op : ops) {
      FailureOr<FlashSchedule> schedule = chooseFlashSchedule(op, options);
      if (succeeded(schedule))
        (void)tileAttention(rewriter, op, *schedule);
    }
  }
};

} // namespace
