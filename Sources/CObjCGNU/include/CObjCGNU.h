// The GNU Objective-C runtime's ABI (module version 8, what gcc's `-fgnu-runtime` emits), as
// SwizzleKit answers it: the records gcc lays out in a compiled file, the entry points its code
// calls (`__objc_exec_class`, `objc_msg_lookup`...), and the stubs that give a method `_cmd` as
// SwizzleKit's selector. Only the GNUObjC module imports it.
//
// The layouts are facts of the ABI, written here from what gcc emits (`objdump` of a compiled
// `.m`) and from the names GNU libobjc gives them; see Docs/ObjectiveC.md.
#ifndef COBJCGNU_H
#define COBJCGNU_H

#include <stddef.h>
#include <stdint.h>

/// Takes a spinlock (an int, 0 when free): the module queue, the send cache's writers and the
/// stubs each hold one for a few stores. The wait pauses with the x86 hint, spins elsewhere.
static inline void swk_gnu_spin_lock(int *lock) {
  while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE) != 0) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

static inline void swk_gnu_spin_unlock(int *lock) { __atomic_store_n(lock, 0, __ATOMIC_RELEASE); }

// MARK: - What gcc lays out

/// A selector reference in a module's selector table: gcc passes its address as `_cmd` and as
/// `@selector(x)`. The compiler writes the name in `sel_id`; the loader replaces it with
/// SwizzleKit's selector (the address of its interned name). The table ends with a zeroed entry.
typedef struct swk_gnu_selector {
  const void *sel_id;
  const char *sel_types;
} swk_gnu_selector;

/// One method of a class or category: the name (a C string, as gcc writes it), the type
/// encoding and the function.
typedef struct swk_gnu_method {
  const char *name;
  const char *types;
  void *imp;
} swk_gnu_method;

typedef struct swk_gnu_method_list {
  struct swk_gnu_method_list *next;
  int count;
  swk_gnu_method methods[];
} swk_gnu_method_list;

typedef struct swk_gnu_ivar {
  const char *name;
  const char *type;
  int offset;
} swk_gnu_ivar;

typedef struct swk_gnu_ivar_list {
  int count;
  swk_gnu_ivar ivars[];
} swk_gnu_ivar_list;

/// A class as gcc lays it out: `isa` points at the metaclass's record and `super_class` holds
/// the superclass's name until the loader writes SwizzleKit's class there (gcc's super sends in
/// a class's own methods read it).
typedef struct swk_gnu_class {
  struct swk_gnu_class *isa;
  const void *super_class;
  const char *name;
  long version;
  unsigned long info;
  long instance_size;
  swk_gnu_ivar_list *ivars;
  swk_gnu_method_list *methods;
  void *dtable;
  void *subclass_list;
  void *sibling_class;
  void *protocols;
  void *gc_object_type;
} swk_gnu_class;

typedef struct swk_gnu_category {
  const char *category_name;
  const char *class_name;
  swk_gnu_method_list *instance_methods;
  swk_gnu_method_list *class_methods;
  void *protocols;
} swk_gnu_category;

/// The statically allocated instances of one class in a module (gcc's `@"..."` literals): the
/// class's name, then the instances, NULL-terminated.
typedef struct swk_gnu_static_instances {
  const char *class_name;
  void *instances[];
} swk_gnu_static_instances;

typedef struct swk_gnu_symtab {
  unsigned long sel_ref_cnt;
  swk_gnu_selector *refs;
  unsigned short cls_def_cnt;
  unsigned short cat_def_cnt;
  /// cls_def_cnt classes, cat_def_cnt categories, then the address of a NULL-terminated array
  /// of swk_gnu_static_instances pointers (NULL when the module has no static instances).
  void *defs[];
} swk_gnu_symtab;

/// The root of one compilation unit, passed to `__objc_exec_class` by the unit's constructor.
typedef struct swk_gnu_module {
  unsigned long version;
  unsigned long size;
  const char *name;
  swk_gnu_symtab *symtab;
} swk_gnu_module;

