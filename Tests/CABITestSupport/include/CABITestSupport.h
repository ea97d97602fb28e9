// C functions with the signatures the ABI tests cover, in IMP shape (self, _cmd, arguments...),
// and callers that call a function pointer of each shape with fixed arguments from C.
#ifndef CABI_TEST_SUPPORT_H
#define CABI_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct { double a, b, c, d; } ABIDouble4;           // passed in memory
typedef struct { float x, y; } ABIFloat2;                    // one vector register
typedef struct { char c; double d; int i; } ABIMixed;       // mixed classes
typedef struct { ABIFloat2 inner; double z; } ABINested;    // nested
typedef struct { double a, b, c, d, tx, ty; } ABIAffine;    // an affine transform
typedef struct { int32_t low, high; } ABISmall;             // a small struct returned in a register

int64_t abi_extend(void *self, void *cmd, int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e,
                   uint32_t f);
int8_t abi_narrow_signed(void *self, void *cmd, int64_t value);
uint16_t abi_narrow_unsigned(void *self, void *cmd, int64_t value);
int64_t abi_ten_integers(void *self, void *cmd, int64_t a, int64_t b, int64_t c, int64_t d,
                         int64_t e, int64_t f, int64_t g, int64_t h, int64_t i, int64_t j);
double abi_ten_doubles(void *self, void *cmd, double a, double b, double c, double d, double e,
                       double f, double g, double h, double i, double j);
double abi_mix(void *self, void *cmd, int8_t a, double b, uint16_t c, float d, int32_t e, double f,
               uint64_t g, float h, bool i, double j);
bool abi_not(void *self, void *cmd, bool value);
float abi_half(void *self, void *cmd, float value);
ABIDouble4 abi_scale4(void *self, void *cmd, ABIDouble4 value, double factor);
ABIFloat2 abi_swap2(void *self, void *cmd, ABIFloat2 value);
ABIMixed abi_mixed(void *self, void *cmd, ABIMixed value, int8_t delta);
ABINested abi_nested(void *self, void *cmd, ABINested value);
ABIAffine abi_concat(void *self, void *cmd, ABIAffine first, ABIAffine second);
ABISmall abi_small(void *self, void *cmd, int32_t low, int32_t high);

// Callers: each calls `function` (of the shape above) with the same fixed arguments as
// the tests use, so a closure IMP can be called from C.
int64_t abi_call_extend(const void *function, void *self, void *cmd);
double abi_call_mix(const void *function, void *self, void *cmd);
int64_t abi_call_ten_integers(const void *function, void *self, void *cmd);
ABIDouble4 abi_call_scale4(const void *function, void *self, void *cmd);
ABIMixed abi_call_mixed(const void *function, void *self, void *cmd);
ABIAffine abi_call_concat(const void *function, void *self, void *cmd);
ABISmall abi_call_small(const void *function, void *self, void *cmd);
ABIFloat2 abi_call_swap2(const void *function, void *self, void *cmd);

#endif
