// The runtime's C functions under their C names, for gcc's code: each calls the Swift function
// GNUObjC installed (see CObjCGNU.h), or answers zero before it did.
#include "CObjCGNU.h"

static const swk_gnu_runtime_functions *swk_gnu_functions = NULL;

void swk_gnu_install_runtime_functions(const swk_gnu_runtime_functions *functions) {
  const swk_gnu_runtime_functions *none = NULL;
  __atomic_compare_exchange_n(&swk_gnu_functions, &none, functions, 0, __ATOMIC_RELEASE,
                              __ATOMIC_RELAXED);
}

static const swk_gnu_runtime_functions *swk_gnu_now(void) {
  return __atomic_load_n(&swk_gnu_functions, __ATOMIC_ACQUIRE);
}

void *class_getInstanceMethod(void *cls, const void *sel) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->class_getInstanceMethod(cls, sel) : NULL;
}

void *class_getClassMethod(void *cls, const void *sel) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->class_getClassMethod(cls, sel) : NULL;
}

void method_exchangeImplementations(void *first, void *second) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  if (functions == NULL) return;
  functions->method_exchangeImplementations(first, second, __builtin_return_address(0));
}

void *method_getImplementation(void *method) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->method_getImplementation(method) : NULL;
}

void *method_setImplementation(void *method, void *imp) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  if (functions == NULL) return NULL;
  return functions->method_setImplementation(method, imp, __builtin_return_address(0));
}

const void *method_getName(void *method) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->method_getName(method) : NULL;
}

const char *method_getTypeEncoding(void *method) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->method_getTypeEncoding(method) : NULL;
}

_Bool class_addMethod(void *cls, const void *sel, void *imp, const char *types) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  if (functions == NULL) return 0;
  return functions->class_addMethod(cls, sel, imp, types, __builtin_return_address(0));
}

void *class_replaceMethod(void *cls, const void *sel, void *imp, const char *types) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  if (functions == NULL) return NULL;
  return functions->class_replaceMethod(cls, sel, imp, types, __builtin_return_address(0));
}

void *class_getMethodImplementation(void *cls, const void *sel) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->class_getMethodImplementation(cls, sel) : NULL;
}

_Bool class_respondsToSelector(void *cls, const void *sel) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->class_respondsToSelector(cls, sel) : 0;
}

const char *class_getName(void *cls) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->class_getName(cls) : NULL;
}

void *class_getSuperclass(void *cls) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->class_getSuperclass(cls) : NULL;
}

_Bool class_isMetaClass(void *cls) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->class_isMetaClass(cls) : 0;
}

void *object_getClass(void *object) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->object_getClass(object) : NULL;
}

const char *object_getClassName(void *object) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->object_getClassName(object) : NULL;
}

void *object_setClass(void *object, void *cls) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->object_setClass(object, cls) : NULL;
}

const char *sel_getName(const void *sel) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->sel_getName(sel) : NULL;
}

const void *sel_registerName(const char *name) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->sel_registerName(name) : NULL;
}

const void *sel_getUid(const char *name) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->sel_getUid(name) : NULL;
}

_Bool sel_isEqual(const void *first, const void *second) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->sel_isEqual(first, second) : 0;
}

void objc_setAssociatedObject(void *object, const void *key, void *value, uintptr_t policy) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  if (functions != NULL) functions->objc_setAssociatedObject(object, key, value, policy);
}

void *objc_getAssociatedObject(void *object, const void *key) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  return functions != NULL ? functions->objc_getAssociatedObject(object, key) : NULL;
}

void objc_removeAssociatedObjects(void *object) {
  const swk_gnu_runtime_functions *functions = swk_gnu_now();
  if (functions != NULL) functions->objc_removeAssociatedObjects(object);
}
