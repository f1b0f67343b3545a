/*===- Dialects.h - C API of the embbag dialect -------------------*- C -*-===*\
|*                                                                            *|
|* The embbag dialect for C clients: a dialect handle to insert into an       *|
|* MlirDialectRegistry or load into an MlirContext.                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef EMBBAG_C_DIALECTS_H
#define EMBBAG_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Declares mlirGetDialectHandle__embbag__(). */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(EmbBag, embbag);

#ifdef __cplusplus
}
#endif

#endif /* EMBBAG_C_DIALECTS_H */
