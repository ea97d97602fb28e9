// The functions gcc's GNU-runtime code calls, answered by the handlers the GNUObjC module
// installs. Modules registered before that (a unit linked into the executable runs its
// constructor before main) wait in a queue.
#include "CObjCGNU.h"

#include <stdio.h>
#include <stdlib.h>

/// The installed handlers, published with release ordering once complete.
static const swk_gnu_handlers *swk_gnu_installed = NULL;

/// Modules registered before the handlers, oldest first. Guarded by the queue lock.
static swk_gnu_module **swk_gnu_pending = NULL;
static size_t swk_gnu_pending_count = 0;
static int swk_gnu_queue_lock = 0;

static void swk_gnu_queue_acquire(void) {
  while (__atomic_exchange_n(&swk_gnu_queue_lock, 1, __ATOMIC_ACQUIRE) != 0) {
    __builtin_ia32_pause();
  }
}

static void swk_gnu_queue_release(void) {
  __atomic_store_n(&swk_gnu_queue_lock, 0, __ATOMIC_RELEASE);
}

static const swk_gnu_handlers *swk_gnu_handlers_now(void) {
  return __atomic_load_n(&swk_gnu_installed, __ATOMIC_ACQUIRE);
}

static void *swk_gnu_answer_nil(void) { return NULL; }

void *swk_gnu_nil_method(void) { return (void *)swk_gnu_answer_nil; }

int swk_gnu_install(const swk_gnu_handlers *handlers) {
  swk_gnu_queue_acquire();
  if (swk_gnu_handlers_now() != NULL) {
    swk_gnu_queue_release();
    return 0;
  }
  __atomic_store_n(&swk_gnu_installed, handlers, __ATOMIC_RELEASE);
  swk_gnu_module **pending = swk_gnu_pending;
  size_t count = swk_gnu_pending_count;
  swk_gnu_pending = NULL;
  swk_gnu_pending_count = 0;
  swk_gnu_queue_release();
  for (size_t index = 0; index < count; index++) {
    handlers->load_module(pending[index]);
  }
  free(pending);
  return 1;
}

/// gcc's constructor for each compiled unit calls this with the unit's module.
void __objc_exec_class(swk_gnu_module *module) {
  if (module == NULL) {
    return;
  }
  swk_gnu_queue_acquire();
  const swk_gnu_handlers *handlers = swk_gnu_handlers_now();
  if (handlers == NULL) {
    swk_gnu_module **grown =
        realloc(swk_gnu_pending, (swk_gnu_pending_count + 1) * sizeof(swk_gnu_module *));
    if (grown == NULL) {
      swk_gnu_queue_release();
      fprintf(stderr, "SwizzleKit: out of memory queueing an Objective-C module\n");
      return;
    }
    swk_gnu_pending = grown;
    swk_gnu_pending[swk_gnu_pending_count++] = module;
    swk_gnu_queue_release();
    return;
  }
  swk_gnu_queue_release();
  handlers->load_module(module);
}

/// A send: the function to call with (receiver, selector, arguments...).
void *objc_msg_lookup(void *receiver, const swk_gnu_selector *selector) {
  const swk_gnu_handlers *handlers = swk_gnu_handlers_now();
  if (receiver == NULL || handlers == NULL) {
    return (void *)swk_gnu_answer_nil;
  }
  return handlers->lookup(receiver, selector);
}

/// `[super ...]`: gcc fills the record with the receiver and the class to start at.
void *objc_msg_lookup_super(const swk_gnu_super *super, const swk_gnu_selector *selector) {
  const swk_gnu_handlers *handlers = swk_gnu_handlers_now();
  if (super == NULL || super->receiver == NULL || super->start_class == NULL
      || handlers == NULL) {
    return (void *)swk_gnu_answer_nil;
  }
  return handlers->lookup_super(super->receiver, super->start_class, selector);
}

static void *swk_gnu_class_named(const char *name, int meta) {
  const swk_gnu_handlers *handlers = swk_gnu_handlers_now();
  if (name == NULL || handlers == NULL) {
    return NULL;
  }
  return handlers->get_class(name, meta);
}

/// A class gcc's code names (`[UIView class]`, `[Foo alloc]`).
void *objc_get_class(const char *name) { return swk_gnu_class_named(name, 0); }

/// The metaclass, for `[super ...]` in a category's class methods.
void *objc_get_meta_class(const char *name) { return swk_gnu_class_named(name, 1); }

/// The same as objc_get_class: both answer NULL for an unknown name (GNU libobjc aborts in
/// objc_get_class; a message on standard error is more use here).
void *objc_lookup_class(const char *name) { return swk_gnu_class_named(name, 0); }

void *objc_getClass(const char *name) { return swk_gnu_class_named(name, 0); }

void *objc_lookUpClass(const char *name) { return swk_gnu_class_named(name, 0); }

void *objc_getMetaClass(const char *name) { return swk_gnu_class_named(name, 1); }
