//===- RaisingDriver.cpp - the driver of the raising passes ---------------===//

#include "RaisingDriver.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::raising;

LogicalResult raising::applyRaisingPatterns(Operation *root,
                                            RewritePatternSet &&patterns,
                                            StringRef passName, bool printStats,
                                            ArrayRef<RaisingStat> stats) {
  // No folding: a raising pass rewrites the idioms it recognizes and leaves
  // the rest of the IR as the importer wrote it.
  GreedyRewriteConfig config;
  config.enableFolding(false);
  LogicalResult result =
      applyPatternsGreedily(root, std::move(patterns), config);
  if (printStats) {
    llvm::errs() << passName << ": ";
    llvm::interleaveComma(stats, llvm::errs(), [](const RaisingStat &stat) {
      llvm::errs() << stat.count << " " << stat.name;
    });
    llvm::errs() << "\n";
  }
  return result;
}
