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
// A slot holds a Method and nothing else: the key is the Method's own selector, read from the
// Method (which never changes it). One atomic load of a slot therefore gives a key and a value
// that belong together, whatever a writer does to the slot meanwhile, and so the writer may move
// Methods between slots while sends read them. That is what two-choice (cuckoo) hashing needs:
// each selector has two slots, a lookup reads at most those two, and an insert that finds both
// taken moves the Method in the way to its other slot, and so on. A send to any cached selector
// costs the same however many methods the class has and whatever addresses its selectors got
// (linear probing, which this replaces, let one selector of a 1,000-method class read hundreds of
// slots: 5,231 instructions for a send). An empty slot holds the vacancy, a stand-in whose
// selector is NULL, so that a lookup compares selectors without first testing for an empty slot.
//
// Readers take no lock. Writers are serialized by the runtime lock and follow three rules:
// 1. a slot is written with release ordering, after the Method is fully made, so a reader that
//    loads it (acquire) sees the Method's selector, signature and IMP;
// 2. a Method moved during an insert may be missed by a send meanwhile: a miss only sends it to
//    the slow path, which takes the runtime lock and finds it;
// 3. a buffer that is too full is never grown in place: a larger one is built and published,
//    and a flush publishes the shared empty buffer instead of clearing the old one.
// A buffer that has been replaced may still be read by a send already in flight, so it is never
// freed: it goes to a retired list. objc4 frees its garbage once no thread's program counter is
// inside objc_msgSend; without that knowledge we keep it (see Docs/Architecture.md).

/// Where a Method keeps its selector's address: Swift lays out a class instance as its metadata
/// pointer and reference counts (two words), then its stored properties in order, and a Method's
/// first is its selector, a struct around one pointer. `MethodCache` checks this on the first
/// insert of every process (on every insert when internal checks are on); were it wrong, every
/// send would miss and the cache tests would fail.
#define SWK_METHOD_SELECTOR_OFFSET (2 * sizeof(void *))

/// The selector a Method (or the vacancy) holds.
static inline const void *swk_method_selector(const void *method) {
  return *(const void *const *)((const char *)method + SWK_METHOD_SELECTOR_OFFSET);
}

typedef struct swk_cache_buffer {
  uintptr_t mask;                   // capacity - 1; capacity is a power of two
  uintptr_t occupied;               // written only under the runtime lock
  struct swk_cache_buffer *retired_next;
  const void *slots[];              // a Method, or the vacancy
} swk_cache_buffer;

/// The buffer every empty cache points at: capacity 1, holding the vacancy, so that every lookup
/// misses at once. Never written, never retired.
const swk_cache_buffer *swk_cache_empty_buffer(void);

/// The product both of a key's slots come from: Fibonacci hashing (a multiply by 2^64 divided by
/// the golden ratio), which spreads addresses a few bytes apart, as selectors registered one
/// after another are, across the whole table.
static inline uint64_t swk_cache_mix(const void *key) {
  return (uint64_t)(uintptr_t)key * UINT64_C(0x9E3779B97F4A7C15);
}

/// A key's first slot: the product's bits from 32 up.
static inline uintptr_t swk_cache_slot1(uint64_t mix, uintptr_t mask) {
  return (uintptr_t)(mix >> 32) & mask;
}

/// A key's second slot: the product's bits from 12 up (the middle of a multiplicative hash is as
/// well mixed as its top, and these overlap the first slot's only in tables of over a million).
static inline uintptr_t swk_cache_slot2(uint64_t mix, uintptr_t mask) {
  return (uintptr_t)(mix >> 12) & mask;
}

/// The number of method-cache flushes so far, incremented (with release ordering) by every
/// flush after the emptied cache is published: a cache of lookups kept outside the runtime (the
/// GNU Objective-C loader's) that read the count before it looked up is valid while the count has
/// not changed. Never decreases.
const uintptr_t *swk_cache_flush_generation_address(void);

/// The flush count now, read with acquire ordering.
uintptr_t swk_cache_flush_generation_load(void);

