//===- ForeignFunctions.h - attributes of wrapped foreign functions -------===//
//
// Shared by posenc-wrap-foreign-functions and
// posenc-unwrap-foreign-functions.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_TRANSFORMS_FOREIGNFUNCTIONS_H
#define POSENC_LIB_TRANSFORMS_FOREIGNFUNCTIONS_H

namespace mlir {
namespace posenc {

/// The name of the wrapped op (`util.func`).
inline constexpr char kForeignOpAttr[] = "posenc.foreign_op";
/// Its properties (`<{...}>`) other than `sym_name` and `function_type`.
inline constexpr char kForeignPropertiesAttr[] = "posenc.foreign_properties";
/// Its discardable attributes.
inline constexpr char kForeignAttrsAttr[] = "posenc.foreign_attrs";

} // namespace posenc
} // namespace mlir

#endif // POSENC_LIB_TRANSFORMS_FOREIGNFUNCTIONS_H
