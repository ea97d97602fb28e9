// The C half of SwizzleKit's runtime: the method cache, the locks and the closure trampolines.
// Only ObjCRuntime imports it, and does not re-export it: no swk_* function is visible to a client
// of ObjCRuntime (the types IMPs are written with, `id` and `SEL`, are in CObjCTypes, which is).
#ifndef COBJCRUNTIME_H
#define COBJCRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include <CObjCTypes.h>

// MARK: - The method cache
//
// One cache per class maps a selector to the `Method` the lookup found (not to an IMP: the send
// reads the IMP from the Method, so `method_setImplementation` and
// `method_exchangeImplementations` never have to flush anything). The class holds the address of
// its current buffer in an atomic word (Swift's `Atomic`), which readers load with acquire
// ordering and writers store with release ordering.
//
// Readers take no lock. Writers are serialized by the runtime lock and follow three rules:
// 1. an entry is filled by storing its value before its key (release), so a reader that sees
//    the key sees the value;
// 2. a full buffer is never rehashed in place: a larger one is built and published;
// 3. a flush publishes the shared empty buffer instead of clearing the old one.
// A buffer that has been replaced may still be read by a send already in flight, so it is never
// freed: it goes to a retired list. objc4 frees its garbage once no thread's program counter is
// inside objc_msgSend; without that knowledge we keep it (see Docs/Architecture.md).

typedef struct swk_cache_entry {
  const void *key;    // the selector; NULL marks an empty slot
  const void *value;  // the Method, unretained (Methods live as long as the runtime)
} swk_cache_entry;

typedef struct swk_cache_buffer {
  uintptr_t mask;                   // capacity - 1; capacity is a power of two
  uintptr_t occupied;               // written only under the runtime lock
  struct swk_cache_buffer *retired_next;
  swk_cache_entry entries[];
} swk_cache_buffer;

/// The buffer every empty cache points at: capacity 1, one entry whose NULL key makes every
/// probe miss at once. Never written, never retired.
const swk_cache_buffer *swk_cache_empty_buffer(void);

/// The slot a selector starts probing at. Selector names start on 16-byte boundaries (the
/// selector table's arena aligns them as malloc would), so their low four bits carry no
/// information.
static inline uintptr_t swk_cache_hash(const void *key, uintptr_t mask) {
  uintptr_t bits = (uintptr_t)key;
  return ((bits >> 4) ^ (bits >> 13)) & mask;
}

/// Returns the value cached for `key` in `buffer`, or NULL. Lock-free; safe against a concurrent
/// writer. The caller loads `buffer` with acquire ordering.
static inline const void *swk_cache_lookup(const swk_cache_buffer *buffer, const void *key) {
  uintptr_t mask = buffer->mask;
  uintptr_t index = swk_cache_hash(key, mask);
  for (;;) {
    const void *found = __atomic_load_n(&buffer->entries[index].key, __ATOMIC_ACQUIRE);
    if (__builtin_expect(found == key, 1)) {
      const void *value = __atomic_load_n(&buffer->entries[index].value, __ATOMIC_RELAXED);
      // A slot's value is written before its key is published, and never NULL: telling the
      // compiler lets the caller's "was it a miss?" test vanish from the hit path.
      __builtin_assume(value != NULL);
      return value;
    }
    if (found == NULL) {
      return NULL;
    }
    index = (index + 1) & mask;
  }
}

/// Records `key -> value` and returns the buffer to publish: `buffer` itself when it had room,
/// or a larger copy (and `buffer` is retired). Returns NULL when a larger buffer could not be
/// allocated; the cache then stays as it was, and a later miss is harmless. Call with the runtime
/// lock held.
swk_cache_buffer *swk_cache_insert(const swk_cache_buffer *buffer, const void *key, const void *value);

/// Retires a buffer that was just replaced by the empty one. Returns 1 when it held entries, 0
/// when it was the empty buffer. Call with the runtime lock held.
int swk_cache_retire(const swk_cache_buffer *buffer);


