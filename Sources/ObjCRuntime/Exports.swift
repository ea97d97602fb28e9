// The C types of the C-level API, re-exported: IMPs are written with `id` and `SEL`.
@_exported public import CObjCRuntime