/// Counts a flush; call with the runtime lock held, after publishing the empty buffer.
void swk_cache_note_flush(void);

/// Returns the Method cached for `key` in `buffer`, or NULL. Lock-free; safe against a concurrent
/// writer. The caller loads `buffer` with acquire ordering. Reads at most two slots.
static inline const void *swk_cache_lookup(const swk_cache_buffer *buffer, const void *key) {
  uintptr_t mask = buffer->mask;
  uint64_t mix = swk_cache_mix(key);
  const void *method = __atomic_load_n(&buffer->slots[swk_cache_slot1(mix, mask)], __ATOMIC_ACQUIRE);
  if (__builtin_expect(swk_method_selector(method) == key, 1)) {
    return method;
  }
  method = __atomic_load_n(&buffer->slots[swk_cache_slot2(mix, mask)], __ATOMIC_ACQUIRE);
  return swk_method_selector(method) == key ? method : NULL;
}

/// How many slots a lookup of `key` reads before it finds the key or gives up (1 when the first
/// slot answers, never more than 2): for the benchmark and the tests, which check the worst
/// selector of a large class. Lock-free, as a lookup.
static inline uintptr_t swk_cache_probe_length(const swk_cache_buffer *buffer, const void *key) {
  const void *first =
      __atomic_load_n(&buffer->slots[swk_cache_slot1(swk_cache_mix(key), buffer->mask)],
                      __ATOMIC_ACQUIRE);
  return swk_method_selector(first) == key ? 1 : 2;
}

/// Records `method` under its selector and returns the buffer to publish: `buffer` itself when it
/// had room, or a larger one (and `buffer` is retired). Returns NULL when a larger buffer could
/// not be allocated; the cache then stays as it was, and a later miss is harmless. Call with the
/// runtime lock held.
swk_cache_buffer *swk_cache_insert(const swk_cache_buffer *buffer, const void *method);

/// Retires a buffer that was just replaced by the empty one. Returns 1 when it held entries, 0
/// when it was the empty buffer. Call with the runtime lock held.
int swk_cache_retire(const swk_cache_buffer *buffer);

// MARK: - Static objects

/// The Swift metadata address of the runtime's static objects (StaticObjects.swift), 1 until the
/// first one is made (a value no first word holds): an association read compares an object's
/// first word with it. A C
/// global, read with one relaxed load, rather than a Swift global, whose every read would pass
/// Swift's once-check.
extern uintptr_t swk_static_object_metadata;

static inline uintptr_t swk_static_object_metadata_load(void) {
  return __atomic_load_n(&swk_static_object_metadata, __ATOMIC_RELAXED);
}

static inline void swk_static_object_metadata_store(uintptr_t metadata) {
  __atomic_store_n(&swk_static_object_metadata, metadata, __ATOMIC_RELAXED);
}

// MARK: - Address maps
//
// A lock-free map from an address to a pointer with the method cache's reader and writer rules,
// for the runtime's table of realized classes by Swift type metadata (read by every object's
// init). Entries are only added, never moved or removed; linear probing over Fibonacci hashing,
// kept at most half full.

typedef struct swk_map_entry {
  const void *key;    // NULL marks an empty slot
  const void *value;  // never NULL
} swk_map_entry;

typedef struct swk_map_buffer {
  uintptr_t mask;
  uintptr_t occupied;
  swk_map_entry entries[];
} swk_map_buffer;

/// The buffer an empty map points at.
const swk_map_buffer *swk_map_empty_buffer(void);

/// The value for `key`, or NULL. Lock-free.
static inline const void *swk_map_lookup(const swk_map_buffer *buffer, const void *key) {
  uintptr_t mask = buffer->mask;
  uintptr_t index = swk_cache_slot1(swk_cache_mix(key), mask);
  for (;;) {
    const void *found = __atomic_load_n(&buffer->entries[index].key, __ATOMIC_ACQUIRE);
    if (found == key) {
      return __atomic_load_n(&buffer->entries[index].value, __ATOMIC_RELAXED);
    }
    if (found == NULL) {
      return NULL;
    }
    index = (index + 1) & mask;
  }
}