// MARK: - The runtime's lock
//
// A futex-based mutex (Drepper's three-state design): 0 unlocked, 1 locked, 2 locked with
// waiters. It lives here rather than in Swift's Synchronization.Mutex for one reason: the
// standard library is not built with ThreadSanitizer, so TSan cannot see Mutex's
// synchronization and reports every access it guards as a race. These atomics are compiled into
// this module, instrumented like the rest of it.

typedef struct swk_lock {
  uint32_t state;
} swk_lock;

/// The calling thread's identity, for the internal checks' record of which thread holds a lock.
static inline uintptr_t swk_thread_id(void) { return (uintptr_t)__builtin_thread_pointer(); }

void swk_lock_wait(swk_lock *lock);
void swk_lock_wake(swk_lock *lock);

static inline void swk_lock_acquire(swk_lock *lock) {
  uint32_t expected = 0;
  if (__builtin_expect(__atomic_compare_exchange_n(&lock->state, &expected, 1, 0, __ATOMIC_ACQUIRE,
                                                   __ATOMIC_RELAXED),
                       1)) {
    return;
  }
  swk_lock_wait(lock);
}

static inline void swk_lock_release(swk_lock *lock) {
  if (__builtin_expect(__atomic_exchange_n(&lock->state, 0, __ATOMIC_RELEASE) == 1, 1)) {
    return;
  }
  swk_lock_wake(lock);
}

/// The lock of the association store (objc4's AssociationsManager lock), and the number of live
/// associations it guards. A C global, so that the getter reaches it without Swift's lazy-global
/// initialization check.
extern swk_lock swk_association_lock;
extern intptr_t swk_association_live_count;

static inline void swk_association_lock_acquire(void) {
  swk_lock_acquire(&swk_association_lock);
}

static inline void swk_association_lock_release(void) {
  swk_lock_release(&swk_association_lock);
}

/// Adds `delta` to the live count; call with the association lock held.
static inline void swk_association_count_add(intptr_t delta) {
  swk_association_live_count += delta;
}

/// The live count; call with the association lock held.
static inline intptr_t swk_association_count(void) {
  return swk_association_live_count;
}

// MARK: - Trampolines
//
// A closure IMP whose values all travel in registers does not need libffi's generic closure
// (about 430 instructions per call here). Its IMP is instead a 13-byte stub in executable memory:
//
//   mov <context register>, [rip + X]   ; the first integer argument register the method does
//   jmp [rip + Y]                       ; not use, then the handler
//
// Stubs come in pairs of pages: a code page holding 16-byte slots of one such stub, all alike,
// and the data page right after it holding each slot's context and handler, one page size
// further on (so X and Y are the same for every slot). A code page is written once, before it is
// made read-execute, and never again; only data pages are written. No page is ever writable and
// executable at once. The page size is read from the system.
//
// The handler is a C function for the method's register shape that takes the context as one
// more integer argument, in exactly that register. x86-64 System V only; elsewhere the functions
// return NULL and callers fall back to libffi.

/// Makes a stub that loads `context` into integer argument register `context_register` (0 is
/// rdi, 1 rsi, 2 rdx, 3 rcx, 4 r8, 5 r9; only 2 to 5 are accepted) and jumps to `handler`.
/// Returns the stub's address, or NULL when executable memory cannot be had or the register is
/// out of range.
void *swk_trampoline_make(int context_register, const void *context, const void *handler);

/// Returns a stub made by swk_trampoline_make to the free list.
void swk_trampoline_free(void *stub);

/// The number of stubs in use, for leak checks.
uintptr_t swk_trampoline_live_count(void);

/// Whether `code` is the address of a stub made by swk_trampoline_make (tests tell the register
/// path from libffi's with it).
int swk_trampoline_is_stub(const void *code);

/// Whether the environment variable `name` is unset (1) or set (0).
int swk_getenv_is_unset(const char *name);

// MARK: - Forwarding

/// The IMP `class_getMethodImplementation` returns for a selector that has no implementation,
/// objc4's `_objc_msgForward`. The runtime's sends recognize it and enter message forwarding
/// instead of calling it; called directly from C it does nothing and returns zero.
uintptr_t swk_msgForward(id self, SEL _cmd);

#endif
