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

static const swk_gnu_handlers *swk_gnu_handlers_now(void) {
  return __atomic_load_n(&swk_gnu_installed, __ATOMIC_ACQUIRE);
}

static void *swk_gnu_answer_nil(void) { return NULL; }

void *swk_gnu_nil_method(void) { return (void *)swk_gnu_answer_nil; }

static double swk_gnu_answer_floating_zero(void) { return 0; }

void *swk_gnu_nil_floating_method(void) { return (void *)swk_gnu_answer_floating_zero; }

int swk_gnu_install(const swk_gnu_handlers *handlers) {
  swk_gnu_spin_lock(&swk_gnu_queue_lock);
  if (swk_gnu_handlers_now() != NULL) {
    swk_gnu_spin_unlock(&swk_gnu_queue_lock);
    return 0;
  }
  __atomic_store_n(&swk_gnu_installed, handlers, __ATOMIC_RELEASE);
  swk_gnu_module **pending = swk_gnu_pending;
  size_t count = swk_gnu_pending_count;
  swk_gnu_pending = NULL;
  swk_gnu_pending_count = 0;
  swk_gnu_spin_unlock(&swk_gnu_queue_lock);
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
  swk_gnu_spin_lock(&swk_gnu_queue_lock);
  const swk_gnu_handlers *handlers = swk_gnu_handlers_now();
  if (handlers == NULL) {
    swk_gnu_module **grown =
        realloc(swk_gnu_pending, (swk_gnu_pending_count + 1) * sizeof(swk_gnu_module *));
    if (grown == NULL) {
      swk_gnu_spin_unlock(&swk_gnu_queue_lock);
      fprintf(stderr, "SwizzleKit: out of memory queueing an Objective-C module\n");
      return;
    }
    swk_gnu_pending = grown;
    swk_gnu_pending[swk_gnu_pending_count++] = module;
    swk_gnu_spin_unlock(&swk_gnu_queue_lock);
    return;
  }
  swk_gnu_spin_unlock(&swk_gnu_queue_lock);
  handlers->load_module(module);
}

// MARK: - The send cache
//
// A direct-mapped table of the functions sends found, keyed by the receiver's class and gcc's
// selector reference, tagged with the runtime's flush count when they were looked up: a flush
// (a method added, a category attached, a class changed) makes every entry stale at once. Each
// entry is a seqlock: a writer (under the cache's lock) makes the sequence odd, writes, makes it
// even; a reader takes the entry only if the sequence was even and the same before and after it
// read the fields. Nothing is allocated or freed.

#define SWK_GNU_SEND_CACHE_SLOTS 4096

typedef struct swk_gnu_send_entry {
  uintptr_t sequence;
  uintptr_t cls;
  const void *reference;
  uintptr_t generation;
  void *function;
} swk_gnu_send_entry;

static swk_gnu_send_entry swk_gnu_send_cache[SWK_GNU_SEND_CACHE_SLOTS];
static const uintptr_t *swk_gnu_generation = NULL;
static int swk_gnu_send_cache_lock = 0;

void swk_gnu_enable_send_cache(const uintptr_t *generation) {
  __atomic_store_n(&swk_gnu_generation, generation, __ATOMIC_RELEASE);
}

/// The slot of a class and a reference: the top bits of a multiplicative hash of both.
static inline swk_gnu_send_entry *swk_gnu_send_slot(uintptr_t cls, const void *reference) {
  uint64_t mix = ((uint64_t)cls ^ ((uint64_t)(uintptr_t)reference << 16))
                 * UINT64_C(0x9E3779B97F4A7C15);
  return &swk_gnu_send_cache[mix >> (64 - 12)];
}

