// RUN: posenc-opt %s --allow-unregistered-dialect --split-input-file --posenc-wrap-foreign-functions --verify-diagnostics | FileCheck %s

// IREE's util.func (unregistered): a func.func of the same name, type and
// body; its name, properties and attributes kept for the unwrap.
// CHECK-LABEL: func.func @f(%{{.+}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME: posenc.foreign_attrs = {iree.abi.stub}
// CHECK-SAME: posenc.foreign_op = "util.func"
// CHECK-SAME: posenc.foreign_properties = {inlining_policy = #util.inline.never}
// CHECK-NEXT: "util.return"(%{{.+}}) : (tensor<4xf32>) -> ()
// Other unregistered ops stay.
// CHECK: "util.global"()
"util.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, inlining_policy = #util.inline.never, sym_name = "f"}> ({
^bb0(%a: tensor<4xf32>):
  "util.return"(%a) : (tensor<4xf32>) -> ()
}) {iree.abi.stub} : () -> ()
"util.global"() <{sym_name = "g", type = tensor<4xf32>}> : () -> ()

// -----

// expected-error @+1 {{'util.func' op is not a function posenc can wrap}}
"util.func"() <{sym_name = "no_type"}> ({
  "util.return"() : () -> ()
}) : () -> ()
