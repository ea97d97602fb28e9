// The category exchange, as NSHipster's "Method Swizzling" and most SDKs write it: a category adds
// `xxx_method`, whose code calls `xxx_method` (the original, once exchanged), and `+load` exchanges
// the two with `method_exchangeImplementations`. Its users undo it by exchanging again.
import ObjCRuntime

extension Technique {
  static let categoryExchange = Technique(
    name: "exchange",
    summary: "category exchange: method_exchangeImplementations with an added exchange_ method",
    isPerObject: false
  ) { site in
    let swizzled = Selector("exchange_" + site.selector.name)
    // The category's method: log, then [self exchange_setTag:tag], which is the original now.
    let label = site.label
    let layer = try LayerLog.layer(types: site.types) { call in
      guard LayerLog.enter(label, call.selector) else { return }
      call.send(swizzled)
    }
    class_addMethod(site.cls, swizzled, layer, site.types)
    method_exchangeImplementations(
      class_getInstanceMethod(site.cls, site.selector),
      class_getInstanceMethod(site.cls, swizzled))
    return TechniqueInstall {
      method_exchangeImplementations(
        class_getInstanceMethod(site.cls, site.selector),
        class_getInstanceMethod(site.cls, swizzled))
    }
  }
}
