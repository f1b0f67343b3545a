//===- EmbBagTrainingOps.td - Gradients and fused updates --*- tablegen -*-===//
//
// The training ops of issue 22: for each form (packed, offsets, segments)
// the gradient of the forward op (`_grad`) and the fused optimizer update of
// its table (`_update`). They write the forward op's reduction and clauses
// in the forward op's order (EmbBag_*Clauses and EmbBag_*Format in
// EmbBagOps.td), and are not bag ops: BagOpInterface, and so the lowerings,
// tiling and sharding, do not see them. convert-embbag-to-loops lowers
// them (through their forward op); the other lowerings refuse them. The
// gradient ops have tiling models of their own
// (TrainingTilingInterfaceImpl.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_DIALECT_EMBBAG_IR_EMBBAGTRAININGOPS_TD
#define EMBBAG_DIALECT_EMBBAG_IR_EMBBAGTRAININGOPS_TD

// The learning rate and epsilon of an update.
def EmbBag_FloatScalar : AnyTypeOf<[F16, BF16, F32, F64],
                                   "f16, bf16, f32 or f64">;

// The per-row state of row-wise Adagrad; the verifier checks its shape.
def EmbBag_FloatTensor : RankedTensorOf<[F16, BF16, F32, F64]>;

class EmbBag_TrainingOp<string mnemonic, list<Trait> traits = []>
    : EmbBag_Op<mnemonic, !listconcat(traits, [
        AttrSizedOperandSegments,
        // As the forward ops: no memory effect (the results are new
        // tensors), but not speculatable, since the checked lowering will
        // stop the program on an invalid index.
        NoMemoryEffect,
        ConditionallySpeculatable])> {
  let hasVerifier = 1;
  // No custom property encoding: the ops are newer than every bytecode
  // version, so ODS's encoding has no older form to read.

  code trainingExtraClassDeclaration = [{
    ::mlir::Speculation::Speculatability getSpeculatability() {
      return ::mlir::Speculation::NotSpeculatable;
    }
    ::mlir::RankedTensorType getTableType() { return getTable().getType(); }
    ::mlir::RankedTensorType getIndicesType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getIndices().getType());
    }
    /// The type T_IND shared by every index-like operand.
    ::mlir::IntegerType getIndexElementType() {
      return ::llvm::cast<::mlir::IntegerType>(
          getIndicesType().getElementType());
    }
  }];
}

// The gradient of the forward op of `form` with respect to its table (and
// weights), given `dy`, the gradient of the loss with respect to its result.
class EmbBag_GradOp<string form, dag clauses, string clauseFormat>
    : EmbBag_TrainingOp<form # "_grad", [
        // The dense gradients' shapes are the table's and the weights';
        // a sparse gradient's rows are only known at run time (its
        // weights gradient's shape is still the weights').
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                  ["reifyResultShapes",
                                   "reifyShapeOfResult"]>]> {
  let arguments = !con((ins EmbBag_ReductionAttr:$reduction,
                            EmbBag_ElementTensor:$dy),
                       clauses, (ins UnitAttr:$sparse));
  // The table gradient (with `sparse`: the rows, then their gradient
  // rows), then with `weights` the weights gradient.
  let results = (outs Variadic<AnyRankedTensor>:$grads);
  let assemblyFormat = !strconcat("custom<Reduction>($reduction) $dy `,`",
      clauseFormat,
      "(`sparse` $sparse^)? attr-dict `:` functional-type(operands, results)");

  // The result accessors assume a verified op.
  let extraClassDeclaration = trainingExtraClassDeclaration # [{
    /// With `sparse`, the sorted unique rows of the table that the indices
    /// touch; null otherwise.
    ::mlir::Value getGradRows() {
      return getSparse() ? getGrads().front() : ::mlir::Value();
    }
    /// The table gradient: [num_emb, d1, ...], or with `sparse` the
    /// gradient rows [?, d1, ...] of getGradRows().
    ::mlir::Value getTableGrad() { return getGrads()[getSparse() ? 1 : 0]; }
    /// The weights gradient, of the weights' type; null without weights.
    ::mlir::Value getWeightsGrad() {
      return getWeights() ? getGrads().back() : ::mlir::Value();
    }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult
    $cppClass::reifyResultShapes(::mlir::OpBuilder &b,
                                 ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return reifyGradShapes(*this, b, shapes);
    }
    ::llvm::FailureOr<::llvm::SmallVector<::mlir::OpFoldResult>>
    $cppClass::reifyShapeOfResult(::mlir::OpBuilder &b, int resultIndex) {
      return reifyGradShapeOfResult(*this, b, resultIndex);
    }
  }];
}

