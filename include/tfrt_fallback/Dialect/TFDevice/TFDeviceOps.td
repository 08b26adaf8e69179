//===- TFDeviceOps.td - TensorFlow's tf_device dialect ----*- tablegen -*-===//
//
// The subset of TensorFlow's `tf_device` dialect that places ops on a device
// without changing what they compute: `tf_device.launch` (ops that run on
// one device), `tf_device.cluster` (ops grouped for a compiler) and their
// `tf_device.return`. --tf-device-inline inlines both. TensorFlow's other
// tf_device ops (replicate, parallel_execute, cluster_func, ...) parse in
// generic form only and are reported as not supported.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TFDEVICE_TFDEVICEOPS_TD
#define TFRT_FALLBACK_DIALECT_TFDEVICE_TFDEVICEOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TFDevice_Dialect : Dialect {
  let name = "tf_device";
  let cppNamespace = "::tfrt_fallback::tf_device";
  let summary = "TensorFlow's device dialect: ops placed on a device";
  let description = [{
    TensorFlow's MLIR wraps ops that run on one device in a
    `tf_device.launch` and ops meant for one compilation in a
    `tf_device.cluster`; each region ends with a `tf_device.return` of the
    values the op produces.

    ```mlir
    %0 = "tf_device.launch"() ({
      %1 = "tf.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %1 : tensor<2xf32>
    }) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> tensor<2xf32>
    ```
  }];
  let extraClassDeclaration = [{
    /// Reports TensorFlow's other device ops in custom form as not
    /// supported, rather than as unknown.
    std::optional<ParseOpHook>
    getParseOperationHook(::llvm::StringRef opName) const override;
  }];
}

class TFDevice_Op<string mnemonic, list<Trait> traits = []>
    : Op<TFDevice_Dialect, mnemonic, traits>;

def TFDevice_LaunchOp : TFDevice_Op<"launch",
    [SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "ops that run on one device";
  let description = [{
    Runs the ops of its region on `device` and produces the values its
    `tf_device.return` returns. TensorFlow prints it in generic form:

    ```mlir
    %0 = "tf_device.launch"() ({
      %1 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
      tf_device.return %1 : tensor<f32>
    }) {device = "/device:CPU:0"} : () -> tensor<f32>
    ```
  }];
  let arguments = (ins StrAttr:$device);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def TFDevice_ClusterOp : TFDevice_Op<"cluster",
    [SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "ops grouped for one compilation";
  let description = [{
    Runs the ops of its region and produces the values its
    `tf_device.return` returns. TensorFlow groups ops this way for a
    compiler (XLA) and keeps its settings in discardable attributes
    (`_xla_compile_device_type`, `allow_soft_placement`, ...). A `device`
    string attribute, when present, places the ops like a
    `tf_device.launch`.

    ```mlir
    %0 = "tf_device.cluster"() ({
      %1 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
      tf_device.return %1 : tensor<f32>
    }) {_xla_compile_device_type = "CPU"} : () -> tensor<f32>
    ```
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def TFDevice_ReturnOp : TFDevice_Op<"return",
    [Pure, ReturnLike, Terminator,
     ParentOneOf<["LaunchOp", "ClusterOp"]>]> {
  let summary = "the values a tf_device.launch or tf_device.cluster produces";
  let description = [{
    ```mlir
    tf_device.return %1, %2 : tensor<f32>, tensor<2xi32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, ::mlir::ValueRange());
  }]>];
}

#endif // TFRT_FALLBACK_DIALECT_TFDEVICE_TFDEVICEOPS_TD
