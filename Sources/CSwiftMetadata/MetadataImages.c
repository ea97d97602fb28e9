#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>

#include "CSwiftMetadata.h"

struct swk_enumeration {
  void (*body)(uintptr_t, const char *, void *);
  void *context;
};

static int swk_visit(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct swk_enumeration *enumeration = data;
  enumeration->body((uintptr_t)info->dlpi_addr, info->dlpi_name ? info->dlpi_name : "",
                    enumeration->context);
  return 0;
}

void swk_enumerate_loaded_objects(void (*body)(uintptr_t base, const char *path, void *context),
                                  void *context) {
  struct swk_enumeration enumeration = {body, context};
  dl_iterate_phdr(swk_visit, &enumeration);
}

static int swk_read_adds(struct dl_phdr_info *info, size_t size, void *data) {
  // dlpi_adds is present when the structure is at least this large (glibc 2.4 and later).
  if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
    *(unsigned long long *)data = info->dlpi_adds;
  }
  return 1;  // the counters are the same for every object: stop at the first
}

unsigned long long swk_loaded_object_generation(void) {
  unsigned long long adds = 0;
  dl_iterate_phdr(swk_read_adds, &adds);
  return adds;
}

uintptr_t swk_dlopen_local(const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) return 0;
  struct link_map *map = NULL;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL) return 0;
  // The load address identifies the image among those the Swift runtime registered. The
  // handle itself is not kept: a Swift image is never unloaded.
  return (uintptr_t)map->l_addr;
}

void *swk_dlopen_promote(const char *path) {
  return dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

const char *swk_dlerror(void) { return dlerror(); }

int swk_image_containing(const void *address, uintptr_t *base) {
  Dl_info info;
  struct link_map *map = NULL;
  if (dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) return 0;
  *base = (uintptr_t)map->l_addr;
  return 1;
}
