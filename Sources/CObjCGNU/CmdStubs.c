// The stubs between gcc's sends and SwizzleKit's methods (see CObjCGNU.h): code pages written
// once and made read-execute, each followed by the data page its stubs read.
#include "CObjCGNU.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SWK_GNU_STUB_SIZE 32

static int swk_gnu_stub_lock = 0;
/// The next free slot of the newest code page, and the end of that page.
static unsigned char *swk_gnu_stub_next[2] = {NULL, NULL};
static unsigned char *swk_gnu_stub_end[2] = {NULL, NULL};

static size_t swk_gnu_page_size(void) {
  long size = sysconf(_SC_PAGESIZE);
  return size > 0 ? (size_t)size : 4096;
}

#if defined(__x86_64__)

/// The code of every stub of one kind; its data (the implementation word's address, then the
/// forwarding function) is one page further on.
///
///   mov rsi, [rsi]        ; or mov rdx, [rdx]: the selector the reference holds
///   mov r11, [rip + A]    ; the address of the method's implementation word
///   mov r11, [r11]        ; the implementation now
///   test r11, r11
///   jz 1f
///   jmp r11
/// 1: jmp [rip + B]        ; no implementation: forward
static void swk_gnu_stub_template(int struct_return, size_t page,
                                  unsigned char code[SWK_GNU_STUB_SIZE]) {
  memset(code, 0xCC, SWK_GNU_STUB_SIZE);  // int3 after the last jump
  const unsigned char selector[2][3] = {{0x48, 0x8B, 0x36}, {0x48, 0x8B, 0x12}};
  memcpy(code, selector[struct_return ? 1 : 0], 3);
  code[3] = 0x4C, code[4] = 0x8B, code[5] = 0x1D;
  int32_t word = (int32_t)page - 10;
  memcpy(code + 6, &word, 4);
  const unsigned char body[] = {0x4D, 0x8B, 0x1B, 0x4D, 0x85, 0xDB, 0x74, 0x03, 0x41, 0xFF, 0xE3,
                                0xFF, 0x25};
  memcpy(code + 10, body, sizeof body);
  int32_t forward = (int32_t)page + 8 - 27;
  memcpy(code + 23, &forward, 4);
}

/// Maps a code page of `kind`'s stubs and its data page. Called with the lock held.
static int swk_gnu_stub_grow(int kind) {
  size_t page = swk_gnu_page_size();
  unsigned char *pair =
      mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pair == MAP_FAILED) {
    return 0;
  }
  unsigned char stub[SWK_GNU_STUB_SIZE];
  swk_gnu_stub_template(kind, page, stub);
  for (size_t offset = 0; offset + SWK_GNU_STUB_SIZE <= page; offset += SWK_GNU_STUB_SIZE) {
    memcpy(pair + offset, stub, SWK_GNU_STUB_SIZE);
  }
  __builtin___clear_cache((char *)pair, (char *)pair + page);
  if (mprotect(pair, page, PROT_READ | PROT_EXEC) != 0) {
    munmap(pair, 2 * page);
    return 0;
  }
  swk_gnu_stub_next[kind] = pair;
  swk_gnu_stub_end[kind] = pair + page;
  return 1;
}

void *swk_gnu_cmd_stub_make(const void *imp_word, const void *forward, int struct_return) {
  int kind = struct_return ? 1 : 0;
  size_t page = swk_gnu_page_size();
  swk_gnu_spin_lock(&swk_gnu_stub_lock);
  if (swk_gnu_stub_next[kind] == swk_gnu_stub_end[kind] && !swk_gnu_stub_grow(kind)) {
    swk_gnu_spin_unlock(&swk_gnu_stub_lock);
    return NULL;
  }
  unsigned char *slot = swk_gnu_stub_next[kind];
  swk_gnu_stub_next[kind] += SWK_GNU_STUB_SIZE;
  // Written before the stub's address is returned; the caller publishes it with release
  // ordering, so a thread that calls the stub sees its data.
  const void **data = (const void **)(slot + page);
  data[0] = imp_word;
  data[1] = forward;
  swk_gnu_spin_unlock(&swk_gnu_stub_lock);
  return slot;
}

#else

void *swk_gnu_cmd_stub_make(const void *imp_word, const void *forward, int struct_return) {
  (void)imp_word, (void)forward, (void)struct_return;
  return NULL;
}

#endif

