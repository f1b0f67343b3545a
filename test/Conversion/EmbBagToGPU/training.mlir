// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu | FileCheck %s
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="checks=0" | FileCheck %s --check-prefix=OFF
// RUN: embbag-opt %s --split-input-file --convert-embbag-to-gpu="host-loops=1" | FileCheck %s --check-prefix=HOST

// The training ops' launches (docs/GPU.md, "Training"). An f32 gradient:
// the host checks; scratch memory for the sort by row (counts per chunk
// and digit, the digits' totals and first slots, two sets of slots of a
// position, its bag and its row), the pieces' partial rows, no f32 rows
// (the pieces add into the destination); a host loop over the sort's
// passes (as many as the table's rows need: the bit length of num_emb - 1
// over the digits' bits), each reading the slots the one before wrote:
// the count kernel (the first pass's reads the bags, and its threads flag
// the offsets, bit 2, and the indices, bit 32; a later pass's reads the
// slots), each position counted for its row's digit (the row shifted,
// masked), the scan of each digit's counts, the one thread that places the
// digits, the fill kernel (the first pass's or a later pass's); the rows
// zeroed, the pieces and the runs writing the destination; then the one
// wait and the reports.

func.func @grad(%dy: tensor<?x4xf32>, %t: tensor<?x4xf32>, %i: tensor<?xi64>,
                %off: tensor<?xi64>, %out: memref<?x4xf32>) {
  %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
      : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x4xf32>
  bufferization.materialize_in_destination %g in restrict writable %out
      : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @grad
// CHECK:         cf.assert {{.*}}embbag.offsets_grad at {{.*}}: the destination must have the shape of the result
// The kernels that walk the table's rows (zero, finish) take a group of
// lanes per row, up to 2^21 threads (a regression test: with the sort's
// 1024 groups each thread walked thousands of rows).
// CHECK:         %[[MOST:.*]] = arith.divui %c2097152, %{{.*}} : index
// CHECK:         %[[GROUPS:.*]] = arith.minui %{{.*}}, %[[MOST]] : index
// CHECK:         %[[WALKERS:.*]] = arith.maxui %[[GROUPS]], %c1{{.*}} : index
// CHECK:         %[[WALKER_BLOCKS:.*]] = arith.ceildivui %[[WALKERS]], %{{.*}} : index
// CHECK:         %[[SCRATCH:.*]] = call @embbagCudaScratch(%{{.*}}) : (index) -> memref<?xi8>
// CHECK-NEXT:    memref.view %[[SCRATCH]][%{{.*}}][%{{.*}}, %{{.*}}] : memref<?xi8> to memref<?x?xi64>
// CHECK-COUNT-8: memref.view %[[SCRATCH]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xi64>
// CHECK:         memref.view %[[SCRATCH]][%{{.*}}][%{{.*}}, %c4] : memref<?xi8> to memref<?x?xf32>
// CHECK-NOT:     memref.view
// CHECK:         %[[FLAG:.*]] = call @embbagCudaStatusWord()
// CHECK:         math.ctlz
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}, %[[R:.*]] = %{{.*}}, %[[P2:.*]] = %{{.*}}, %[[B2:.*]] = %{{.*}}, %[[R2:.*]] = %{{.*}}) -> (memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>)
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK:             gpu.launch async
// CHECK:               memref.atomic_rmw ori %c2_i32{{.*}}, %[[FLAG]]
// CHECK:               memref.atomic_rmw ori %c32_i32{{.*}}, %[[FLAG]]
// CHECK:               arith.shrui
// CHECK:               arith.andi
// CHECK:           } else {
// CHECK:             gpu.launch async
// CHECK:               memref.load %[[R]][
// CHECK:               arith.shrui
// CHECK:           gpu.launch async
// CHECK:           gpu.launch async {{.*}} in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK:           scf.if %[[FIRST]] {
// CHECK:             gpu.launch async
// CHECK:           } else {
// CHECK:             gpu.launch async
// CHECK:               memref.store {{.*}}, %[[R2]][
// CHECK:           scf.yield %[[P2]], %[[B2]], %[[R2]], %[[P]], %[[B]], %[[R]] :
// CHECK:         gpu.launch async {{.*}} in (%{{.*}} = %[[WALKER_BLOCKS]],
// CHECK:           memref.store {{.*}}, %arg4[
// CHECK:         gpu.launch async
// CHECK:           memref.store {{.*}}, %arg4[
// The last launch, which the host waits for, has a block even without
// positions (a regression test: with no pieces it was skipped, and the
// host read the flag word while the count kernel still ran).
// CHECK:         %[[RUNS:.*]] = arith.maxui %{{.*}}, %c1{{.*}} : index
// CHECK:         gpu.launch async {{.*}} in (%{{.*}} = %[[RUNS]],
// CHECK:           scf.while
// CHECK:           memref.store {{.*}}, %arg4[
// CHECK-NOT:     gpu.launch
// CHECK:         gpu.wait [
// CHECK:         cf.assert {{.*}}offsets must be non-negative
// CHECK:         cf.assert {{.*}}index out of range
// CHECK-NOT:     embbag.offsets_grad
// CHECK:       func.func private @embbagCudaStatusWord() -> memref<1xi32> attributes {llvm.emit_c_interface}
// OFF-LABEL:   func.func @grad
// OFF-NOT:       embbagCudaStatusWord
// OFF-COUNT-9:   gpu.launch async
// OFF-NOT:       gpu.launch
// OFF-NOT:       gpu.wait [

