// The image an address belongs to (dladdr, which glibc declares only under _GNU_SOURCE).
#define _GNU_SOURCE
#include <dlfcn.h>

#include "CObjCGNU.h"

int swk_gnu_pin_image(const void *address) {
  Dl_info info;
  if (address == NULL || dladdr(address, &info) == 0 || info.dli_fname == NULL) {
    return 0;
  }
  // The executable has no handle to pin, and needs none.
  void *handle = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  return handle != NULL;
}

const char *swk_gnu_image_path(const void *address, const void **base) {
  Dl_info info;
  if (address == NULL || dladdr(address, &info) == 0) {
    return NULL;
  }
  if (base != NULL) {
    *base = info.dli_fbase;
  }
  return info.dli_fname;
}

#include <link.h>
#include <string.h>

struct swk_gnu_needs_query {
  const void *address;
  const char *prefix;
  int found;
};

/// For the image holding the query's address: whether one of its DT_NEEDED entries starts with
/// the prefix.
static int swk_gnu_needs_visit(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct swk_gnu_needs_query *query = data;
  uintptr_t address = (uintptr_t)query->address;
  const ElfW(Dyn) *dynamic = NULL;
  int holds = 0;
  for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
    const ElfW(Phdr) *header = &info->dlpi_phdr[index];
    uintptr_t start = info->dlpi_addr + header->p_vaddr;
    if (header->p_type == PT_LOAD && address >= start && address < start + header->p_memsz) {
      holds = 1;
    }
    if (header->p_type == PT_DYNAMIC) {
      dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr);
    }
  }
  if (!holds || dynamic == NULL) {
    return holds;
  }
  const char *strings = NULL;
  for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++) {
    if (entry->d_tag == DT_STRTAB) {
      // The dynamic loader has relocated it to an address in the process (glibc does).
      strings = (const char *)entry->d_un.d_ptr;
    }
  }
  for (const ElfW(Dyn) *entry = dynamic; strings != NULL && entry->d_tag != DT_NULL; entry++) {
    if (entry->d_tag == DT_NEEDED
        && strncmp(strings + entry->d_un.d_val, query->prefix, strlen(query->prefix)) == 0) {
      query->found = 1;
    }
  }
  return 1;
}

int swk_gnu_image_needs(const void *address, const char *prefix) {
  struct swk_gnu_needs_query query = {address, prefix, 0};
  dl_iterate_phdr(swk_gnu_needs_visit, &query);
  return query.found;
}
