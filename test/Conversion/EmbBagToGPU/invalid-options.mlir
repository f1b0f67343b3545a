// Every option is checked before anything is rewritten: a bad value is one
// error, at the module the pass runs on, naming the option and what it
// accepts (the value as a number: rows-in-flight's was once printed as a
// character).
//
// RUN: not embbag-opt %s --convert-embbag-to-gpu="rows-in-flight=0" 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: error: rows-in-flight must lie in [1, 16], not 0{{$}}
// ROWS-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-gpu="training-owners=96" 2>&1 | FileCheck %s --check-prefix=OWNERS
// OWNERS: error: training-owners must be a power of two from 1 to 65536, not 96{{$}}
// OWNERS-NOT: error
//
// RUN: not embbag-opt %s --convert-embbag-to-gpu="training-owners=131072" 2>&1 | FileCheck %s --check-prefix=MANY-OWNERS
// MANY-OWNERS: error: training-owners must be a power of two from 1 to 65536, not 131072
//
// RUN: not embbag-opt %s --convert-embbag-to-gpu="training-owners=0" 2>&1 | FileCheck %s --check-prefix=NO-OWNERS
// NO-OWNERS: error: training-owners must be a power of two from 1 to 65536, not 0
//
// RUN: not embbag-opt %s --convert-embbag-to-gpu="training-chunk-positions=0" 2>&1 | FileCheck %s --check-prefix=CHUNK
// CHUNK: error: training-chunk-positions must be at least 1
// CHUNK-NOT: error
//
// The op is left as it was.
// RUN: not embbag-opt %s --convert-embbag-to-gpu="training-owners=3" 2>&1 | FileCheck %s --check-prefix=KEPT
// KEPT-NOT: gpu.launch

func.func @grad(%dy: tensor<?x4xf32>, %t: tensor<?x4xf32>, %i: tensor<?xi64>,
                %off: tensor<?xi64>) -> tensor<?x4xf32> {
  %g = embbag.offsets_grad sum %dy, %t[%i] offsets(%off)
      : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
