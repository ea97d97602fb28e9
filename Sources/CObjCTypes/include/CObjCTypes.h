// The types IMPs are written with, `id` and `SEL`: the one C module ObjCRuntime re-exports.
#ifndef COBJCTYPES_H
#define COBJCTYPES_H

#include <stdint.h>

// MARK: - The types of the C-level API

/// An object as an IMP receives it: `self`, unretained, as under manual reference counting.
///
/// The struct is complete (not opaque) only so that Swift imports `id` as a pointer type of its
/// own, distinct from `SEL`; nobody reads its field. The pointer is the address of an
/// `ObjCObject` (what `Unmanaged.toOpaque()` returns).
typedef struct objc_object {
  uintptr_t swk_opaque;
} *id;

/// A selector as an IMP receives it: `_cmd`, the address of the selector's interned name.
typedef const struct objc_selector {
  char swk_opaque;
} *SEL;

#endif
