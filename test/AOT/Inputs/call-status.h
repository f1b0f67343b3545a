// CALL(f, ...) for the C harnesses of the GPU libraries: the status a
// --checks=status function returns; built with -DVOID_RESULT for
// --checks=abort (or off), whose functions return nothing, it calls and
// gives 0.

#ifndef EMBBAG_TEST_AOT_INPUTS_CALL_STATUS_H
#define EMBBAG_TEST_AOT_INPUTS_CALL_STATUS_H

#ifdef VOID_RESULT
#define CALL(f, ...) (f(__VA_ARGS__), 0)
#else
#define CALL(f, ...) f(__VA_ARGS__)
#endif

#endif // EMBBAG_TEST_AOT_INPUTS_CALL_STATUS_H
