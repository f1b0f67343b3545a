//===- EmbBagEnums.td - EmbBag enums and attributes --------*- tablegen -*-===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGENUMS_TD
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGENUMS_TD

include "embbag/Dialect/EmbBag/IR/EmbBagDialect.td"
include "mlir/IR/EnumAttr.td"

def EmbBag_ReductionSum : I32EnumAttrCase<"sum", 0>;
def EmbBag_ReductionMean : I32EnumAttrCase<"mean", 1>;
// PyTorch's mode="max": the element-wise maximum over the bag's rows.
def EmbBag_ReductionMax : I32EnumAttrCase<"max", 2>;
// TensorFlow's combiner="sqrtn": the sum divided by the square root of the
// count (weighted: of the sum of the squared weights).
def EmbBag_ReductionSqrtn : I32EnumAttrCase<"sqrtn", 3>;

def EmbBag_Reduction
    : I32EnumAttr<"Reduction", "how the rows of a bag are reduced",
                  [EmbBag_ReductionSum, EmbBag_ReductionMean,
                   EmbBag_ReductionMax, EmbBag_ReductionSqrtn]> {
  let cppNamespace = "::mlir::embbag";
  let genSpecializedAttr = 0;
}

// Printed as a bare keyword (`sum`, `mean`, `max`, `sqrtn`) in the custom
// form of the ops and as `#embbag<reduction sum>` in the generic form.
def EmbBag_ReductionAttr
    : EnumAttr<EmbBag_Dialect, EmbBag_Reduction, "reduction">;

// The optimizer of a fused training update (`embbag.*_update`).
def EmbBag_OptimizerSgd : I32EnumAttrCase<"sgd", 0>;
// FBGEMM's EXACT_ROWWISE_ADAGRAD: one accumulated squared gradient per row.
def EmbBag_OptimizerRowwiseAdagrad : I32EnumAttrCase<"rowwise_adagrad", 1>;

def EmbBag_Optimizer
    : I32EnumAttr<"Optimizer", "the update rule of a fused training update",
                  [EmbBag_OptimizerSgd, EmbBag_OptimizerRowwiseAdagrad]> {
  let cppNamespace = "::mlir::embbag";
  let genSpecializedAttr = 0;
}

// Printed as a keyword with its operands (`sgd(%lr)`) in the custom form of
// the update ops and as `#embbag<optimizer sgd>` in the generic form.
def EmbBag_OptimizerAttr
    : EnumAttr<EmbBag_Dialect, EmbBag_Optimizer, "optimizer">;

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGENUMS_TD