// Swift does not import flexible array members: these read them.

static inline void *swk_gnu_symtab_def(const swk_gnu_symtab *symtab, size_t index) {
  return symtab->defs[index];
}

static inline swk_gnu_method *swk_gnu_method_at(swk_gnu_method_list *list, size_t index) {
  return &list->methods[index];
}

static inline const swk_gnu_ivar *swk_gnu_ivar_at(const swk_gnu_ivar_list *list, size_t index) {
  return &list->ivars[index];
}

static inline void *swk_gnu_static_instance_at(const swk_gnu_static_instances *list,
                                               size_t index) {
  return list->instances[index];
}

/// The ABI version this loader reads.
#define SWK_GNU_ABI_VERSION 8

/// gcc's `struct objc_super` for `[super ...]`: the receiver and the class to start at.
typedef struct swk_gnu_super {
  void *receiver;
  void *start_class;
} swk_gnu_super;

// MARK: - The handlers SwizzleKit installs

/// What the entry points call into. Installed once by the GNUObjC module; until then modules
/// wait in a queue and sends answer nil.
typedef struct swk_gnu_handlers {
  /// A module gcc registered (its constructor ran).
  void (*load_module)(swk_gnu_module *module);
  /// The function a send of `selector` to `receiver` calls (never NULL): `selector` is what gcc
  /// passed, a reference into some module's selector table. `*cacheable` is set to 1 when the
  /// answer may be kept for the receiver's class and this reference until the runtime's next
  /// cache flush (a method was found; its stub follows exchanges by itself).
  void *(*lookup)(void *receiver, const swk_gnu_selector *selector, int *cacheable);
  /// The same for `[super ...]`: the lookup starts at `start_class`.
  void *(*lookup_super)(void *receiver, void *start_class, const swk_gnu_selector *selector);
  /// The class (or metaclass) named `name`, or NULL.
  void *(*get_class)(const char *name, int meta);
} swk_gnu_handlers;

/// Installs the handlers (once; later calls are ignored) and hands them every module registered
/// before. Returns 1 when these handlers were installed, 0 when others already were.
int swk_gnu_install(const swk_gnu_handlers *handlers);

/// Where an object of SwizzleKit's keeps its class: `ObjCObject`'s first stored property, after
/// Swift's two header words. GNUObjC checks it before it enables the send cache.
#define SWK_GNU_ISA_OFFSET (2 * sizeof(void *))

/// SWK_GNU_ISA_OFFSET, for Swift (which imports no macro computed with sizeof).
static inline size_t swk_gnu_isa_offset(void) { return SWK_GNU_ISA_OFFSET; }

/// Turns on the send cache of `objc_msg_lookup`: the answers of `lookup` that it may keep, by the
/// receiver's class (the word at SWK_GNU_ISA_OFFSET) and gcc's selector reference, valid while
/// the word at `generation` (the runtime's flush count) is unchanged. Until then, every send
/// asks `lookup`.
void swk_gnu_enable_send_cache(const uintptr_t *generation);

/// The function a send to nil calls: it returns zero (in the integer register).
void *swk_gnu_nil_method(void);

/// A function that returns a floating-point zero, for a send whose result is a float or double.
void *swk_gnu_nil_floating_method(void);

/// The path of the loaded image (library or executable) that holds `address`, or NULL; its
/// load address goes to `base` when that is not NULL.
const char *swk_gnu_image_path(const void *address, const void **base);

/// Keeps the library that holds `address` loaded for the rest of the process (RTLD_NODELETE):
/// the runtime keeps its methods, selectors and constant strings. Returns whether it did.
int swk_gnu_pin_image(const void *address);

/// Whether the image that holds `address` names a library whose name starts with `prefix` among
/// the libraries it needs (DT_NEEDED): a file linked with GNU libobjc needs `libobjc.so`.
int swk_gnu_image_needs(const void *address, const char *prefix);

