// Executable stubs for closure IMPs of register-only signatures (see CObjCRuntime.h).
#include "CObjCRuntime.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SWK_STUB_SIZE 32
#define SWK_PAGE_SIZE 4096

static swk_lock swk_trampoline_lock = {0};
static void *swk_trampoline_free_list = NULL;
static unsigned char *swk_trampoline_page = NULL;
static uintptr_t swk_trampoline_page_used = SWK_PAGE_SIZE;
static uintptr_t swk_trampoline_live = 0;
/// Every page ever mapped for stubs (pages are never unmapped), to recognize a stub's address.
static unsigned char **swk_trampoline_pages = NULL;
static size_t swk_trampoline_page_count = 0;

#if defined(__x86_64__)

/// A free stub, under the lock: from the free list, or the next slot of the current page.
static void *swk_trampoline_slot(void) {
  if (swk_trampoline_free_list != NULL) {
    void *slot = swk_trampoline_free_list;
    memcpy(&swk_trampoline_free_list, slot, sizeof(void *));
    return slot;
  }
  if (swk_trampoline_page_used + SWK_STUB_SIZE > SWK_PAGE_SIZE) {
    void *page = mmap(NULL, SWK_PAGE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
      return NULL;
    }
    unsigned char **pages =
        realloc(swk_trampoline_pages, (swk_trampoline_page_count + 1) * sizeof(unsigned char *));
    if (pages == NULL) {
      munmap(page, SWK_PAGE_SIZE);
      return NULL;
    }
    swk_trampoline_pages = pages;
    swk_trampoline_pages[swk_trampoline_page_count++] = page;
    swk_trampoline_page = page;
    swk_trampoline_page_used = 0;
  }
  void *slot = swk_trampoline_page + swk_trampoline_page_used;
  swk_trampoline_page_used += SWK_STUB_SIZE;
  return slot;
}

void *swk_trampoline_make(int context_register, const void *context, const void *handler) {
  // movabs encodings of rdx, rcx, r8 and r9 (REX prefix, opcode B8+register).
  static const unsigned char prefixes[6][2] = {
      {0, 0}, {0, 0}, {0x48, 0xBA}, {0x48, 0xB9}, {0x49, 0xB8}, {0x49, 0xB9},
  };
  if (context_register < 2 || context_register > 5) {
    return NULL;
  }
  unsigned char code[23] = {0};
  code[0] = prefixes[context_register][0];
  code[1] = prefixes[context_register][1];
  memcpy(code + 2, &context, 8);
  code[10] = 0x49;  // movabs r11, handler
  code[11] = 0xBB;
  memcpy(code + 12, &handler, 8);
  code[20] = 0x41;  // jmp r11
  code[21] = 0xFF;
  code[22] = 0xE3;

  swk_lock_acquire(&swk_trampoline_lock);
  void *slot = swk_trampoline_slot();
  if (slot != NULL) {
    memcpy(slot, code, sizeof code);
    __builtin___clear_cache((char *)slot, (char *)slot + sizeof code);
    swk_trampoline_live += 1;
  }
  swk_lock_release(&swk_trampoline_lock);
  return slot;
}

void swk_trampoline_free(void *stub) {
  if (stub == NULL) {
    return;
  }
  swk_lock_acquire(&swk_trampoline_lock);
  memcpy(stub, &swk_trampoline_free_list, sizeof(void *));
  swk_trampoline_free_list = stub;
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
  int found = 0;
  swk_lock_acquire(&swk_trampoline_lock);
  for (size_t index = 0; index < swk_trampoline_page_count && !found; index++) {
    found = address >= swk_trampoline_pages[index]
            && address < swk_trampoline_pages[index] + SWK_PAGE_SIZE;
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