// -----

// Row-wise Adagrad of max, bf16 table: scratch memory for the gradient rows
// (f32), the touched bits and the winners, then the sort's; the winners'
// launch, the sort's (six launches in its loop), then the rows zeroed (the
// touched bits cleared), the pieces and the runs (which set them), and the
// step (one lane per row: bagsPerBlock 256); the in-place tests of the
// table and the state.
func.func @adagrad(%lr: f32, %eps: f32, %s: tensor<?xf32>, %dy: tensor<?x8xbf16>,
                   %t: tensor<?x8xbf16>, %i: tensor<?xi32>, %off: tensor<?xi32>,
                   %tout: memref<?x8xbf16>, %sout: memref<?xf32>) {
  %t2, %s2 = embbag.offsets_update max rowwise_adagrad(%lr, %eps) state(%s) %dy, %t[%i] offsets(%off)
      : (f32, f32, tensor<?xf32>, tensor<?x8xbf16>, tensor<?x8xbf16>, tensor<?xi32>, tensor<?xi32>)
      -> (tensor<?x8xbf16>, tensor<?xf32>)
  bufferization.materialize_in_destination %t2 in restrict writable %tout
      : (tensor<?x8xbf16>, memref<?x8xbf16>) -> ()
  bufferization.materialize_in_destination %s2 in restrict writable %sout
      : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @adagrad
// CHECK-COUNT-2: the destination must have the shape of the result
// CHECK:         memref.extract_aligned_pointer_as_index %arg7
// CHECK:         memref.extract_aligned_pointer_as_index %arg8
// CHECK:         %[[SCRATCH:.*]] = call @embbagCudaScratch(%{{.*}}) : (index) -> memref<?xi8>
// CHECK:         memref.view %[[SCRATCH]][%{{.*}}][%{{.*}}, %{{.*}}] : memref<?xi8> to memref<?x?xf32>
// CHECK:         memref.view %[[SCRATCH]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xi32>
// CHECK:         memref.view %[[SCRATCH]][%{{.*}}][%{{.*}}, %{{.*}}] : memref<?xi8> to memref<?x?xi64>
// CHECK:         memref.view %[[SCRATCH]][%{{.*}}][%{{.*}}, %{{.*}}] : memref<?xi8> to memref<?x?xi64>
// The winners: a group of lanes per bag, a lane per column (a regression
// test: one thread per bag walked every column's positions).
// CHECK:         call @embbagCudaStatusWord()
// CHECK:         %[[WINNER_BLOCKS:.*]] = arith.ceildivui %{{.*}}, %[[GROUPS:.*]] : index
// CHECK:         gpu.launch async {{.*}} in (%{{.*}} = %[[WINNER_BLOCKS]],
// CHECK-NEXT:      %[[GROUP_IN_BLOCK:.*]] = arith.divui %{{.*}}, %[[LANES:.*]] : index
// CHECK-NEXT:      %[[FIRST_GROUP:.*]] = arith.muli %{{.*}}, %[[GROUPS]] : index
// CHECK-NEXT:      %[[BAG:.*]] = arith.addi %[[FIRST_GROUP]], %[[GROUP_IN_BLOCK]] : index
// CHECK-NEXT:      %[[LANE:.*]] = arith.remui %{{.*}}, %[[LANES]] : index
// CHECK:           scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %[[LANES]]
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[BAG]], %{{.*}}] {{.*}}: memref<?x?xi64>
// CHECK-COUNT-6: gpu.launch async
// CHECK:         gpu.launch async
// CHECK:           memref.atomic_rmw andi
// CHECK:         gpu.launch async
// CHECK:           memref.atomic_rmw ori
// CHECK:         gpu.launch async
// CHECK:           memref.atomic_rmw ori
// The step: one lane per row (it reads the state it writes, and sums the
// row's squares), its own blocks, up to 2^21 threads; the zero, pieces
// and runs kernels above have a lane per column.
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[GROUPS_PER_BLOCK:.*]] = arith.divui %c256{{.*}}, %[[ONE]] : index
// CHECK:         arith.divui %c2097152{{.*}}, %[[ONE]] : index
// CHECK:         %[[STEP_BLOCKS:.*]] = arith.ceildivui %{{.*}}, %[[GROUPS_PER_BLOCK]] : index
// CHECK:         %[[LAST_BLOCKS:.*]] = arith.maxui %[[STEP_BLOCKS]], %c1{{.*}} : index
// CHECK:         gpu.launch async {{.*}} in (%{{.*}} = %[[LAST_BLOCKS]],
// CHECK-NEXT:      arith.divui %{{.*}}, %[[ONE]] : index
// CHECK:           arith.truncf {{.*}} : f32 to bf16
// CHECK:         gpu.wait [
// CHECK:       func.func private @embbagCudaScratch(index) -> memref<?xi8> attributes {llvm.emit_c_interface}

