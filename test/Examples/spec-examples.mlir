// RUN: embbag-opt %embbag_src_root/examples/spec/packed_sum.mlir --embbag-verify-constants | FileCheck %s --check-prefix=PACKED-SUM
// RUN: embbag-opt %embbag_src_root/examples/spec/packed_weighted_sum.mlir --embbag-verify-constants | FileCheck %s --check-prefix=PACKED-WEIGHTED-SUM
// RUN: embbag-opt %embbag_src_root/examples/spec/packed_mean.mlir --embbag-verify-constants | FileCheck %s --check-prefix=PACKED-MEAN
// RUN: embbag-opt %embbag_src_root/examples/spec/offsets_default0.mlir --embbag-verify-constants | FileCheck %s --check-prefix=OFFSETS-DEFAULT0
// RUN: embbag-opt %embbag_src_root/examples/spec/offsets_default_minus1.mlir --embbag-verify-constants | FileCheck %s --check-prefix=OFFSETS-DEFAULT-MINUS1
// RUN: embbag-opt %embbag_src_root/examples/spec/offsets_mean.mlir --embbag-verify-constants | FileCheck %s --check-prefix=OFFSETS-MEAN
// RUN: embbag-opt %embbag_src_root/examples/spec/offsets_sum3_example1.mlir --embbag-verify-constants | FileCheck %s --check-prefix=OFFSETS-SUM3-EXAMPLE1
// RUN: embbag-opt %embbag_src_root/examples/spec/offsets_sum3_example2.mlir --embbag-verify-constants | FileCheck %s --check-prefix=OFFSETS-SUM3-EXAMPLE2
// RUN: embbag-opt %embbag_src_root/examples/spec/segments_sum.mlir --embbag-verify-constants | FileCheck %s --check-prefix=SEGMENTS-SUM

// Every worked example of the OpenVINO specifications of the ops is an .mlir file
// in examples/spec/ (executed by the integration tests). Here each one must
// parse, verify, pass --embbag-verify-constants, and print its embbag op with
// the spec's inputs.

