// The two doors into the Swift runtime that SelfAware discovery needs and Swift cannot declare:
// the enumeration of every loaded image's metadata sections, and dladdr/dlopen for images.
// Only the ObjCRuntime module imports this, with an internal import, and only SwiftImages.swift
// uses it.
#ifndef CSWIFTMETADATA_H
#define CSWIFTMETADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A section's bounds, as the Swift runtime records them.
typedef struct {
  uintptr_t start;
  size_t length;
} swk_section_range;

/// The prefix of swift::MetadataSections (usr/lib/swift/shims/MetadataSections.h) that
/// discovery reads: the version, the image base, and the first three section ranges. The Swift
/// runtime versions the struct by its first field; fields are only ever appended.
typedef struct {
  uintptr_t version;
  const void *baseAddress;
  void *unused0;
  void *unused1;
  swk_section_range swift5_protocols;
  swk_section_range swift5_protocol_conformances;
  swk_section_range swift5_type_metadata;
} swk_metadata_sections_prefix;

/// Exported by libswiftCore.so on ELF platforms (stdlib/public/runtime/ImageInspectionCommon.cpp):
/// calls `body` for every image the Swift runtime registered, until it returns false. Swift
/// Testing finds its tests through the same function.
extern void swift_enumerateAllMetadataSections(
    bool (*body)(const void *sections, void *context), void *context);

/// Calls `body` with the load address and path of every loaded ELF object (dl_iterate_phdr); the
/// main executable's path is empty.
void swk_enumerate_loaded_objects(void (*body)(uintptr_t base, const char *path, void *context),
                                  void *context);

/// How many objects were ever loaded into the process (dl_iterate_phdr's dlpi_adds): a number
/// that changes whenever a library is loaded, read without walking every object.
unsigned long long swk_loaded_object_generation(void);

/// dlopen with RTLD_NOW | RTLD_LOCAL: the library's symbols are not offered to later libraries
/// until it is promoted. Returns the library's load address (its base, as dl_iterate_phdr and
/// the Swift runtime report it), or 0 on failure (then swk_dlerror says why).
uintptr_t swk_dlopen_local(const char *path);

/// Makes the symbols of a library already loaded with swk_dlopen_local global (RTLD_NOLOAD |
/// RTLD_GLOBAL); NULL on failure.
void *swk_dlopen_promote(const char *path);

/// The last dlopen error, or NULL.
const char *swk_dlerror(void);

/// Finds the loaded object that holds `address` (dladdr1) and stores its load address, as
/// swk_dlopen_local returns it, in `base`; returns 0 when no object holds it.
int swk_image_containing(const void *address, uintptr_t *base);

#endif
