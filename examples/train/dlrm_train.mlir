// A DLRM-style embedding layer trained entirely in MLIR: three tables, each
// pooled by a different embbag op, their pooled rows concatenated into a
// sample's features, and a linear head that predicts one value per sample.
// Each step runs the forward pass, the mean squared error and its gradient,
// then updates the head and, with the fused SGD of embbag.*_update, the
// rows of the tables that the batch read (in place: the tables are the
// loop's iter_args, and one-shot bufferization updates their buffers).
//
//   user table (8 x 4): embbag.offsets sum, 1 to 3 users per sample, one
//                       sample without any (a zero row)
//   item table (6 x 4): embbag.packed mean, two items per sample
//   ctx table  (5 x 4): embbag.segments sum, weighted, sorted segment ids
//
// It prints the loss of each step (before that step's update), which falls.
// examples/train/check.py trains the same model (the constants below) with
// torch.nn.EmbeddingBag, nn.Linear and torch.optim.SGD and compares the
// losses; utils/run-examples.sh runs both.
//
//   embbag-opt examples/train/dlrm_train.mlir --embbag-to-llvm \
//     | mlir-runner -e main -entry-point-result=void -shared-libs=...

// The features of the batch: the three pooled rows side by side, [4, 12].
func.func @features(%user: tensor<8x4xf32>, %item: tensor<6x4xf32>,
                    %ctx: tensor<5x4xf32>, %uid: tensor<6xi64>,
                    %uoff: tensor<4xi64>, %iid: tensor<4x2xi64>,
                    %cid: tensor<5xi64>, %cseg: tensor<5xi64>,
                    %cw: tensor<5xf32>) -> tensor<4x12xf32> {
  %u = embbag.offsets sum %user[%uid] offsets(%uoff)
      : (tensor<8x4xf32>, tensor<6xi64>, tensor<4xi64>) -> tensor<4x4xf32>
  %i = embbag.packed mean %item[%iid]
      : (tensor<6x4xf32>, tensor<4x2xi64>) -> tensor<4x4xf32>
  %c = embbag.segments sum %ctx[%cid] segment_ids(%cseg) num_segments(4)
      weights(%cw)
      : (tensor<5x4xf32>, tensor<5xi64>, tensor<5xi64>, tensor<5xf32>)
      -> tensor<4x4xf32>
  %empty = tensor.empty() : tensor<4x12xf32>
  %x0 = tensor.insert_slice %u into %empty[0, 0] [4, 4] [1, 1]
      : tensor<4x4xf32> into tensor<4x12xf32>
  %x1 = tensor.insert_slice %i into %x0[0, 4] [4, 4] [1, 1]
      : tensor<4x4xf32> into tensor<4x12xf32>
  %x = tensor.insert_slice %c into %x1[0, 8] [4, 4] [1, 1]
      : tensor<4x4xf32> into tensor<4x12xf32>
  return %x : tensor<4x12xf32>
}

#vec = affine_map<(b) -> (b)>
#scalar = affine_map<(b) -> ()>
#mat = affine_map<(b, j) -> (b, j)>
#row = affine_map<(b, j) -> (b)>
#col = affine_map<(b, j) -> (j)>

// The head's residuals r = x w + bias - y and the loss mean(r^2).
func.func @residuals(%x: tensor<4x12xf32>, %w: tensor<12xf32>, %bias: f32,
                     %y: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %init = tensor.empty() : tensor<4xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %p = linalg.matvec ins(%x, %w : tensor<4x12xf32>, tensor<12xf32>)
      outs(%zeros : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#vec, #vec, #vec],
                       iterator_types = ["parallel"]}
      ins(%p, %y : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%pv: f32, %yv: f32, %out: f32):
    %shifted = arith.addf %pv, %bias : f32
    %diff = arith.subf %shifted, %yv : f32
    linalg.yield %diff : f32
  } -> tensor<4xf32>
  %acc0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#vec, #scalar],
                         iterator_types = ["reduction"]}
      ins(%r : tensor<4xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%rv: f32, %s: f32):
    %sq = arith.mulf %rv, %rv : f32
    %next = arith.addf %s, %sq : f32
    linalg.yield %next : f32
  } -> tensor<f32>
  %total = tensor.extract %sum[] : tensor<f32>
  %loss = arith.mulf %total, %quarter : f32
  return %r, %loss : tensor<4xf32>, f32
}

