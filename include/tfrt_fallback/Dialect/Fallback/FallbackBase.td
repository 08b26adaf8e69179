//===- FallbackBase.td - tfrt_fallback dialect definition --*- tablegen -*-===//
//
// The tfrt_fallback dialect: TensorFlow ops that run through directly-called
// fallback kernels, after the TFRT Kernel Fallback RFC.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKBASE_TD
#define TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TFRTFallback_Dialect : Dialect {
  let name = "tfrt_fallback";
  let cppNamespace = "::tfrt_fallback";
  let summary = "TensorFlow ops executed by directly-called fallback kernels";
  let description = [{
    The `tfrt_fallback` dialect models a TensorFlow program whose ops run
    through *fallback kernels*: TensorFlow op kernels that the runtime calls
    directly through `OpKernelConstructionInterface` and
    `OpKernelContextInterface`, without TensorFlow's eager runtime (see
    TensorFlow's "TFRT Kernel Fallback" RFC).

    A program in this dialect is a set of `func.func` functions whose bodies
    hold `tfrt_fallback.constant` and `tfrt_fallback.kernel_call` ops,
    `func.call` and `func.return`. Values are builtin tensors, so dtype and
    shape information reaches the runtime. Ops with side effects are ordered
    by `!tfrt_fallback.chain` values; pure ops carry no chain and the runtime
    may run them in parallel.

    ```mlir
    func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
      %r = tfrt_fallback.kernel_call "AddV2"(%a, %b) {T = f32}
          : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      return %r : tensor<2xf32>
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class TFRTFallback_Op<string mnemonic, list<Trait> traits = []>
    : Op<TFRTFallback_Dialect, mnemonic, traits>;

#endif // TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKBASE_TD
