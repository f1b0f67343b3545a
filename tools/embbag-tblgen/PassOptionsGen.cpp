//===- PassOptionsGen.cpp - A pass's .td options for pipelines ------------===//
//
// mlir-tblgen -gen-pass-decls gives each pass an options struct
// (`<Pass>Options`, plain values) and `Pass::Option` members on the pass; a
// pipeline that forwards a pass's options needs them as the options of a
// pass pipeline too. This backend generates, from the same `Option` records
// of a `Pass`:
//
//   GEN_PASS_OPTIONS_GETTER_<PASS>      a member function of the pass,
//                                       `get<Pass>Options()`: its option
//                                       values as the options struct
//   GEN_PASS_PIPELINE_OPTIONS_<PASS>    `<Pass>PipelineOptions`, the options
//                                       declared for a pipeline (virtual
//                                       PassOptions base: a pipeline's
//                                       options derive from it), with the
//                                       same getter
//   GEN_PASS_PIPELINE_OPTIONS_<SUBSET>  for each `PassOptionSubset` record
//                                       (Conversion/Passes.td):
//                                       `<Subset>` (the record's name), the
//                                       named options of one pass as
//                                       pipeline options, with
//                                       `copyTo(<Pass>Options &)`, which
//                                       sets them and no other
//
// so that every option is declared once, in the pass's .td.
//
//===----------------------------------------------------------------------===//

#include "mlir/TableGen/GenInfo.h"
#include "mlir/TableGen/Pass.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace mlir;
using namespace mlir::tblgen;

/// `get<Pass>Options()`, reading each option member of the same name, each
/// line after `indent`.
static void emitGetter(const Pass &pass, StringRef indent, raw_ostream &os) {
  StringRef name = pass.getDef()->getName();
  os << llvm::formatv("{1}/// The option values, as `create{0}` takes them.\n"
                      "{1}{0}Options get{0}Options() const {{\n"
                      "{1}  {0}Options options;\n",
                      name, indent);
  for (const PassOption &opt : pass.getOptions())
    os << llvm::formatv("{1}  options.{0} = {0}.getValue();\n",
                        opt.getCppVariableName(), indent);
  os << indent << "  return options;\n" << indent << "}\n";
}

/// One `Option` member per option, as -gen-pass-decls declares them on the
/// pass, but on a PassOptions.
static void emitOptionMembers(ArrayRef<PassOption> options, raw_ostream &os) {
  for (const PassOption &opt : options) {
    os << llvm::formatv("  Option<{0}> {1}{{*this, \"{2}\", "
                        "::llvm::cl::desc(R\"PO({3})PO\")",
                        opt.getType(), opt.getCppVariableName(),
                        opt.getArgument(), opt.getDescription().trim());
    if (std::optional<StringRef> init = opt.getDefaultValue())
      os << ", ::llvm::cl::init(" << *init << ")";
    if (std::optional<StringRef> flags = opt.getAdditionalFlags())
      os << ", " << *flags;
    os << "};\n";
  }
}

static void emitPipelineOptions(const Pass &pass, raw_ostream &os) {
  StringRef name = pass.getDef()->getName();
  os << llvm::formatv(
      "/// The options of `{0}`, declared in its .td, as options\n"
      "/// of a pass pipeline: a pipeline's options that derive from this\n"
      "/// struct (and PassPipelineOptions) take them under the pass's names,\n"
      "/// with its descriptions and defaults.\n"
      "struct {1}PipelineOptions : public virtual ::mlir::detail::PassOptions "
      "{{\n",
      pass.getArgument(), name);
  emitOptionMembers(pass.getOptions(), os);
  os << "\n";
  emitGetter(pass, "  ", os);
  os << "};\n";
}

static void checkNoListOption(const llvm::Record &def,
                              ArrayRef<PassOption> options) {
  for (const PassOption &opt : options)
    if (opt.isListOption())
      llvm::PrintFatalError(def.getLoc(), "list options are not supported yet");
}

/// The options of `subset`'s pass that it names, in its order; a name that is
/// not an option of the pass is a fatal error at the record.
static std::vector<PassOption> selectOptions(const llvm::Record &subset,
                                             const Pass &pass) {
  std::vector<PassOption> selected;
  for (StringRef argument : subset.getValueAsListOfStrings("arguments")) {
    auto it = llvm::find_if(pass.getOptions(), [&](const PassOption &opt) {
      return opt.getArgument() == argument;
    });
    if (it == pass.getOptions().end())
      llvm::PrintFatalError(subset.getLoc(), "`" + argument +
                                                 "` is not an option of `" +
                                                 pass.getArgument() + "`");
    selected.push_back(*it);
  }
  return selected;
}

static void emitSubsetPipelineOptions(const llvm::Record &subset,
                                      raw_ostream &os) {
  Pass pass(subset.getValueAsDef("pass"));
  std::vector<PassOption> options = selectOptions(subset, pass);
  checkNoListOption(subset, options);
  StringRef name = subset.getName();
  StringRef passName = pass.getDef()->getName();
  os << llvm::formatv(
      "/// Options of `{0}`, declared in its .td, as options of a pass\n"
      "/// pipeline that forwards them to it (copyTo) and sets the pass's\n"
      "/// other options itself.\n"
      "struct {1} : public virtual ::mlir::detail::PassOptions {{\n",
      pass.getArgument(), name);
  emitOptionMembers(options, os);
  os << llvm::formatv("\n  /// Sets these options in `options`, and no other.\n"
                      "  void copyTo({0}Options &options) const {{\n",
                      passName);
  for (const PassOption &opt : options)
    os << llvm::formatv("    options.{0} = {0}.getValue();\n",
                        opt.getCppVariableName());
  os << "  }\n};\n";
}

static bool emitPassOptions(const llvm::RecordKeeper &records,
                            raw_ostream &os) {
  llvm::emitSourceFileHeader("Pass options for pipelines", os, records);
  for (const llvm::Record *def : records.getAllDerivedDefinitions("PassBase")) {
    Pass pass(def);
    if (pass.getOptions().empty())
      continue;
    checkNoListOption(*def, pass.getOptions());
    std::string upper = def->getName().upper();
    os << "#ifdef GEN_PASS_OPTIONS_GETTER_" << upper << "\n";
    emitGetter(pass, "", os);
    os << "#undef GEN_PASS_OPTIONS_GETTER_" << upper << "\n#endif\n\n";
    os << "#ifdef GEN_PASS_PIPELINE_OPTIONS_" << upper << "\n";
    emitPipelineOptions(pass, os);
    os << "#undef GEN_PASS_PIPELINE_OPTIONS_" << upper << "\n#endif\n\n";
  }
  for (const llvm::Record *subset :
       records.getAllDerivedDefinitions("PassOptionSubset")) {
    std::string upper = subset->getName().upper();
    os << "#ifdef GEN_PASS_PIPELINE_OPTIONS_" << upper << "\n";
    emitSubsetPipelineOptions(*subset, os);
    os << "#undef GEN_PASS_PIPELINE_OPTIONS_" << upper << "\n#endif\n\n";
  }
  return false;
}

static GenRegistration
    genPassOptions("gen-pass-options",
                   "Generate pass option getters and pipeline options",
                   emitPassOptions);
