// The safe pattern (NSHipster's "Method Swizzling", the answer to "What are the dangers of method
// swizzling"): `class_addMethod` first, so that a class that only inherits the method gets its
// own, then `class_replaceMethod` on the swizzled selector, or an exchange when the class had the
// method. Its users undo it by exchanging the class's two methods again.
import ObjCRuntime

extension Technique {
  static let safePattern = Technique(
    name: "safe",
    summary: "the safe pattern: class_addMethod first, then replace or exchange",
    isPerObject: false
  ) { site in
    let swizzled = Selector("safe_" + site.selector.name)
    let label = site.label
    let layer = try LayerLog.layer(types: site.types) { call in
      guard LayerLog.enter(label, call.selector) else { return }
      call.send(swizzled)
    }
    class_addMethod(site.cls, swizzled, layer, site.types)
    let originalMethod = class_getInstanceMethod(site.cls, site.selector)
    let swizzledMethod = class_getInstanceMethod(site.cls, swizzled)
    let added = class_addMethod(
      site.cls, site.selector, method_getImplementation(swizzledMethod), site.types)
    if added {
      class_replaceMethod(
        site.cls, swizzled, method_getImplementation(originalMethod), site.types)
    } else {
      method_exchangeImplementations(originalMethod, swizzledMethod)
    }
    return TechniqueInstall {
      method_exchangeImplementations(
        class_getInstanceMethod(site.cls, site.selector),
        class_getInstanceMethod(site.cls, swizzled))
    }
  }
}
