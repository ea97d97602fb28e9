// The C side of the ABI coverage tests.
#include "CABITestSupport.h"

int64_t abi_extend(void *self, void *cmd, int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e,
                   uint32_t f) {
  (void)self, (void)cmd;
  return (int64_t)a + (int64_t)b + (int64_t)c + (int64_t)d + (int64_t)e + (int64_t)f;
}

int8_t abi_narrow_signed(void *self, void *cmd, int64_t value) {
  (void)self, (void)cmd;
  return (int8_t)value;
}

uint16_t abi_narrow_unsigned(void *self, void *cmd, int64_t value) {
  (void)self, (void)cmd;
  return (uint16_t)value;
}

int64_t abi_ten_integers(void *self, void *cmd, int64_t a, int64_t b, int64_t c, int64_t d,
                         int64_t e, int64_t f, int64_t g, int64_t h, int64_t i, int64_t j) {
  (void)self, (void)cmd;
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}

double abi_ten_doubles(void *self, void *cmd, double a, double b, double c, double d, double e,
                       double f, double g, double h, double i, double j) {
  (void)self, (void)cmd;
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}

double abi_mix(void *self, void *cmd, int8_t a, double b, uint16_t c, float d, int32_t e, double f,
               uint64_t g, float h, bool i, double j) {
  (void)self, (void)cmd;
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * (double)g + 8 * h + (i ? 9 : 0) + 10 * j;
}

bool abi_not(void *self, void *cmd, bool value) {
  (void)self, (void)cmd;
  return !value;
}

float abi_half(void *self, void *cmd, float value) {
  (void)self, (void)cmd;
  return value / 2;
}

ABIDouble4 abi_scale4(void *self, void *cmd, ABIDouble4 value, double factor) {
  (void)self, (void)cmd;
  ABIDouble4 result = {value.a * factor, value.b * factor, value.c * factor, value.d * factor};
  return result;
}

ABIFloat2 abi_swap2(void *self, void *cmd, ABIFloat2 value) {
  (void)self, (void)cmd;
  ABIFloat2 result = {value.y, value.x};
  return result;
}

ABIMixed abi_mixed(void *self, void *cmd, ABIMixed value, int8_t delta) {
  (void)self, (void)cmd;
  ABIMixed result = {(char)(value.c + delta), value.d * 2, value.i + delta};
  return result;
}

ABINested abi_nested(void *self, void *cmd, ABINested value) {
  (void)self, (void)cmd;
  ABINested result = {{value.inner.y, value.inner.x}, value.z + 1};
  return result;
}

ABIAffine abi_concat(void *self, void *cmd, ABIAffine t1, ABIAffine t2) {
  (void)self, (void)cmd;
  ABIAffine r = {
      t1.a * t2.a + t1.b * t2.c,           t1.a * t2.b + t1.b * t2.d,
      t1.c * t2.a + t1.d * t2.c,           t1.c * t2.b + t1.d * t2.d,
      t1.tx * t2.a + t1.ty * t2.c + t2.tx, t1.tx * t2.b + t1.ty * t2.d + t2.ty,
  };
  return r;
}

ABISmall abi_small(void *self, void *cmd, int32_t low, int32_t high) {
  (void)self, (void)cmd;
  ABISmall result = {low, high};
  return result;
}

int64_t abi_call_extend(const void *function, void *self, void *cmd) {
  int64_t (*f)(void *, void *, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t) =
      (int64_t (*)(void *, void *, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t))function;
  return f(self, cmd, -100, 200, -30000, 60000, -2000000000, 4000000000u);
}

double abi_call_mix(const void *function, void *self, void *cmd) {
  double (*f)(void *, void *, int8_t, double, uint16_t, float, int32_t, double, uint64_t, float,
              bool, double) =
      (double (*)(void *, void *, int8_t, double, uint16_t, float, int32_t, double, uint64_t,
                  float, bool, double))function;
  return f(self, cmd, -5, 1.5, 65000, 2.25f, -70000, 3.5, 1ull << 40, 0.125f, true, -4.75);
}

int64_t abi_call_ten_integers(const void *function, void *self, void *cmd) {
  int64_t (*f)(void *, void *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
               int64_t, int64_t, int64_t) =
      (int64_t (*)(void *, void *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                   int64_t, int64_t, int64_t))function;
  return f(self, cmd, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10);
}

ABIDouble4 abi_call_scale4(const void *function, void *self, void *cmd) {
  ABIDouble4 (*f)(void *, void *, ABIDouble4, double) =
      (ABIDouble4 (*)(void *, void *, ABIDouble4, double))function;
  ABIDouble4 value = {1, 2, 3, 4};
  return f(self, cmd, value, 2.5);
}

ABIMixed abi_call_mixed(const void *function, void *self, void *cmd) {
  ABIMixed (*f)(void *, void *, ABIMixed, int8_t) =
      (ABIMixed (*)(void *, void *, ABIMixed, int8_t))function;
  ABIMixed value = {'a', 1.25, 40};
  return f(self, cmd, value, 2);
}

ABIAffine abi_call_concat(const void *function, void *self, void *cmd) {
  ABIAffine (*f)(void *, void *, ABIAffine, ABIAffine) =
      (ABIAffine (*)(void *, void *, ABIAffine, ABIAffine))function;
  ABIAffine scale = {2, 0, 0, 3, 0, 0};
  ABIAffine translate = {1, 0, 0, 1, 10, 20};
  return f(self, cmd, scale, translate);
}

ABISmall abi_call_small(const void *function, void *self, void *cmd) {
  ABISmall (*f)(void *, void *, int32_t, int32_t) =
      (ABISmall (*)(void *, void *, int32_t, int32_t))function;
  return f(self, cmd, -7, 9);
}

ABIFloat2 abi_call_swap2(const void *function, void *self, void *cmd) {
  ABIFloat2 (*f)(void *, void *, ABIFloat2) = (ABIFloat2 (*)(void *, void *, ABIFloat2))function;
  ABIFloat2 value = {1.5f, -2.5f};
  return f(self, cmd, value);
}
