// The direct override of Mike Ash's "Method Replacement for Fun and Profit": keep the IMP that
// `method_setImplementation` returns and call it with the `_cmd` the call came with, so the
// original sees its own selector. Undone by setting the kept IMP back, whatever is there now.
import ObjCRuntime

extension Technique {
  static let directOverride = Technique(
    name: "override",
    summary: "direct override: method_setImplementation, the old IMP called with the same _cmd",
    isPerObject: false
  ) { site in
    let kept = RuntimeLock<IMP?>(nil)
    let label = site.label
    let layer = try LayerLog.layer(types: site.types) { call in
      guard LayerLog.enter(label, call.selector) else { return }
      if let original = kept.withLock({ $0 }) { call.forward(to: original) }
    }
    let method = class_getInstanceMethod(site.cls, site.selector)
    let original = method_setImplementation(method, layer)
    kept.withLock { $0 = original }
    return TechniqueInstall {
      method_setImplementation(method, original)
    }
  }
}
