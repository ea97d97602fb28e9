// Executable stubs for closure IMPs of register-only signatures (see CObjCRuntime.h): immutable
// code pages, each followed by the data page its stubs read their context and handler from.
#include "CObjCRuntime.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SWK_STUB_SIZE 16
#define SWK_REGISTER_KINDS 4  // rdx, rcx, r8, r9

static swk_lock swk_trampoline_lock = {0};
static uintptr_t swk_trampoline_live = 0;
/// Free slots per register kind, linked through the first word of their data.
static void *swk_trampoline_free_lists[SWK_REGISTER_KINDS] = {NULL};
/// Every code page ever mapped (pages are never unmapped), to recognize a stub's address.
static unsigned char **swk_trampoline_pages = NULL;
static size_t swk_trampoline_page_count = 0;

static size_t swk_page_size(void) {
  static size_t size = 0;
  if (size == 0) {
    long read = sysconf(_SC_PAGESIZE);
    size = read > 0 ? (size_t)read : 4096;
  }
  return size;
}

#if defined(__x86_64__)

/// The stub for context register `kind` (0 rdx, 1 rcx, 2 r8, 3 r9), for a data page `page`
/// bytes after the code: `mov reg, [rip + page - 7]` loads the context, `jmp [rip + page - 5]`
/// (the word after it) the handler.
static void swk_stub_template(int kind, size_t page, unsigned char code[SWK_STUB_SIZE]) {
  static const unsigned char prefixes[SWK_REGISTER_KINDS][3] = {
      {0x48, 0x8B, 0x15}, {0x48, 0x8B, 0x0D}, {0x4C, 0x8B, 0x05}, {0x4C, 0x8B, 0x0D},
  };
  memset(code, 0xCC, SWK_STUB_SIZE);  // int3 after the jump
  memcpy(code, prefixes[kind], 3);
  int32_t context = (int32_t)page - 7;
  memcpy(code + 3, &context, 4);
  code[7] = 0xFF;  // jmp qword ptr [rip + disp32]
  code[8] = 0x25;
  int32_t handler = (int32_t)page - 5;
  memcpy(code + 9, &handler, 4);
}

/// Maps a pair of pages for `kind`: the code page filled with stubs and made read-execute
/// before anything can run it, and the data page, whose slots join the kind's free list.
/// Called with the lock held; false when memory cannot be had.
static int swk_trampoline_grow(int kind) {
  size_t page = swk_page_size();
  unsigned char *pair =
      mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pair == MAP_FAILED) {
    return 0;
  }
  unsigned char stub[SWK_STUB_SIZE];
  swk_stub_template(kind, page, stub);
  for (size_t offset = 0; offset + SWK_STUB_SIZE <= page; offset += SWK_STUB_SIZE) {
    memcpy(pair + offset, stub, SWK_STUB_SIZE);
  }
  __builtin___clear_cache((char *)pair, (char *)pair + page);
  unsigned char **pages =
      realloc(swk_trampoline_pages, (swk_trampoline_page_count + 1) * sizeof(unsigned char *));
  if (pages == NULL || mprotect(pair, page, PROT_READ | PROT_EXEC) != 0) {
    if (pages != NULL) swk_trampoline_pages = pages;
    munmap(pair, 2 * page);
    return 0;
  }
  swk_trampoline_pages = pages;
  swk_trampoline_pages[swk_trampoline_page_count++] = pair;
  // Every slot, last first, so that the first slot is handed out first.
  for (size_t index = page / SWK_STUB_SIZE; index-- > 0;) {
    void **data = (void **)(pair + page + index * SWK_STUB_SIZE);
    data[0] = swk_trampoline_free_lists[kind];
    swk_trampoline_free_lists[kind] = pair + index * SWK_STUB_SIZE;
  }
  return 1;
}

void *swk_trampoline_make(int context_register, const void *context, const void *handler) {
  if (context_register < 2 || context_register > 5) {
    return NULL;
  }
  int kind = context_register - 2;
  size_t page = swk_page_size();
  swk_lock_acquire(&swk_trampoline_lock);
  if (swk_trampoline_free_lists[kind] == NULL && !swk_trampoline_grow(kind)) {
    swk_lock_release(&swk_trampoline_lock);
    return NULL;
  }
  unsigned char *slot = swk_trampoline_free_lists[kind];
  void **data = (void **)(slot + page);
  swk_trampoline_free_lists[kind] = data[0];
  // Written before the slot's address is returned; the caller publishes it (in a method's IMP
  // word) with release ordering, so a thread that calls the stub sees its data.
  data[0] = (void *)context;
  data[1] = (void *)handler;
  swk_trampoline_live += 1;
  swk_lock_release(&swk_trampoline_lock);
  return slot;
}

void swk_trampoline_free(void *stub) {
  if (stub == NULL) {
    return;
  }
  size_t page = swk_page_size();
  unsigned char *slot = stub;
  // The kind is the stub's register: the third byte of its mov (its ModRM) and its prefix.
  int kind = slot[0] == 0x48 ? (slot[2] == 0x15 ? 0 : 1) : (slot[2] == 0x05 ? 2 : 3);
  swk_lock_acquire(&swk_trampoline_lock);
  void **data = (void **)(slot + page);
  data[1] = NULL;
  data[0] = swk_trampoline_free_lists[kind];
  swk_trampoline_free_lists[kind] = slot;
  swk_trampoline_live -= 1;
  swk_lock_release(&swk_trampoline_lock);
}

#else

void *swk_trampoline_make(int context_register, const void *context, const void *handler) {
  (void)context_register, (void)context, (void)handler;
  return NULL;
}

void swk_trampoline_free(void *stub) { (void)stub; }

#endif

int swk_trampoline_is_stub(const void *code) {
  const unsigned char *address = code;
  size_t page = swk_page_size();
  int found = 0;
  swk_lock_acquire(&swk_trampoline_lock);
  for (size_t index = 0; index < swk_trampoline_page_count && !found; index++) {
    found = address >= swk_trampoline_pages[index]
            && address < swk_trampoline_pages[index] + page;
  }
  swk_lock_release(&swk_trampoline_lock);
  return found;
}

uintptr_t swk_trampoline_live_count(void) {
  swk_lock_acquire(&swk_trampoline_lock);
  uintptr_t live = swk_trampoline_live;
  swk_lock_release(&swk_trampoline_lock);
  return live;
}

int swk_getenv_is_unset(const char *name) {
  return getenv(name) == NULL;
}
