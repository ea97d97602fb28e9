// RSSwizzle's call-time lookup: `class_replaceMethod` returns the original IMP, or nil when the
// class only inherited the method; the layer then asks the superclass for its implementation when
// it is called, not when it was installed, so a swizzle of the superclass made later is seen.
// RSSwizzle has no way to take a swizzle out.
import ObjCRuntime

extension Technique {
  static let callTimeLookup = Technique(
    name: "lookup",
    summary: "RSSwizzle: the original looked up at call time, the superclass's when inherited",
    isPerObject: false,
    noRevert: "RSSwizzle offers no unswizzle"
  ) { site in
    let original = RuntimeLock<IMP?>(nil)
    let superclass = class_getSuperclass(site.cls)
    let selector = site.selector
    let label = site.label
    let layer = try LayerLog.layer(types: site.types) { call in
      guard LayerLog.enter(label, call.selector) else { return }
      let imp =
        original.withLock { $0 }
        ?? method_getImplementation(class_getInstanceMethod(superclass, selector))
      if let imp { call.forward(to: imp) }
    }
    let replaced = class_replaceMethod(site.cls, site.selector, layer, site.types)
    original.withLock { $0 = replaced }
    return TechniqueInstall(revert: nil)
  }
}