// dL/dx[b, j] = dp[b] * w[j], with dp = 2 r / 4.
func.func @features_grad(%dp: tensor<4xf32>, %w: tensor<12xf32>)
    -> tensor<4x12xf32> {
  %init = tensor.empty() : tensor<4x12xf32>
  %dx = linalg.generic {indexing_maps = [#row, #col, #mat],
                        iterator_types = ["parallel", "parallel"]}
      ins(%dp, %w : tensor<4xf32>, tensor<12xf32>)
      outs(%init : tensor<4x12xf32>) {
  ^bb0(%d: f32, %wv: f32, %out: f32):
    %g = arith.mulf %d, %wv : f32
    linalg.yield %g : f32
  } -> tensor<4x12xf32>
  return %dx : tensor<4x12xf32>
}

// The head's new weights w - lr * x^T dp and bias - lr * sum(dp).
func.func @head_update(%x: tensor<4x12xf32>, %dp: tensor<4xf32>,
                       %w: tensor<12xf32>, %bias: f32, %lr: f32)
    -> (tensor<12xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<12xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%init : tensor<12xf32>) -> tensor<12xf32>
  %dw = linalg.vecmat ins(%dp, %x : tensor<4xf32>, tensor<4x12xf32>)
      outs(%zeros : tensor<12xf32>) -> tensor<12xf32>
  %w2 = linalg.generic {indexing_maps = [#vec, #vec, #vec],
                        iterator_types = ["parallel"]}
      ins(%w, %dw : tensor<12xf32>, tensor<12xf32>)
      outs(%init : tensor<12xf32>) {
  ^bb0(%wv: f32, %g: f32, %out: f32):
    %step = arith.mulf %lr, %g : f32
    %next = arith.subf %wv, %step : f32
    linalg.yield %next : f32
  } -> tensor<12xf32>
  %acc0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<f32>) -> tensor<f32>
  %dbias_t = linalg.generic {indexing_maps = [#vec, #scalar],
                             iterator_types = ["reduction"]}
      ins(%dp : tensor<4xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%d: f32, %s: f32):
    %next = arith.addf %s, %d : f32
    linalg.yield %next : f32
  } -> tensor<f32>
  %dbias = tensor.extract %dbias_t[] : tensor<f32>
  %step = arith.mulf %lr, %dbias : f32
  %bias2 = arith.subf %bias, %step : f32
  return %w2, %bias2 : tensor<12xf32>, f32
}