/// Adds `key -> value` (a key already there keeps its value) and returns the buffer to publish,
/// or NULL when a larger one could not be allocated. The replaced buffer is kept for readers that
/// may still hold it (maps never shrink, so there are few). Call under the writer's lock.
swk_map_buffer *swk_map_insert(const swk_map_buffer *buffer, const void *key, const void *value);

// MARK: - Selector names
//
// The slots of the selector table, read without a lock (`sel_registerName` of a known name): a
// reader loads the table's buffer, then each slot's name, with acquire ordering; the hash and
// length of a slot whose name it sees were written before the name. A slot is filled once and
// never changed. A buffer more than half full is replaced by one twice its size, and the
// replaced one is kept for readers that may still hold it: names live as long as the process, so
// buffers only grow, and those kept take less memory than the one in use. Writers hold the
// selector table's lock.

typedef struct swk_name_slot {
  uint64_t hash;
  uintptr_t length;
  const uint8_t *name;  // NULL marks an empty slot
} swk_name_slot;

typedef struct swk_name_buffer {
  uintptr_t mask;
  uintptr_t occupied;
  swk_name_slot slots[];
} swk_name_buffer;

/// The selector table's buffer (an empty one of one slot until the first name).
extern const swk_name_buffer *swk_selector_names;

/// The buffer in use. Lock-free.
static inline const swk_name_buffer *swk_names_current(void) {
  return __atomic_load_n(&swk_selector_names, __ATOMIC_ACQUIRE);
}

/// The slot at `index` (at most the buffer's mask).
static inline const swk_name_slot *swk_names_slot(const swk_name_buffer *buffer, uintptr_t index) {
  return &buffer->slots[index];
}

/// The name in `slot`, NULL while it is empty. Lock-free.
static inline const uint8_t *swk_names_slot_name(const swk_name_slot *slot) {
  return __atomic_load_n(&slot->name, __ATOMIC_ACQUIRE);
}

/// Puts a name in the empty slot `index` of the buffer in use (where a probe of it for `hash`
/// ended), then, when the buffer is more than half full, publishes one twice its size; a buffer
/// that cannot be allocated is tried again at the next insert (the one in use still has room).
/// Under the selector table's lock.
void swk_names_insert(uintptr_t index, uint64_t hash, uintptr_t length, const uint8_t *name);

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

/// The argument registers of a call that entered swk_msgForward directly: the integer ones after
/// `self` and `_cmd`, and the floating-point ones (x86-64 System V and arm64 pass the two kinds in
/// separate registers, so a C function that declares both receives every register argument).
typedef struct swk_forward_frame {
  uintptr_t integers[4];
  double floats[8];
} swk_forward_frame;

/// The Swift side of a direct call of swk_msgForward: builds the invocation from `frame` and runs
/// the forwarding chain; returns the integer result register.
typedef uintptr_t (*swk_forward_handler)(id self, SEL _cmd, const swk_forward_frame *frame);

/// Sets the handler swk_msgForward calls (once, when the runtime makes its forward IMP).
void swk_msgForward_set_handler(swk_forward_handler handler);

/// The IMP `class_getMethodImplementation` returns for a selector that has no implementation,
/// objc4's `_objc_msgForward`. The runtime's sends recognize it and enter message forwarding
/// without calling it. Called directly (a swizzle that kept it as "the original" and calls it,
/// as objc4 allows), it hands its argument registers to the handler, which forwards the message;
/// with no handler set it returns zero. A method returning a struct through a hidden pointer
/// cannot be called this way: the pointer arrives where `self` is expected.
uintptr_t swk_msgForward(id self, SEL _cmd, uintptr_t i0, uintptr_t i1, uintptr_t i2,
                         uintptr_t i3, double f0, double f1, double f2, double f3, double f4,
                         double f5, double f6, double f7);

#endif