// OFF-LABEL:   func.func @adagrad
// OFF:           call @embbagCudaScratch

// Host loops: the scratch memory is a new buffer, the launches loops.
// HOST-LABEL:  func.func @adagrad
// HOST:          memref.alloc(%{{.*}}) : memref<?xi8>
// HOST-NOT:      gpu.launch
// HOST:          scf.parallel
// HOST:          scf.parallel
// HOST-NOT:    embbagCudaScratch

// -----

// A sparse gradient with weights: its weights gradient goes into a
// destination, whose shape is checked against the weights' (a regression
// test: the check read the op's own result, whose shape a sparse gradient
// could not reify, and the lowering left that use dangling: "operand #0
// does not dominate this use").
func.func @sparse_weights(%dy: tensor<?x4xf32>, %t: tensor<?x4xf32>, %i: tensor<?xi64>,
                          %off: tensor<?xi64>, %w: tensor<?xf32>, %dwout: memref<?xf32>)
    -> (tensor<?xi64>, tensor<?x4xf32>) {
  %r, %v, %dw = embbag.offsets_grad sum %dy, %t[%i] offsets(%off) weights(%w) sparse
      : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>)
      -> (tensor<?xi64>, tensor<?x4xf32>, tensor<?xf32>)
  bufferization.materialize_in_destination %dw in restrict writable %dwout
      : (tensor<?xf32>, memref<?xf32>) -> ()
  return %r, %v : tensor<?xi64>, tensor<?x4xf32>
}
// CHECK-LABEL: func.func @sparse_weights
// CHECK:         cf.assert {{.*}}: weights must have one weight per index
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %[[WEIGHTS:.*]] = tensor.dim %arg4, %{{.*}} : tensor<?xf32>
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %[[DEST:.*]] = memref.dim %arg5, %{{.*}} : memref<?xf32>
// CHECK-NEXT:    %[[SAME:.*]] = arith.cmpi eq, %[[DEST]], %[[WEIGHTS]] : index
// CHECK:         cf.assert %[[SAME]], "embbag.offsets_grad at {{.*}}: the destination must have the shape of the result"
// CHECK:         call @embbagCudaCountWord
// CHECK-NOT:     = embbag.offsets_grad
// OFF-LABEL:   func.func @sparse_weights
// OFF-NOT:       the destination must have the shape
// OFF:           call @embbagCudaCountWord
