// RUN: embbag-opt %s --embbag-to-llvm | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="path=linalg" | %mlir_runner | FileCheck %s
// RUN: embbag-opt %s --embbag-to-llvm="checks=0" | %mlir_runner | FileCheck %s

// The `max` reduction (docs/EmbBag/EmbBagOps.md): the element-wise maximum
// over a bag's rows, in the signedness of T; an empty bag takes the default
// row when given, zeros otherwise (not the -inf / INT_MIN the accumulators
// start from).
//
// f32 table, every value negative (a maximum that started from 0 would print
// zeros): r0 = [-1, -5, -9], r1 = [-2, -3, -10], r2 = [-7, -1, -4],
// r3 = [-8, -8, -8].

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(tensor<*xi32>) attributes { llvm.emit_c_interface }

func.func @print_f32(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print_i8(%r: tensor<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xi8>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xi8>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x?xi8>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%x: i8, %o: i32):
    %y = arith.extsi %x : i8 to i32
    linalg.yield %y : i32
  } -> tensor<?x?xi32>
  %u = tensor.cast %e : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// Through a byte buffer: stored with the unsigned type, read back signless
// and zero-extended.
func.func @print_u8(%r: tensor<?x?xui8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %r, %c0 : tensor<?x?xui8>
  %d1 = tensor.dim %r, %c1 : tensor<?x?xui8>
  %n = arith.muli %d0, %d1 : index
  %buf = memref.alloc(%n) : memref<?xi8>
  %v = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xui8>
  bufferization.materialize_in_destination %r in restrict writable %v : (tensor<?x?xui8>, memref<?x?xui8>) -> ()
  %s = memref.view %buf[%c0][%d0, %d1] : memref<?xi8> to memref<?x?xi8>
  %st = bufferization.to_tensor %s restrict : memref<?x?xi8> to tensor<?x?xi8>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %e = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%st : tensor<?x?xi8>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%x: i8, %o: i32):
    %y = arith.extui %x : i8 to i32
    linalg.yield %y : i32
  } -> tensor<?x?xi32>
  %u = tensor.cast %e : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %t = arith.constant dense<[[-1.0, -5.0, -9.0], [-2.0, -3.0, -10.0], [-7.0, -1.0, -4.0], [-8.0, -8.0, -8.0]]> : tensor<4x3xf32>
  %d2 = arith.constant 2 : i32

  // packed: bags {0, 1}, {2, 3}.
  // CHECK: sizes = [2, 3] strides = [3, 1] data =
  // CHECK-NEXT: [-1, -3, -9]
  // CHECK-NEXT: [-7, -1, -4]
  %pi = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %r0 = embbag.packed max %t[%pi] : (tensor<4x3xf32>, tensor<2x2xi32>) -> tensor<2x3xf32>
  %c0 = tensor.cast %r0 : tensor<2x3xf32> to tensor<?x?xf32>
  call @print_f32(%c0) : (tensor<?x?xf32>) -> ()

  // packed with no index per bag: zeros.
  // CHECK: sizes = [2, 3] strides = [3, 1] data =
  // CHECK-NEXT: [0, 0, 0]
  // CHECK-NEXT: [0, 0, 0]
  %pe = arith.constant dense<> : tensor<2x0xi32>
  %r1 = embbag.packed max %t[%pe] : (tensor<4x3xf32>, tensor<2x0xi32>) -> tensor<2x3xf32>
  %c1 = tensor.cast %r1 : tensor<2x3xf32> to tensor<?x?xf32>
  call @print_f32(%c1) : (tensor<?x?xf32>) -> ()

  // offsets [0, 0, 3, 4] over [0, 1, 2, 3, 3]: bags {}, {0, 1, 2}, {3},
  // {3}; the empty bag is zeros, then the default row r2.
  // CHECK: sizes = [4, 3] strides = [3, 1] data =
  // CHECK-NEXT: [0, 0, 0]
  // CHECK-NEXT: [-1, -1, -4]
  // CHECK-NEXT: [-8, -8, -8]
  // CHECK-NEXT: [-8, -8, -8]
  // CHECK: sizes = [4, 3] strides = [3, 1] data =
  // CHECK-NEXT: [-7, -1, -4]
  // CHECK-NEXT: [-1, -1, -4]
  // CHECK-NEXT: [-8, -8, -8]
  // CHECK-NEXT: [-8, -8, -8]
  %oi = arith.constant dense<[0, 1, 2, 3, 3]> : tensor<5xi32>
  %oo = arith.constant dense<[0, 0, 3, 4]> : tensor<4xi32>
  %r2 = embbag.offsets max %t[%oi] offsets(%oo) : (tensor<4x3xf32>, tensor<5xi32>, tensor<4xi32>) -> tensor<4x3xf32>
  %c2 = tensor.cast %r2 : tensor<4x3xf32> to tensor<?x?xf32>
  call @print_f32(%c2) : (tensor<?x?xf32>) -> ()
  %r3 = embbag.offsets max %t[%oi] offsets(%oo) default(%d2) : (tensor<4x3xf32>, tensor<5xi32>, tensor<4xi32>, i32) -> tensor<4x3xf32>
  %c3 = tensor.cast %r3 : tensor<4x3xf32> to tensor<?x?xf32>
  call @print_f32(%c3) : (tensor<?x?xf32>) -> ()

  // The same on dynamic shapes (the row length dispatched at run time).
  // CHECK: sizes = [4, 3] strides = [3, 1] data =
  // CHECK-NEXT: [-7, -1, -4]
  // CHECK-NEXT: [-1, -1, -4]
  // CHECK-NEXT: [-8, -8, -8]
  // CHECK-NEXT: [-8, -8, -8]
  %td = tensor.cast %t : tensor<4x3xf32> to tensor<?x?xf32>
  %oid = tensor.cast %oi : tensor<5xi32> to tensor<?xi32>
  %ood = tensor.cast %oo : tensor<4xi32> to tensor<?xi32>
  %r4 = embbag.offsets max %td[%oid] offsets(%ood) default(%d2) : (tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>, i32) -> tensor<?x?xf32>
  call @print_f32(%r4) : (tensor<?x?xf32>) -> ()

  // segments, unsorted ids [2, 0, 2, 0] of indices [0, 1, 2, 3]: segments
  // {1, 3}, {}, {0, 2}, {}.
  // CHECK: sizes = [4, 3] strides = [3, 1] data =
  // CHECK-NEXT: [-2, -3, -8]
  // CHECK-NEXT: [0, 0, 0]
  // CHECK-NEXT: [-1, -1, -4]
  // CHECK-NEXT: [0, 0, 0]
  %si = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %ss = arith.constant dense<[2, 0, 2, 0]> : tensor<4xi32>
  %r5 = embbag.segments max %t[%si] segment_ids(%ss) num_segments(4) : (tensor<4x3xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4x3xf32>
  %c5 = tensor.cast %r5 : tensor<4x3xf32> to tensor<?x?xf32>
  call @print_f32(%c5) : (tensor<?x?xf32>) -> ()

  // A long row (19 elements: whole vectors and a masked tail), negative.
  // CHECK: sizes = [1, 19] strides = [19, 1] data =
  // CHECK-NEXT: [-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]
  %tl = arith.constant dense<-1.0> : tensor<2x19xf32>
  %tl0 = arith.constant dense<-3.0> : tensor<1x19xf32>
  %tlong = tensor.insert_slice %tl0 into %tl[0, 0] [1, 19] [1, 1] : tensor<1x19xf32> into tensor<2x19xf32>
  %li = arith.constant dense<[[0, 1, 0]]> : tensor<1x3xi64>
  %r6 = embbag.packed max %tlong[%li] : (tensor<2x19xf32>, tensor<1x3xi64>) -> tensor<1x19xf32>
  %c6 = tensor.cast %r6 : tensor<1x19xf32> to tensor<?x?xf32>
  call @print_f32(%c6) : (tensor<?x?xf32>) -> ()

  // Integers: the same bits compare signed in i8, unsigned in ui8.
  // Rows [-128, 127, -3] and [-1, 1, -4] (ui8: [128, 127, 253], [255, 1, 252]).
  // CHECK: sizes = [1, 3] strides = [3, 1] data =
  // CHECK-NEXT: [-1, 127, -3]
  // CHECK: sizes = [1, 3] strides = [3, 1] data =
  // CHECK-NEXT: [255, 127, 253]
  %ti8 = arith.constant dense<[[-128, 127, -3], [-1, 1, -4]]> : tensor<2x3xi8>
  %tu8 = arith.constant dense<[[128, 127, 253], [255, 1, 252]]> : tensor<2x3xui8>
  %ii = arith.constant dense<[[0, 1]]> : tensor<1x2xi32>
  %r7 = embbag.packed max %ti8[%ii] : (tensor<2x3xi8>, tensor<1x2xi32>) -> tensor<1x3xi8>
  %c7 = tensor.cast %r7 : tensor<1x3xi8> to tensor<?x?xi8>
  call @print_i8(%c7) : (tensor<?x?xi8>) -> ()
  %r8 = embbag.packed max %tu8[%ii] : (tensor<2x3xui8>, tensor<1x2xi32>) -> tensor<1x3xui8>
  %c8 = tensor.cast %r8 : tensor<1x3xui8> to tensor<?x?xui8>
  call @print_u8(%c8) : (tensor<?x?xui8>) -> ()

  // An empty ui8 segment is zeros; an i32 offsets bag of negatives.
  // CHECK: sizes = [2, 3] strides = [3, 1] data =
  // CHECK-NEXT: [255, 127, 253]
  // CHECK-NEXT: [0, 0, 0]
  // CHECK: sizes = [1, 2] strides = [2, 1] data =
  // CHECK-NEXT: [-5, -2]
  %s2 = arith.constant dense<[0, 0]> : tensor<2xi32>
  %i2 = arith.constant dense<[0, 1]> : tensor<2xi32>
  %r9 = embbag.segments max %tu8[%i2] segment_ids(%s2) num_segments(2) : (tensor<2x3xui8>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xui8>
  %c9 = tensor.cast %r9 : tensor<2x3xui8> to tensor<?x?xui8>
  call @print_u8(%c9) : (tensor<?x?xui8>) -> ()
  %ti32 = arith.constant dense<[[-5, -7], [-9, -2]]> : tensor<2x2xi32>
  %o1 = arith.constant dense<[0]> : tensor<1xi32>
  %r10 = embbag.offsets max %ti32[%i2] offsets(%o1) : (tensor<2x2xi32>, tensor<2xi32>, tensor<1xi32>) -> tensor<1x2xi32>
  %c10 = tensor.cast %r10 : tensor<1x2xi32> to tensor<*xi32>
  call @printMemrefI32(%c10) : (tensor<*xi32>) -> ()
  return
}
