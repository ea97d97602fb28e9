// `import ObjectiveC` on Linux: Apple's module of that name is the Objective-C runtime's C API
// (`class_getInstanceMethod`, `method_exchangeImplementations`, `objc_getClassList`...) and
// `Selector`; here they are SwizzleKit's runtime, with the signatures Apple's Swift overlay
// gives them (`Docs/Porting.md`).
@_exported public import ObjCRuntime
