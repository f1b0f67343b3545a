// embbag-tblgen -gen-pass-options makes a PassOptionSubset record a struct of
// pipeline options holding just the options it names, with the pass's
// descriptions and defaults, and a copyTo that sets those and no other.
// RUN: embbag-tblgen -gen-pass-options -I %mlir_include_dir -I %embbag_src_root/include %s | FileCheck %s
// RUN: not embbag-tblgen -gen-pass-options -DBAD -I %mlir_include_dir -I %embbag_src_root/include %s 2>&1 | FileCheck %s --check-prefix=BAD

include "embbag/Conversion/Passes.td"

def TestSubset : PassOptionSubset<ConvertEmbBagToGPU,
                                  ["training-owners", "rows-in-flight"]>;

// CHECK-LABEL: #ifdef GEN_PASS_PIPELINE_OPTIONS_TESTSUBSET
// CHECK-NEXT:  /// Options of `convert-embbag-to-gpu`
// CHECK:       struct TestSubset : public virtual ::mlir::detail::PassOptions {
// CHECK-NEXT:    Option<unsigned> trainingOwners{*this, "training-owners", ::llvm::cl::desc(R"PO(Training: the radix of the sort
// CHECK-SAME:    ::llvm::cl::init(1024)};
// CHECK-NEXT:    Option<unsigned> rowsInFlight{*this, "rows-in-flight", {{.*}}, ::llvm::cl::init(8)};
// CHECK-EMPTY:
// CHECK-NEXT:    /// Sets these options in `options`, and no other.
// CHECK-NEXT:    void copyTo(ConvertEmbBagToGPUOptions &options) const {
// CHECK-NEXT:      options.trainingOwners = trainingOwners.getValue();
// CHECK-NEXT:      options.rowsInFlight = rowsInFlight.getValue();
// CHECK-NEXT:    }
// CHECK-NEXT:  };
// CHECK-NEXT:  #undef GEN_PASS_PIPELINE_OPTIONS_TESTSUBSET

#ifdef BAD
def BadSubset : PassOptionSubset<ConvertEmbBagToGPU, ["rows-in-fligth"]>;
#endif
// BAD: tblgen-pass-option-subset.td:[[@LINE-2]]:5: error: `rows-in-fligth` is not an option of `convert-embbag-to-gpu`
