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

void *swk_dlopen(const char *path) { return dlopen(path, RTLD_NOW | RTLD_GLOBAL); }

const char *swk_dlerror(void) { return dlerror(); }
