//===- GradKernel.h - The GPU kernels of the gradient ops -------*- C++ -*-===//
//
// The threads of the kernels of a dense `embbag.*_grad` op (docs/GPU.md,
// "Gradients"), private to EmbBagToGPU:
//
//   table gradient    groups of lanes that each own the rows r with
//                     r mod numOwners = group: a group zeroes its rows, then
//                     walks every bag's positions in index order and adds
//                     the share of each position that reads one of its
//                     rows. No two groups write a row, so no atomics, and
//                     each row's sum is in index order, every run alike.
//   weights gradient  one thread per bag: each position's dot product of
//                     the bag's `dy` row and its table row; a kernel of one
//                     thread per position zeroes the positions no bag reads
//                     first.
//
// The threads need no barrier and no shared memory, so that the same code
// runs in host loops (path=gpu-loops), where the CPU's tests check it.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_GRADKERNEL_H
#define EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_GRADKERNEL_H

#include "BagKernel.h"

namespace mlir::embbag::gpu_lowering {

/// The most blocks of the table gradient's kernel: every group of lanes
/// walks all the positions, so more groups than the GPU holds at once only
/// add walks.
constexpr int64_t kMaxOwnerBlocks = 1024;

/// What the threads of a gradient op's kernels read.
struct GradKernel {
  // The forward op's buffers, bags, clauses and checks (`out` unused;
  // lanesPerBag is the lanes per row of the table gradient's kernel).
  BagKernel bags;
  Value dy;          // memref<num_bags x row x T>, T = f32
  Value tableGrad;   // memref<num_emb x row x T>
  Value weightsGrad; // memref<num_indices x T>, or null
  Value numOwners;   // index: the groups of lanes of the table gradient
};

/// Thread `thread` of block `block` of the table gradient's kernel.
void buildTableGradThread(ImplicitLocOpBuilder &b, const GradKernel &k,
                          Value block, Value thread);

/// Thread `thread` of block `block` of the kernel that zeroes the weights
/// gradient, one position per thread.
void buildZeroWeightsGradThread(ImplicitLocOpBuilder &b, const GradKernel &k,
                                Value block, Value thread);

/// Thread `thread` of block `block` of the weights gradient's kernel, one
/// bag per thread.
void buildWeightsGradThread(ImplicitLocOpBuilder &b, const GradKernel &k,
                            Value block, Value thread);

} // namespace mlir::embbag::gpu_lowering

#endif // EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_GRADKERNEL_H
