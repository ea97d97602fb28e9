// The classic swizzle, as the seeds write it: methods with the `et_` prefix added to
// UINavigationController at run time, then exchanged with the originals. After the exchange
// each replacement sends its own selector to reach the original, which now answers it.
import Foundation
import Hooks
import ObjCRuntime
import UIKitModel

/// The exchanges of ET (and, without `popViewControllerAnimated:`, of EM).
internal enum TransparentExchanges {
  /// The originals, in the seed's order.
  static let originals: [Selector] = [
    "_updateInteractiveTransition:", "popViewControllerAnimated:",
    "popToViewController:animated:", "popToRootViewControllerAnimated:",
  ]

  /// The seed's name for the replacement of `original`: `"et_" + sel.description`, with "__"
  /// made "_" (so `_updateInteractiveTransition:` gives `et_updateInteractiveTransition:`).
  static func replacement(for original: Selector) -> Selector {
    Selector(("et_" + original.name).replacingOccurrences(of: "__", with: "_"))
  }

  /// The replacements' implementations and encodings, by replacement selector.
  static let implementations: [(name: Selector, imp: IMP, types: String)] = {
    func make<Function>(_ selector: Selector, _ function: Function, _ types: String) -> (
      name: Selector, imp: IMP, types: String
    ) {
      // The functions below are `@convention(c)` of (id, SEL, ...): IMP(_:) cannot refuse them.
      (selector, try! IMP(function), types)
    }
    return [
      make(replacement(for: originals[0]), Replacements.updateInteractive, "v@:d"),
      make(replacement(for: originals[1]), Replacements.pop, "@@:B"),
      make(replacement(for: originals[2]), Replacements.popTo, "@@:@B"),
      make(replacement(for: originals[3]), Replacements.popToRoot, "@@:B"),
    ]
  }()

  /// Adds the replacements to UINavigationController (those it does not have yet) and exchanges
  /// each with its original. Throws, with nothing exchanged, when an original is missing.
  static func exchange() throws {
    let cls = UINavigationController.runtimeClass
    for (name, imp, types) in implementations where class_getInstanceMethod(cls, name) == nil {
      try cls.addMethod(name, implementation: imp, types: types)
    }
    var pairs: [(Method, Method)] = []
    for original in originals {
      guard let method = class_getInstanceMethod(cls, original) else {
        throw ObjCRuntimeError.methodNotFound(MethodReference(owner: cls, selector: original))
      }
      guard let replacement = class_getInstanceMethod(cls, replacement(for: original)) else {
        throw ObjCRuntimeError.methodNotFound(
          MethodReference(owner: cls, selector: replacement(for: original)))
      }
      pairs.append((method, replacement))
    }
    for (method, replacement) in pairs {
      try method.exchangeImplementation(with: replacement)
    }
  }

  /// Exchanges back each pair whose methods still hold what the exchange left there; a pair
  /// someone swizzled on top since is left alone, with a warning naming the method.
  static func exchangeBack() {
    let cls = UINavigationController.runtimeClass
    let ours = Dictionary(uniqueKeysWithValues: implementations.map { ($0.name, $0.imp) })
    for original in originals {
      let name = replacement(for: original)
      guard let method = class_getInstanceMethod(cls, original),
        let replacement = class_getInstanceMethod(cls, name)
      else { continue }
      guard method.implementation == ours[name] else {
        let reference = MethodReference(owner: cls, selector: original)
        let outermost = PluginRegistry.shared.hookMap.entries
          .first { $0.method == reference }?.layers.first?.description
        Diagnostics.warn(
          "transparent: \(reference) was changed after the plugin's exchange ("
            + (outermost ?? "by code the hook map does not know") + "); it is left as it is,"
            + " and the plugin's replacement stays in its chain",
          kind: .restoreBlocked, method: reference)
        continue
      }
      try? method.exchangeImplementation(with: replacement)
    }
  }

  /// Whether the originals hold the plugin's implementations now.
  static var isExchanged: Bool {
    let cls = UINavigationController.runtimeClass
    return implementations.allSatisfy { entry in
      TransparentExchanges.originals.contains { original in
        replacement(for: original) == entry.name
          && class_getInstanceMethod(cls, original)?.implementation == entry.imp
      }
    }
  }
}

/// The replacements. Each does the seed's work, then sends its own selector (the `et_` one, not
/// `_cmd`: after the exchange `_cmd` is the original's name, which would call the replacement
/// again), whose method holds the original implementation after the exchange.
private enum Replacements {
  static let updateInteractive: @convention(c) (id, SEL, Double) -> Void = { me, _, percent in
    let navigation = me.receiver(as: UINavigationController.self)
    navigation.transparentUpdateInteractive(percent: CGFloat(percent))
    try? objc_msgSend(navigation, Itself.updateInteractive.selector, percent) as Void
  }

  static let pop: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
    let navigation = me.receiver(as: UINavigationController.self)
    // ET, iOS 13: a pop by the back button (not the swipe) snaps to the controller below.
    let controllers = navigation.viewControllers
    if UIDevice.current.majorSystemVersion >= 13,
      navigation.interactivePopGestureRecognizer?.state != .began, controllers.count >= 2
    {
      navigation.transparentApply(controllers[controllers.count - 2])
    }
    let popped = try? objc_msgSend(navigation, Itself.pop.selector, animated) as ObjCObject?
    return popped?.passRetained()
  }

  static let popTo: @convention(c) (id, SEL, id?, Bool) -> id? = { me, _, target, animated in
    let navigation = me.receiver(as: UINavigationController.self)
    let controller = target.map { $0.takeUnretainedObject() } as? UIViewController
    if let controller { navigation.transparentApply(controller) }
    let popped =
      try? objc_msgSend(navigation, Itself.popTo.selector, controller, animated) as ObjCObject?
    return popped?.passRetained()
  }

  static let popToRoot: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
    let navigation = me.receiver(as: UINavigationController.self)
    if let root = navigation.viewControllers.first { navigation.transparentApply(root) }
    let popped = try? objc_msgSend(navigation, Itself.popToRoot.selector, animated) as ObjCObject?
    return popped?.passRetained()
  }
}

/// The replacements' own selectors, which reach the originals after the exchange.
private enum Itself {
  static let updateInteractive = SelectorReference("et_updateInteractiveTransition:")
  static let pop = SelectorReference("et_popViewControllerAnimated:")
  static let popTo = SelectorReference("et_popToViewController:animated:")
  static let popToRoot = SelectorReference("et_popToRootViewControllerAnimated:")
}
