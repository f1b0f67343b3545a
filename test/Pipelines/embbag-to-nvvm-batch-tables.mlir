// RUN: embbag-opt %s --embbag-to-nvvm="batch-tables=1" | FileCheck %s --check-prefix=HOST
// RUN: embbag-opt %s --embbag-to-nvvm="batch-tables=1" | %python %embbag_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX --implicit-check-not=.local
// RUN: embbag-opt %s --embbag-to-nvvm | %python %embbag_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=UNBATCHED

// The 26 tables of the GPU benchmark (benchmarks/gpu/gen_kernels.py) take
// 6017 bytes of kernel parameters in one launch (their buffers'
// descriptors): more than PTX allows before ISA 8.1 (4352 bytes), which
// the driver refused on an H200 until the pipeline asked for PTX 8.1. It
// does by default (features=+ptx81) and launches them once; with an older
// ISA, or a chip before sm_70, the batch is split so that no launch passes
// 4352 bytes.
// RUN: %python %embbag_src_root/benchmarks/gpu/gen_kernels.py --tables %t.tables.mlir
// RUN: embbag-opt %t.tables.mlir --embbag-to-nvvm="batch-tables=1 checks=0" | %python %embbag_src_root/utils/extract-ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX81 < %t.ptx
// RUN: embbag-opt %t.tables.mlir --embbag-to-nvvm="batch-tables=1 checks=0" | %python %embbag_src_root/utils/extract-ptx.py --param-bytes | FileCheck %s --check-prefix=PARAMS81
// RUN: embbag-opt %t.tables.mlir --embbag-to-nvvm="batch-tables=1 checks=0 features=+ptx78" | %python %embbag_src_root/utils/extract-ptx.py --param-bytes | FileCheck %s --check-prefix=PARAMS78
// RUN: embbag-opt %t.tables.mlir --embbag-to-nvvm="batch-tables=1 checks=0 chip=sm_60" | %python %embbag_src_root/utils/extract-ptx.py --param-bytes | FileCheck %s --check-prefix=PARAMS78
// PTX81:          .version 8.1
// PTX81:          .visible .entry tables_kernel(
// PTX81-NOT:      .entry
// PARAMS81:       tables_kernel: {{[0-9]+}} parameter bytes (over 4352: PTX ISA 8.1)
// PARAMS81-NOT:   OVER THE LIMIT
// PARAMS81-NOT:   tables_kernel
// PARAMS78-COUNT-2: tables_kernel: {{[0-9]+}} parameter bytes{{$}}
// PARAMS78-NOT:   tables_kernel

// batch-tables through the whole GPU pipeline: the three tables' ops (f32
// rows of 16, f16 rows of 64, bf16 rows of 8) are one kernel, compiled to
// PTX with one .entry, launched once after the host's checks, its flag
// word read once; unbatched, the same ops are three kernels.

// HOST:       llvm.func @three_tables(
// HOST:         llvm.call @embbagCudaStatusWord()
// HOST-NOT:     llvm.call @embbagCudaStatusWord()
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @three_tables_kernel::@three_tables_kernel blocks in ({{.*}}) threads in ({{.*}}) : i64
// HOST-NOT:     gpu.launch_func
// HOST:         llvm.call @abort
// HOST-NOT:     gpu.launch_func
// HOST:       gpu.binary @three_tables_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">
// HOST-NOT:   gpu.binary

// The one kernel: each op's code behind the switch on the block's op (a
// jump table or branches), each rule's own bit of the shared word, the
// f32 and f16 ops' 16-byte loads.
// PTX:          // gpu.binary @three_tables_kernel
// PTX:          .visible .entry three_tables_kernel(
// PTX-NOT:      .entry
// PTX:          .maxntid 256, 1, 1
// PTX-DAG:      atom.global.or.b32 {{.*}}, 1;
// PTX-DAG:      atom.global.or.b32 {{.*}}, 2;
// PTX-DAG:      atom.global.or.b32 {{.*}}, 4;
// PTX-DAG:      atom.global.or.b32 {{.*}}, 8;
// PTX-DAG:      ld.global.v4.b32
// PTX-NOT:      .entry
// PTX-NOT:      gpu.binary

// UNBATCHED-COUNT-3: .visible .entry
// UNBATCHED-NOT:     .entry
func.func @three_tables(
    %t0: tensor<1000x16xf32>, %i0: tensor<?xi64>, %o0: tensor<?xi64>, %out0: memref<?x16xf32>,
    %t1: tensor<500x64xf16>, %i1: tensor<?x4xi32>, %out1: memref<?x64xf16>,
    %t2: tensor<100x8xbf16>, %i2: tensor<?xi64>, %s2: tensor<?xi64>, %n2: i64, %out2: memref<?x8xbf16>) {
  %r0 = embbag.offsets sum %t0[%i0] offsets(%o0) : (tensor<1000x16xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x16xf32>
  bufferization.materialize_in_destination %r0 in restrict writable %out0 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
  %r1 = embbag.packed mean %t1[%i1] : (tensor<500x64xf16>, tensor<?x4xi32>) -> tensor<?x64xf16>
  bufferization.materialize_in_destination %r1 in restrict writable %out1 : (tensor<?x64xf16>, memref<?x64xf16>) -> ()
  %r2 = embbag.segments max %t2[%i2] segment_ids(%s2) num_segments(%n2) : (tensor<100x8xbf16>, tensor<?xi64>, tensor<?xi64>, i64) -> tensor<?x8xbf16>
  bufferization.materialize_in_destination %r2 in restrict writable %out2 : (tensor<?x8xbf16>, memref<?x8xbf16>) -> ()
  return
}