/// Runs `arguments` (NULL-terminated; the program found on PATH) and waits for it: its standard
/// output and error, together, go to `*output` (malloc'ed, the caller frees it; NULL when it
/// could not be read), its exit status to `*status` (128 + the signal when a signal ended it).
/// Returns 0, or the error that kept the program from starting.
int swk_gnu_run(char *const arguments[], char **output, int *status);

// MARK: - `_cmd` stubs
//
// gcc's code calls the function `objc_msg_lookup` returned with the selector reference it
// passed, not with SwizzleKit's selector. A stub sits in between: it replaces the reference by
// the selector it holds (`mov rsi, [rsi]`; `rdx` for a method that returns a struct in memory,
// whose hidden result pointer comes first), then jumps to the method's current implementation,
// read from the word the runtime keeps it in (so an exchange needs no new stub), or to the
// forwarding function when the word is zero. Code pages are written once and then made
// read-execute; their data lives in the page after each, as the runtime's closure stubs do.

/// Makes a stub for a method whose current implementation is the word at `imp_word` (zero: no
/// implementation, jump to `forward`). `struct_return` selects the register the selector is in.
/// Returns NULL when executable memory cannot be had (or off x86-64).
void *swk_gnu_cmd_stub_make(const void *imp_word, const void *forward, int struct_return);

/// The stub for the method whose implementation word is at `imp_word`, of that kind: made on the
/// first call, then found without a lock (one stub per method and kind, kept for the process).
/// NULL as swk_gnu_cmd_stub_make.
void *swk_gnu_cmd_stub_for(const void *imp_word, const void *forward, int struct_return);

/// The stub already made for `imp_word` and that kind, or NULL; lock-free.
void *swk_gnu_cmd_stub_find(const void *imp_word, int struct_return);


// MARK: - The runtime's C functions
//
// gcc's code calls the runtime by its C names (`<objc/runtime.h>`). These symbols are defined
// in C (Swift reserves the names) and call the Swift functions GNUObjC installs; before that
// they answer zero. The functions that change a method table also get their caller's address,
// by which the trace names the library (and so the file) that made the change.

typedef struct swk_gnu_runtime_functions {
  void * (*class_getInstanceMethod)(void *cls, const void *sel);
  void * (*class_getClassMethod)(void *cls, const void *sel);
  void (*method_exchangeImplementations)(void *first, void *second, const void *caller);
  void * (*method_getImplementation)(void *method);
  void * (*method_setImplementation)(void *method, void *imp, const void *caller);
  const void * (*method_getName)(void *method);
  const char * (*method_getTypeEncoding)(void *method);
  _Bool (*class_addMethod)(void *cls, const void *sel, void *imp, const char *types,
                           const void *caller);
  void * (*class_replaceMethod)(void *cls, const void *sel, void *imp, const char *types,
                                const void *caller);
  void * (*class_getMethodImplementation)(void *cls, const void *sel);
  _Bool (*class_respondsToSelector)(void *cls, const void *sel);
  const char * (*class_getName)(void *cls);
  void * (*class_getSuperclass)(void *cls);
  _Bool (*class_isMetaClass)(void *cls);
  void * (*object_getClass)(void *object);
  const char * (*object_getClassName)(void *object);
  void * (*object_setClass)(void *object, void *cls);
  const char * (*sel_getName)(const void *sel);
  const void * (*sel_registerName)(const char *name);
  const void * (*sel_getUid)(const char *name);
  _Bool (*sel_isEqual)(const void *first, const void *second);
  void (*objc_setAssociatedObject)(void *object, const void *key, void *value, uintptr_t policy);
  void * (*objc_getAssociatedObject)(void *object, const void *key);
  void (*objc_removeAssociatedObjects)(void *object);
} swk_gnu_runtime_functions;

/// Installs the functions (once; later calls are ignored).
void swk_gnu_install_runtime_functions(const swk_gnu_runtime_functions *functions);

#endif
