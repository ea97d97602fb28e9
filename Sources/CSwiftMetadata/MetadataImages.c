#define _GNU_SOURCE
#include <dlfcn.h>

#include "CSwiftMetadata.h"

const char *swk_image_path(const void *address) {
  Dl_info info;
  if (dladdr(address, &info) && info.dli_fname) return info.dli_fname;
  return NULL;
}

void *swk_dlopen(const char *path) { return dlopen(path, RTLD_NOW | RTLD_GLOBAL); }

const char *swk_dlerror(void) { return dlerror(); }
