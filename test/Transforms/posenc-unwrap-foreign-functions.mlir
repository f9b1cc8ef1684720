// RUN: posenc-opt %s --allow-unregistered-dialect --posenc-unwrap-foreign-functions --mlir-print-op-generic | FileCheck %s
// RUN: posenc-opt %s --allow-unregistered-dialect --posenc-unwrap-foreign-functions --posenc-wrap-foreign-functions | FileCheck %s --check-prefix=AGAIN

// The wrapped util.func comes back with its properties, attributes and
// body; plain functions stay. Wrapping again gives the input back.
// CHECK: "util.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, inlining_policy = #util.inline.never, sym_name = "f"}> ({
// CHECK: "util.return"(%{{.+}}) : (tensor<4xf32>) -> ()
// CHECK: }) {iree.abi.stub} : () -> ()
// CHECK: "func.func"() <{function_type = () -> (), sym_name = "plain"}>
// AGAIN: func.func @f({{.*}}attributes {posenc.foreign_attrs = {iree.abi.stub}, posenc.foreign_op = "util.func", posenc.foreign_properties = {inlining_policy = #util.inline.never}}
// AGAIN: func.func @plain()
// AGAIN-NOT: posenc.foreign
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {posenc.foreign_attrs = {iree.abi.stub}, posenc.foreign_op = "util.func", posenc.foreign_properties = {inlining_policy = #util.inline.never}} {
  "util.return"(%a) : (tensor<4xf32>) -> ()
}
func.func @plain() {
  return
}
