// RUN: fallback-opt %s --tf-region-control-flow-to-functional --split-input-file | FileCheck %s

// An IfRegion's branches become private functions that take every value
// either branch uses from above; the op becomes a tf.If that passes them.

// CHECK-LABEL: func @if_region
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>)
// CHECK: %[[R:.*]] = "tf.If"(%[[P]], %[[X]], %[[Y]]) {else_branch = @if_region_else, is_stateless = true, then_branch = @if_region_then} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: return %[[R]]
// CHECK: func private @if_region_else(%{{.*}}: tensor<f32>, %[[B:.*]]: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %[[B]]
// CHECK: func private @if_region_then(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[S:.*]] = "tf.AddV2"(%[[A]], %[[B]])
// CHECK-NEXT: return %[[S]]
func.func @if_region(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = "tf.IfRegion"(%p) <{is_stateless = true}> ({
    %1 = "tf.AddV2"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%y) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A WhileRegion carries what its regions use from above as extra loop
// values, which the body returns unchanged; the original results are the
// first ones of the tf.While. Its attributes are kept.

// CHECK-LABEL: func @while_region
// CHECK-SAME: (%[[I:.*]]: tensor<i32>, %[[N:.*]]: tensor<i32>, %[[D:.*]]: tensor<i32>)
// CHECK: %[[W:.*]]:3 = "tf.While"(%[[I]], %[[N]], %[[D]]) {body = @while_region_while_body, cond = @while_region_while_cond, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant} : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
// CHECK: return %[[W]]#0 : tensor<i32>
// CHECK: func private @while_region_while_body(%[[A:.*]]: tensor<i32>, %[[BN:.*]]: tensor<i32>, %[[BD:.*]]: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
// CHECK-NEXT: %[[S:.*]] = "tf.AddV2"(%[[A]], %[[BD]])
// CHECK-NEXT: return %[[S]], %[[BN]], %[[BD]]
// CHECK: func private @while_region_while_cond(%[[A:.*]]: tensor<i32>, %[[CN:.*]]: tensor<i32>, %{{.*}}: tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %[[L:.*]] = "tf.Less"(%[[A]], %[[CN]])
// CHECK-NEXT: return %[[L]]
func.func @while_region(%i: tensor<i32>, %n: tensor<i32>, %d: tensor<i32>) -> tensor<i32> {
  %0 = "tf.WhileRegion"(%i) ({
  ^bb0(%a: tensor<i32>):
    %c = "tf.Less"(%a, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    %s = "tf.AddV2"(%a, %d) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%s) : (tensor<i32>) -> ()
  }) {is_stateless = true, parallel_iterations = 10 : i64, shape_invariant} : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// A CaseRegion's regions become branches; nested region ops are outlined
// first, into functions named after the function that holds them then.

// CHECK-LABEL: func @case_region
// CHECK: "tf.Case"(%{{.*}}, %{{.*}}) {branches = [@case_region_branch0, @case_region_branch1], is_stateless = false}
// CHECK: func private @case_region_branch1(%[[P:.*]]: tensor<i1>) -> tensor<i1>
// CHECK-NEXT: "tf.If"(%[[P]], %[[P]]) {else_branch = @case_region_else, is_stateless = true, then_branch = @case_region_then}
// CHECK: func private @case_region_branch0(
// CHECK: func private @case_region_else(
// CHECK: func private @case_region_then(
func.func @case_region(%i: tensor<i32>, %p: tensor<i1>) -> tensor<i1> {
  %0 = "tf.CaseRegion"(%i) ({
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
    %1 = "tf.IfRegion"(%p) ({
      %2 = "tf.LogicalNot"(%p) : (tensor<i1>) -> tensor<i1>
      "tf.Yield"(%2) : (tensor<i1>) -> ()
    }, {
      "tf.Yield"(%p) : (tensor<i1>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<i1>
    "tf.Yield"(%1) : (tensor<i1>) -> ()
  }) {is_stateless = false} : (tensor<i32>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

// A name already taken gets a suffix.
// CHECK-LABEL: func private @f_then()
func.func private @f_then() {
  return
}
// CHECK-LABEL: func @f
// CHECK: then_branch = @f_then_0
func.func @f(%p: tensor<i1>) {
  "tf.IfRegion"(%p) ({
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = true} : (tensor<i1>) -> ()
  return
}