// The table of the forward op of `form` after one optimizer step on its
// gradient, given `dy`.
class EmbBag_UpdateOp<string form, dag clauses, string clauseFormat>
    : EmbBag_TrainingOp<form # "_update", [
        // The results' shapes are the table's and the state's.
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                  ["reifyResultShapes"]>]> {
  let arguments = !con((ins EmbBag_ReductionAttr:$reduction,
                            EmbBag_OptimizerAttr:$optimizer,
                            EmbBag_FloatScalar:$learning_rate,
                            Optional<EmbBag_FloatScalar>:$epsilon,
                            Optional<EmbBag_FloatTensor>:$state,
                            EmbBag_ElementTensor:$dy),
                       clauses);
  // The updated table, then with rowwise_adagrad the updated state.
  let results = (outs Variadic<AnyRankedTensor>:$updated);
  let assemblyFormat = !strconcat([{
    custom<Reduction>($reduction)
    custom<Optimizer>($optimizer, $learning_rate, $epsilon, $state)
    $dy `,`}], clauseFormat, "attr-dict `:` functional-type(operands, results)");

  // The result accessors assume a verified op.
  let extraClassDeclaration = trainingExtraClassDeclaration # [{
    /// The table after the step, of the table's type.
    ::mlir::Value getUpdatedTable() { return getUpdated().front(); }
    /// The state after the step (rowwise_adagrad); null for sgd.
    ::mlir::Value getUpdatedState() {
      return getState() ? getUpdated().back() : ::mlir::Value();
    }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult
    $cppClass::reifyResultShapes(::mlir::OpBuilder &b,
                                 ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return reifyUpdateShapes(*this, b, shapes);
    }
  }];
}

defvar EmbBag_GradDescription = [{
    The gradient of the forward op written with the same reduction and
    clauses, given `%dy`, the gradient of the loss with respect to the
    forward op's result (so of the forward result's type: `[batch, d1, ...]`
    of the table's element type). Results, in order:

    - the table gradient, of the table's type: row `r` sums, over every
      position whose index is `r` (not skipped by `padding_idx`), the
      bag's `dy` row times what the forward op multiplied the table row by
      (its weight; `1 / count` for `mean`; `w / sqrt(sum w^2)` for
      `sqrtn`); for `max` only the position that gave each element's
      maximum (the first one on ties). Rows no index touches are zeros,
      and so is the gradient from an empty bag: its default row was not
      multiplied by anything (PyTorch's `padding_idx` and empty bags get
      no gradient either).
    - with `sparse` (PyTorch's `sparse=True`) instead: the sorted unique
      rows touched, a `tensor<?xT_IND>`, and their gradient rows,
      `tensor<?x d1 x ...>` of the table's element type.
    - with `weights(...)`, the weights gradient, of the weights' type.

    The table must hold floats (f16, bf16, f32 or f64); quantized tables
    (`rowwise(...)`) are refused by the verifier. The runtime contract is
    the forward op's. `--convert-embbag-to-loops` lowers the op
    (docs/Kernel.md, "Training kernels"); `--convert-embbag-to-gpu` lowers
    the dense and sparse gradients of f32, f16 and bf16 tables (docs/GPU.md,
    "Training"; a sparse gradient's rows are new device memory that the
    function must return).
}];

defvar EmbBag_UpdateDescription = [{
    One optimizer step on the table of the forward op written with the same
    reduction and clauses, given `%dy` as for the `_grad` op, fused so that
    the gradient is never materialised. The update is in destination style
    on tensors: the results are new tensors, the table after the step (of
    the table's type) and, for `rowwise_adagrad`, the state after it.

    - `sgd(%lr)`: `table[r] -= lr * g[r]` for every row `r` the gradient
      `g` touches.
    - `rowwise_adagrad(%lr, %eps) state(%s)` (FBGEMM's exact row-wise
      Adagrad): `%s` has one entry per table row (a 1-D float tensor);
      for every touched row, `s[r] += mean(g[r]^2)` over the row's
      elements, then `table[r] -= lr * g[r] / (sqrt(s[r]) + eps)`.

    `%lr` and `%eps` are float scalars. The table must hold floats;
    `rowwise(...)` and `sparse` are refused. `--convert-embbag-to-loops`
    lowers the op, updating the table in place after bufferization
    (docs/Kernel.md, "Training kernels"); `--convert-embbag-to-gpu` lowers
    it for f32, f16 and bf16 tables and states (docs/GPU.md, "Training").
}];

def EmbBag_PackedGradOp
    : EmbBag_GradOp<"packed", EmbBag_PackedClauses, EmbBag_PackedFormat> {
  let summary = "the gradient of embbag.packed";
  let description = EmbBag_GradDescription # [{
    Example:

    ```mlir
    %rows, %drows = embbag.packed_grad mean %dy, %table[%indices2d] sparse
        : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>)
        -> (tensor<?xi64>, tensor<?x2xf32>)
    ```
  }];
}