// One step of SGD; returns the updated parameters and the loss before it.
func.func @train_step(%user: tensor<8x4xf32>, %item: tensor<6x4xf32>,
                      %ctx: tensor<5x4xf32>, %w: tensor<12xf32>, %bias: f32,
                      %lr: f32, %uid: tensor<6xi64>, %uoff: tensor<4xi64>,
                      %iid: tensor<4x2xi64>, %cid: tensor<5xi64>,
                      %cseg: tensor<5xi64>, %cw: tensor<5xf32>,
                      %y: tensor<4xf32>)
    -> (tensor<8x4xf32>, tensor<6x4xf32>, tensor<5x4xf32>, tensor<12xf32>,
        f32, f32) {
  %x = call @features(%user, %item, %ctx, %uid, %uoff, %iid, %cid, %cseg, %cw)
      : (tensor<8x4xf32>, tensor<6x4xf32>, tensor<5x4xf32>, tensor<6xi64>,
         tensor<4xi64>, tensor<4x2xi64>, tensor<5xi64>, tensor<5xi64>,
         tensor<5xf32>) -> tensor<4x12xf32>
  %r, %loss = call @residuals(%x, %w, %bias, %y)
      : (tensor<4x12xf32>, tensor<12xf32>, f32, tensor<4xf32>)
      -> (tensor<4xf32>, f32)
  // dL/dp = 2 r / batch.
  %half = arith.constant 0.5 : f32
  %init = tensor.empty() : tensor<4xf32>
  %dp = linalg.generic {indexing_maps = [#vec, #vec],
                        iterator_types = ["parallel"]}
      ins(%r : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%rv: f32, %out: f32):
    %d = arith.mulf %rv, %half : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  %dx = call @features_grad(%dp, %w)
      : (tensor<4xf32>, tensor<12xf32>) -> tensor<4x12xf32>
  %du = tensor.extract_slice %dx[0, 0] [4, 4] [1, 1]
      : tensor<4x12xf32> to tensor<4x4xf32>
  %di = tensor.extract_slice %dx[0, 4] [4, 4] [1, 1]
      : tensor<4x12xf32> to tensor<4x4xf32>
  %dc = tensor.extract_slice %dx[0, 8] [4, 4] [1, 1]
      : tensor<4x12xf32> to tensor<4x4xf32>
  // The tables' fused updates: only the rows the batch read change.
  %user2 = embbag.offsets_update sum sgd(%lr) %du, %user[%uid] offsets(%uoff)
      : (f32, tensor<4x4xf32>, tensor<8x4xf32>, tensor<6xi64>, tensor<4xi64>)
      -> tensor<8x4xf32>
  %item2 = embbag.packed_update mean sgd(%lr) %di, %item[%iid]
      : (f32, tensor<4x4xf32>, tensor<6x4xf32>, tensor<4x2xi64>)
      -> tensor<6x4xf32>
  %ctx2 = embbag.segments_update sum sgd(%lr) %dc, %ctx[%cid]
      segment_ids(%cseg) num_segments(4) weights(%cw)
      : (f32, tensor<4x4xf32>, tensor<5x4xf32>, tensor<5xi64>, tensor<5xi64>,
         tensor<5xf32>) -> tensor<5x4xf32>
  %w2, %bias2 = call @head_update(%x, %dp, %w, %bias, %lr)
      : (tensor<4x12xf32>, tensor<4xf32>, tensor<12xf32>, f32, f32)
      -> (tensor<12xf32>, f32)
  return %user2, %item2, %ctx2, %w2, %bias2, %loss
      : tensor<8x4xf32>, tensor<6x4xf32>, tensor<5x4xf32>, tensor<12xf32>,
        f32, f32
}

func.func @main() {
  // The initial parameters (check.py reads these constants).
  %user0 = arith.constant dense<[[-0.6988, -0.6020, -0.6511, -0.3113],
      [0.7236, -0.8007, 0.4720, 0.6312], [-0.1777, -0.3505, 0.2361, 0.6073],
      [1.0778, 0.4459, 0.7969, -0.2251], [-0.4371, -0.8599, -0.5769, -0.1817],
      [0.0965, -0.6566, 0.4080, -0.0515], [-0.3211, -0.3826, 1.0103, 0.0846],
      [-0.4490, -0.4770, 0.9189, -0.2892]]> : tensor<8x4xf32>
  %item0 = arith.constant dense<[[0.5944, 0.7116, -1.1622, 0.6755],
      [-0.1042, -0.5421, -0.2719, 0.2804], [0.1870, 0.2128, -0.3624, 0.6395],
      [0.7511, 0.9170, 0.5002, 0.9472], [1.0470, 0.3521, 0.4406, 0.2911],
      [0.2757, 0.4316, -0.8545, -0.1619]]> : tensor<6x4xf32>
  %ctx0 = arith.constant dense<[[0.2439, -1.0537, -0.7209, 0.7922],
      [-0.5296, -0.2322, 0.1876, -0.2380], [-0.4304, -0.2580, -0.2141, -0.2899],
      [0.0912, 0.8049, 0.1782, 0.8124], [0.3698, 0.4180, 0.2933, -0.1495]]>
      : tensor<5x4xf32>
  %w0 = arith.constant dense<[0.1265, 0.0909, -0.3337, 0.2245, 0.1733, 0.1105,
      -0.1675, -0.7900, 0.4402, -0.0211, -0.6532, 0.1949]> : tensor<12xf32>
  %bias0 = arith.constant 0.1 : f32
  %lr = arith.constant 0.1 : f32
  // The batch: sample 0 has users 1, 3, 3 (a repeated row), sample 1 user
  // 6, sample 2 none, sample 3 users 0, 6; items in pairs; context rows
  // weighted per sample, sample 1 without any.
  %uid = arith.constant dense<[1, 3, 3, 6, 0, 6]> : tensor<6xi64>
  %uoff = arith.constant dense<[0, 3, 4, 4]> : tensor<4xi64>
  %iid = arith.constant dense<[[0, 2], [2, 5], [1, 1], [4, 3]]> : tensor<4x2xi64>
  %cid = arith.constant dense<[4, 0, 2, 2, 3]> : tensor<5xi64>
  %cseg = arith.constant dense<[0, 0, 2, 3, 3]> : tensor<5xi64>
  %cw = arith.constant dense<[1.0, 0.5, 2.0, 1.5, -1.0]> : tensor<5xf32>
  %y = arith.constant dense<[-0.6994, 0.6869, -0.1019, 1.1343]> : tensor<4xf32>

  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 12 : index
  %final:5 = scf.for %step = %c0 to %steps step %c1
      iter_args(%user = %user0, %item = %item0, %ctx = %ctx0, %w = %w0,
                %bias = %bias0)
      -> (tensor<8x4xf32>, tensor<6x4xf32>, tensor<5x4xf32>, tensor<12xf32>,
          f32) {
    %user2, %item2, %ctx2, %w2, %bias2, %loss = func.call @train_step(
        %user, %item, %ctx, %w, %bias, %lr, %uid, %uoff, %iid, %cid, %cseg,
        %cw, %y)
        : (tensor<8x4xf32>, tensor<6x4xf32>, tensor<5x4xf32>, tensor<12xf32>,
           f32, f32, tensor<6xi64>, tensor<4xi64>, tensor<4x2xi64>,
           tensor<5xi64>, tensor<5xi64>, tensor<5xf32>, tensor<4xf32>)
        -> (tensor<8x4xf32>, tensor<6x4xf32>, tensor<5x4xf32>,
            tensor<12xf32>, f32, f32)
    vector.print str "loss "
    vector.print %loss : f32
    scf.yield %user2, %item2, %ctx2, %w2, %bias2
        : tensor<8x4xf32>, tensor<6x4xf32>, tensor<5x4xf32>, tensor<12xf32>,
          f32
  }
  // The trained user table: the rows no sample read (2, 4, 5 and 7) keep
  // their initial values.
  %p = tensor.cast %final#0 : tensor<8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>) attributes { llvm.emit_c_interface }