static void swk_gnu_send_remember(swk_gnu_send_entry *entry, uintptr_t cls, const void *reference,
                                  uintptr_t generation, void *function) {
  swk_gnu_spin_lock(&swk_gnu_send_cache_lock);
  uintptr_t sequence = __atomic_load_n(&entry->sequence, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->sequence, sequence + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  __atomic_store_n(&entry->cls, cls, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->reference, reference, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->generation, generation, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->function, function, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->sequence, sequence + 2, __ATOMIC_RELEASE);
  swk_gnu_spin_unlock(&swk_gnu_send_cache_lock);
}

/// A send the cache did not answer: the handler looks it up, and the answer is kept when it may
/// be. Out of line, so that the cache's hit saves no register and builds no frame.
__attribute__((noinline)) static void *swk_gnu_lookup_slow(void *receiver,
                                                           const swk_gnu_selector *selector) {
  const swk_gnu_handlers *handlers = swk_gnu_handlers_now();
  if (receiver == NULL || handlers == NULL) {
    return (void *)swk_gnu_answer_nil;
  }
  const uintptr_t *generation_word = __atomic_load_n(&swk_gnu_generation, __ATOMIC_ACQUIRE);
  // The generation first: an answer looked up after it was read is at least that fresh.
  uintptr_t generation =
      generation_word != NULL ? __atomic_load_n(generation_word, __ATOMIC_ACQUIRE) : 0;
  // The class too, before: a class changed meanwhile (object_setClass flushes nothing) must not
  // get the other class's answer.
  const uintptr_t *isa = (const uintptr_t *)((const char *)receiver + SWK_GNU_ISA_OFFSET);
  uintptr_t cls = generation_word != NULL ? __atomic_load_n(isa, __ATOMIC_ACQUIRE) : 0;
  int cacheable = 0;
  void *function = handlers->lookup(receiver, selector, &cacheable);
  if (cacheable && generation_word != NULL && __atomic_load_n(isa, __ATOMIC_ACQUIRE) == cls) {
    swk_gnu_send_remember(swk_gnu_send_slot(cls, selector), cls, selector, generation, function);
  }
  return function;
}

/// A send: the function to call with (receiver, selector, arguments...).
void *objc_msg_lookup(void *receiver, const swk_gnu_selector *selector) {
  // A nil receiver has no isa to read: the slow path answers it. The generation word is NULL
  // until the cache is enabled, and the object's isa is then the word SWK_GNU_ISA_OFFSET in.
  const uintptr_t *generation_word = __atomic_load_n(&swk_gnu_generation, __ATOMIC_ACQUIRE);
  if (__builtin_expect(((uintptr_t)receiver != 0) & ((uintptr_t)generation_word != 0), 1)) {
    uintptr_t generation = __atomic_load_n(generation_word, __ATOMIC_ACQUIRE);
    uintptr_t cls = __atomic_load_n(
        (const uintptr_t *)((const char *)receiver + SWK_GNU_ISA_OFFSET), __ATOMIC_ACQUIRE);
    swk_gnu_send_entry *entry = swk_gnu_send_slot(cls, selector);
    uintptr_t sequence = __atomic_load_n(&entry->sequence, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&entry->cls, __ATOMIC_RELAXED) == cls
        && __atomic_load_n(&entry->reference, __ATOMIC_RELAXED) == selector
        && __atomic_load_n(&entry->generation, __ATOMIC_RELAXED) == generation) {
      void *function = __atomic_load_n(&entry->function, __ATOMIC_RELAXED);
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      // The fields belong together only if no writer was in the entry meanwhile.
      if (__atomic_load_n(&entry->sequence, __ATOMIC_RELAXED) == sequence && (sequence & 1) == 0) {
        return function;
      }
    }
  }
  return swk_gnu_lookup_slow(receiver, selector);
}

/// `[super ...]`: gcc fills the record with the receiver and the class to start at. Not cached:
/// super sends are rare, and their answer depends on the class to start at.
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

/// The same as objc_get_class: both answer NULL for an unknown name, as objc4's objc_getClass
/// does (GNU libobjc aborts in objc_get_class); a message sent to it then answers zero.
void *objc_lookup_class(const char *name) { return swk_gnu_class_named(name, 0); }

void *objc_getClass(const char *name) { return swk_gnu_class_named(name, 0); }

void *objc_lookUpClass(const char *name) { return swk_gnu_class_named(name, 0); }

void *objc_getMetaClass(const char *name) { return swk_gnu_class_named(name, 1); }