def EmbBag_OffsetsGradOp
    : EmbBag_GradOp<"offsets", EmbBag_OffsetsClauses, EmbBag_OffsetsFormat> {
  let summary = "the gradient of embbag.offsets";
  let description = EmbBag_GradDescription # [{
    Example:

    ```mlir
    %dt, %dw = embbag.offsets_grad sum %dy, %table[%indices] offsets(%off)
        weights(%w)
        : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>,
           tensor<4xf32>) -> (tensor<5x2xf32>, tensor<4xf32>)
    ```
  }];
}

def EmbBag_SegmentsGradOp
    : EmbBag_GradOp<"segments", EmbBag_SegmentsClauses,
                    EmbBag_SegmentsFormat> {
  let summary = "the gradient of embbag.segments";
  let description = EmbBag_GradDescription # [{
    Example:

    ```mlir
    %dt = embbag.segments_grad sqrtn %dy, %table[%indices] segment_ids(%seg)
        num_segments(3)
        : (tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>)
        -> tensor<5x2xf32>
    ```
  }];
}

def EmbBag_PackedUpdateOp
    : EmbBag_UpdateOp<"packed", EmbBag_PackedClauses, EmbBag_PackedFormat> {
  let summary = "a fused optimizer step on the table of embbag.packed";
  let description = EmbBag_UpdateDescription # [{
    Example:

    ```mlir
    %t2 = embbag.packed_update sum sgd(%lr) %dy, %table[%indices2d]
        : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi64>)
        -> tensor<5x2xf32>
    ```
  }];
}

def EmbBag_OffsetsUpdateOp
    : EmbBag_UpdateOp<"offsets", EmbBag_OffsetsClauses, EmbBag_OffsetsFormat> {
  let summary = "a fused optimizer step on the table of embbag.offsets";
  let description = EmbBag_UpdateDescription # [{
    Example:

    ```mlir
    %t2 = embbag.offsets_update sum sgd(%lr) %dy, %table[%indices]
        offsets(%off)
        : (f32, tensor<3x2xf32>, tensor<5x2xf32>, tensor<4xi64>,
           tensor<3xi64>) -> tensor<5x2xf32>
    %t3, %s3 = embbag.offsets_update sum rowwise_adagrad(%lr, %eps) state(%s)
        %dy, %table[%indices] offsets(%off)
        : (f32, f32, tensor<5xf32>, tensor<3x2xf32>, tensor<5x2xf32>,
           tensor<4xi64>, tensor<3xi64>) -> (tensor<5x2xf32>, tensor<5xf32>)
    ```
  }];
}

def EmbBag_SegmentsUpdateOp
    : EmbBag_UpdateOp<"segments", EmbBag_SegmentsClauses,
                      EmbBag_SegmentsFormat> {
  let summary = "a fused optimizer step on the table of embbag.segments";
  let description = EmbBag_UpdateDescription # [{
    Example:

    ```mlir
    %t2, %s2 = embbag.segments_update mean rowwise_adagrad(%lr, %eps)
        state(%s) %dy, %table[%indices] segment_ids(%seg) num_segments(%n)
        : (f32, f32, tensor<5xf32>, tensor<?x2xf32>, tensor<5x2xf32>,
           tensor<4xi32>, tensor<4xi32>, i32)
        -> (tensor<5x2xf32>, tensor<5xf32>)
    ```
  }];
}

#endif // EMBBAG_DIALECT_EMBBAG_IR_EMBBAGTRAININGOPS_TD
