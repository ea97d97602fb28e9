// The C types of the C-level API, re-exported: IMPs are written with `id` and `SEL`. The rest of
// the C half (CObjCRuntime: the method cache, the locks, the trampolines) is imported without
// re-export, so that no swk_* function is visible to a client of ObjCRuntime; inlinable code
// (the typed sends, RuntimeLock) may still call it.
@_exported public import CObjCTypes