// PACKED-SUM-LABEL: func.func @main()
// PACKED-SUM-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// PACKED-SUM-NEXT:    %[[I:.*]] = arith.constant dense<{{\[}}[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi32>
// PACKED-SUM-NEXT:    %[[R:.*]] = embbag.packed sum %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// PACKED-SUM-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// PACKED-SUM-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// PACKED-SUM-NEXT:    return
// PACKED-SUM:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// PACKED-WEIGHTED-SUM-LABEL: func.func @main()
// PACKED-WEIGHTED-SUM-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// PACKED-WEIGHTED-SUM-NEXT:    %[[I:.*]] = arith.constant dense<{{\[}}[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi32>
// PACKED-WEIGHTED-SUM-NEXT:    %[[W:.*]] = arith.constant dense<{{\[}}[5.000000e-01, 5.000000e-01], [3.000000e-01, 0.699999988], [2.000000e+00, -1.000000e+00]]> : tensor<3x2xf32>
// PACKED-WEIGHTED-SUM-NEXT:    %[[R:.*]] = embbag.packed sum %[[T]][%[[I]]] weights(%[[W]]) : (tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>{{$}}
// PACKED-WEIGHTED-SUM-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// PACKED-WEIGHTED-SUM-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// PACKED-WEIGHTED-SUM-NEXT:    return
// PACKED-WEIGHTED-SUM:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// PACKED-MEAN-LABEL: func.func @main()
// PACKED-MEAN-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// PACKED-MEAN-NEXT:    %[[I:.*]] = arith.constant dense<{{\[}}[0, 2], [1, 2], [3, 4]]> : tensor<3x2xi32>
// PACKED-MEAN-NEXT:    %[[R:.*]] = embbag.packed mean %[[T]][%[[I]]] : (tensor<5x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>{{$}}
// PACKED-MEAN-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// PACKED-MEAN-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// PACKED-MEAN-NEXT:    return
// PACKED-MEAN:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// OFFSETS-DEFAULT0-LABEL: func.func @main()
// OFFSETS-DEFAULT0-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// OFFSETS-DEFAULT0-NEXT:    %[[I:.*]] = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
// OFFSETS-DEFAULT0-NEXT:    %[[O:.*]] = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
// OFFSETS-DEFAULT0-NEXT:    %[[D:.*]] = arith.constant 0 : i32
// OFFSETS-DEFAULT0-NEXT:    %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<4xf32>
// OFFSETS-DEFAULT0-NEXT:    %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// OFFSETS-DEFAULT0-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// OFFSETS-DEFAULT0-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// OFFSETS-DEFAULT0-NEXT:    return
// OFFSETS-DEFAULT0:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// OFFSETS-DEFAULT-MINUS1-LABEL: func.func @main()
// OFFSETS-DEFAULT-MINUS1-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// OFFSETS-DEFAULT-MINUS1-NEXT:    %[[I:.*]] = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
// OFFSETS-DEFAULT-MINUS1-NEXT:    %[[O:.*]] = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
// OFFSETS-DEFAULT-MINUS1-NEXT:    %[[D:.*]] = arith.constant -1 : i32
// OFFSETS-DEFAULT-MINUS1-NEXT:    %[[W:.*]] = arith.constant dense<[5.000000e-01, 2.000000e-01, -2.000000e+00, 1.000000e+00]> : tensor<4xf32>
// OFFSETS-DEFAULT-MINUS1-NEXT:    %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// OFFSETS-DEFAULT-MINUS1-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// OFFSETS-DEFAULT-MINUS1-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// OFFSETS-DEFAULT-MINUS1-NEXT:    return
// OFFSETS-DEFAULT-MINUS1:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// OFFSETS-MEAN-LABEL: func.func @main()
// OFFSETS-MEAN-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// OFFSETS-MEAN-NEXT:    %[[I:.*]] = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
// OFFSETS-MEAN-NEXT:    %[[O:.*]] = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
// OFFSETS-MEAN-NEXT:    %[[R:.*]] = embbag.offsets mean %[[T]][%[[I]]] offsets(%[[O]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<3xi32>) -> tensor<3x2xf32>{{$}}
// OFFSETS-MEAN-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// OFFSETS-MEAN-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// OFFSETS-MEAN-NEXT:    return
// OFFSETS-MEAN:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// OFFSETS-SUM3-EXAMPLE1-LABEL: func.func @main()
// OFFSETS-SUM3-EXAMPLE1-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// OFFSETS-SUM3-EXAMPLE1-NEXT:    %[[I:.*]] = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi64>
// OFFSETS-SUM3-EXAMPLE1-NEXT:    %[[O:.*]] = arith.constant dense<[0, 2, 2]> : tensor<3xi64>
// OFFSETS-SUM3-EXAMPLE1-NEXT:    %[[D:.*]] = arith.constant 0 : i64
// OFFSETS-SUM3-EXAMPLE1-NEXT:    %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<4xf32>
// OFFSETS-SUM3-EXAMPLE1-NEXT:    %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// OFFSETS-SUM3-EXAMPLE1-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// OFFSETS-SUM3-EXAMPLE1-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// OFFSETS-SUM3-EXAMPLE1-NEXT:    return
// OFFSETS-SUM3-EXAMPLE1:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// OFFSETS-SUM3-EXAMPLE2-LABEL: func.func @main()
// OFFSETS-SUM3-EXAMPLE2-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// OFFSETS-SUM3-EXAMPLE2-NEXT:    %[[I:.*]] = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi64>
// OFFSETS-SUM3-EXAMPLE2-NEXT:    %[[O:.*]] = arith.constant dense<[0, 2, 2]> : tensor<3xi64>
// OFFSETS-SUM3-EXAMPLE2-NEXT:    %[[D:.*]] = arith.constant -1 : i64
// OFFSETS-SUM3-EXAMPLE2-NEXT:    %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<4xf32>
// OFFSETS-SUM3-EXAMPLE2-NEXT:    %[[R:.*]] = embbag.offsets sum %[[T]][%[[I]]] offsets(%[[O]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi64>, tensor<3xi64>, i64, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// OFFSETS-SUM3-EXAMPLE2-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// OFFSETS-SUM3-EXAMPLE2-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// OFFSETS-SUM3-EXAMPLE2-NEXT:    return
// OFFSETS-SUM3-EXAMPLE2:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// SEGMENTS-SUM-LABEL: func.func @main()
// SEGMENTS-SUM-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[-2.000000e-01, -6.000000e-01], [-1.000000e-01, -4.000000e-01], [-1.900000e+00, -1.800000e+00], [-1.000000e+00, 1.500000e+00], [8.000000e-01, -0.699999988]]> : tensor<5x2xf32>
// SEGMENTS-SUM-NEXT:    %[[I:.*]] = arith.constant dense<[0, 2, 3, 4]> : tensor<4xi32>
// SEGMENTS-SUM-NEXT:    %[[S:.*]] = arith.constant dense<[0, 0, 2, 2]> : tensor<4xi32>
// SEGMENTS-SUM-NEXT:    %[[N:.*]] = arith.constant 3 : i32
// SEGMENTS-SUM-NEXT:    %[[D:.*]] = arith.constant 0 : i32
// SEGMENTS-SUM-NEXT:    %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<4xf32>
// SEGMENTS-SUM-NEXT:    %[[R:.*]] = embbag.segments sum %[[T]][%[[I]]] segment_ids(%[[S]]) num_segments(%[[N]]) default(%[[D]]) weights(%[[W]]) : (tensor<5x2xf32>, tensor<4xi32>, tensor<4xi32>, i32, i32, tensor<4xf32>) -> tensor<3x2xf32>{{$}}
// SEGMENTS-SUM-NEXT:    %[[U:.*]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<*xf32>
// SEGMENTS-SUM-NEXT:    call @printMemrefF32(%[[U]]) : (tensor<*xf32>) -> ()
// SEGMENTS-SUM-NEXT:    return
// SEGMENTS-SUM:         func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}