// MARK: - One stub per method
//
// An insert-only map from a method's implementation word to its stub: linear probing over a
// multiplicative hash, at most half full. Readers take no lock; a writer (under the stub lock)
// fills a slot's value before its key, and replaces a full table by a larger copy, published
// with release ordering. Replaced tables are never freed: a reader may still be in one.

typedef struct swk_gnu_stub_entry {
  const void *key;
  void *stub;
} swk_gnu_stub_entry;

typedef struct swk_gnu_stub_table {
  uintptr_t mask;
  uintptr_t count;
  swk_gnu_stub_entry entries[];
} swk_gnu_stub_table;

static swk_gnu_stub_table *swk_gnu_stub_map = NULL;

static uintptr_t swk_gnu_stub_slot(const void *key, uintptr_t mask) {
  return (uintptr_t)(((uint64_t)(uintptr_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask;
}

static void *swk_gnu_stub_find(const swk_gnu_stub_table *table, const void *key) {
  if (table == NULL) {
    return NULL;
  }
  for (uintptr_t index = swk_gnu_stub_slot(key, table->mask);; index = (index + 1) & table->mask) {
    const void *found = __atomic_load_n(&table->entries[index].key, __ATOMIC_ACQUIRE);
    if (found == key) {
      return table->entries[index].stub;
    }
    if (found == NULL) {
      return NULL;
    }
  }
}

/// Puts `key` in `table`, which has room. Called with the lock held.
static void swk_gnu_stub_put(swk_gnu_stub_table *table, const void *key, void *stub) {
  uintptr_t index = swk_gnu_stub_slot(key, table->mask);
  while (table->entries[index].key != NULL) {
    index = (index + 1) & table->mask;
  }
  table->entries[index].stub = stub;
  __atomic_store_n(&table->entries[index].key, key, __ATOMIC_RELEASE);
  table->count += 1;
}

/// A stub's key: the implementation word's address (pointer-aligned) with the kind in its low
/// bit, so that a method made at a disposed one's address never gets a stub of the other kind.
static const void *swk_gnu_stub_key(const void *imp_word, int struct_return) {
  return (const void *)((uintptr_t)imp_word | (struct_return ? 1 : 0));
}

void *swk_gnu_cmd_stub_find(const void *imp_word, int struct_return) {
  return swk_gnu_stub_find(__atomic_load_n(&swk_gnu_stub_map, __ATOMIC_ACQUIRE),
                           swk_gnu_stub_key(imp_word, struct_return));
}

void *swk_gnu_cmd_stub_for(const void *imp_word, const void *forward, int struct_return) {
  const void *key = swk_gnu_stub_key(imp_word, struct_return);
  void *found = swk_gnu_stub_find(__atomic_load_n(&swk_gnu_stub_map, __ATOMIC_ACQUIRE), key);
  if (found != NULL) {
    return found;
  }
  // Made before the map's lock is taken (swk_gnu_cmd_stub_make takes the same lock); a thread
  // that loses the race to insert leaves its stub unused, 32 bytes.
  void *stub = swk_gnu_cmd_stub_make(imp_word, forward, struct_return);
  if (stub == NULL) {
    return NULL;
  }
  swk_gnu_spin_lock(&swk_gnu_stub_lock);
  swk_gnu_stub_table *table = swk_gnu_stub_map;
  found = swk_gnu_stub_find(table, key);
  if (found == NULL && (table == NULL || 2 * (table->count + 1) > table->mask + 1)) {
    uintptr_t capacity = table == NULL ? 64 : 2 * (table->mask + 1);
    swk_gnu_stub_table *grown =
        calloc(1, sizeof(swk_gnu_stub_table) + capacity * sizeof(swk_gnu_stub_entry));
    if (grown == NULL) {
      swk_gnu_spin_unlock(&swk_gnu_stub_lock);
      return stub;  // correct, only not remembered
    }
    grown->mask = capacity - 1;
    for (uintptr_t index = 0; table != NULL && index <= table->mask; index++) {
      if (table->entries[index].key != NULL) {
        swk_gnu_stub_put(grown, table->entries[index].key, table->entries[index].stub);
      }
    }
    __atomic_store_n(&swk_gnu_stub_map, grown, __ATOMIC_RELEASE);
    table = grown;
  }
  if (found == NULL) {
    swk_gnu_stub_put(table, key, stub);
    found = stub;
  }
  swk_gnu_spin_unlock(&swk_gnu_stub_lock);
  return found;
}
