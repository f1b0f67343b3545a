// Calls the training kernels of Inputs/training.mlir through the header
// embbag-aot wrote: several results come back in one NAME_results struct.
// Bags {1, 3, 1}, {}, {4, 1}; dy rows (1, 2), (10, 20), (100, 200).

#include "libtraining.h"

#include <stdio.h>
#include <stdlib.h>

static float table[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
static int64_t ind[5] = {1, 3, 1, 4, 1};
static int64_t off[3] = {0, 3, 3};
static float dyv[6] = {1, 2, 10, 20, 100, 200};
static float wv[5] = {1, 2, 3, 4, 5};

static void print2d(const char *what, embbag_memref_2d_f32 *m) {
  printf("%s %lldx%lld:", what, (long long)m->sizes[0],
         (long long)m->sizes[1]);
  for (int64_t r = 0; r < m->sizes[0]; ++r)
    for (int64_t c = 0; c < m->sizes[1]; ++c)
      printf(" %g", m->aligned[m->offset + r * m->strides[0] +
                               c * m->strides[1]]);
  printf("\n");
}

static void print1d(const char *what, embbag_memref_1d_f32 *m) {
  printf("%s %lld:", what, (long long)m->sizes[0]);
  for (int64_t r = 0; r < m->sizes[0]; ++r)
    printf(" %g", m->aligned[m->offset + r * m->strides[0]]);
  printf("\n");
}

int main(void) {
  embbag_memref_2d_f32 t = {table, table, 0, {5, 2}, {2, 1}};
  embbag_memref_1d_i64 in = {ind, ind, 0, {5}, {1}};
  embbag_memref_1d_i64 of = {off, off, 0, {3}, {1}};
  embbag_memref_2d_f32 dy = {dyv, dyv, 0, {3, 2}, {2, 1}};
  embbag_memref_1d_f32 w = {wv, wv, 0, {5}, {1}};

  sparse_grad_results sparse;
  _mlir_ciface_sparse_grad(&sparse, &dy, &t, &in, &of);
  printf("rows %lld:", (long long)sparse.result0.sizes[0]);
  for (int64_t r = 0; r < sparse.result0.sizes[0]; ++r)
    printf(" %lld", (long long)sparse.result0.aligned[sparse.result0.offset + r]);
  printf("\n");
  print2d("drows", &sparse.result1);
  free(sparse.result0.allocated);
  free(sparse.result1.allocated);

  weighted_grad_results weighted;
  _mlir_ciface_weighted_grad(&weighted, &dy, &t, &in, &of, &w);
  print2d("dtable", &weighted.result0);
  print1d("dweights", &weighted.result1);
  free(weighted.result0.allocated);
  free(weighted.result1.allocated);

  float state[5] = {0, 0, 0, 0, 0};
  embbag_memref_1d_f32 s = {state, state, 0, {5}, {1}};
  adagrad_results updated;
  _mlir_ciface_adagrad(&updated, 0.5f, 0.0f, &s, &dy, &t, &in, &of);
  print2d("table", &updated.result0);
  printf("lr %g\n", updated.result1);
  print1d("state", &updated.result2);
  free(updated.result0.allocated);
  free(updated.result2.allocated);
  return 0;
}
