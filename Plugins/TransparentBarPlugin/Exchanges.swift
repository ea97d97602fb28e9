// The classic swizzle, as the seeds write it: methods with the `et_` prefix added to
// UINavigationController at run time, then exchanged with the originals. After the exchange
// each replacement sends its own selector to reach the original, which now answers it.
import Foundation
import Hooks
import ObjCRuntime
import UIKitModel

// nonisolated: runtime work (methods added and exchanged), done by install() on any thread.
/// One exchange: the original method of `owner` and the `et_` method the plugin adds beside it.
nonisolated internal struct TransparentExchange {
  /// The class whose method is exchanged.
  let owner: Class
  /// The original selector.
  let original: Selector
  /// The replacement's selector: the seed's rule, `"et_" + name` with "__" made "_" (so
  /// `_updateInteractiveTransition:` gives `et_updateInteractiveTransition:`).
  let replacement: Selector
  /// The replacement's implementation.
  let implementation: IMP
  /// Its encoding, the original's.
  let types: String

  init<Function>(_ owner: Class, _ original: Selector, _ function: Function, _ types: String) {
    self.owner = owner
    self.original = original
    // The seed's rule, "et_" + the name with "__" made "_" (the standard library's `replacing`,
    // not Foundation's, which bridges through NSString and cost a third of the installation).
    replacement = Selector(("et_" + original.name).replacing("__", with: "_"))
    // The functions given are `@convention(c)` of (id, SEL, ...): IMP(_:) cannot refuse them.
    implementation = try! IMP(function)
    self.types = types
  }

  /// `-[Owner original]`.
  var reference: MethodReference { MethodReference(owner: owner, selector: original) }
}

// nonisolated: runtime work (methods added and exchanged), done by install() on any thread.
/// The exchanges of ET (EM's are the same but `popViewControllerAnimated:`).
nonisolated internal enum TransparentExchanges {
  /// Every exchange, in the seed's order.
  static let all: [TransparentExchange] = {
    let navigation = UINavigationController.runtimeClass
    return [
      TransparentExchange(
        navigation, "_updateInteractiveTransition:", Replacements.updateInteractive, "v@:d"),
      TransparentExchange(navigation, "popViewControllerAnimated:", Replacements.pop, "@@:B"),
      TransparentExchange(
        navigation, "popToViewController:animated:", Replacements.popTo, "@@:@B"),
      TransparentExchange(
        navigation, "popToRootViewControllerAnimated:", Replacements.popToRoot, "@@:B"),
    ]
  }()

  /// Adds the replacements (those not added yet) and exchanges each with its original. Throws,
  /// with nothing exchanged, when an original is missing.
  static func exchange() throws {
    var pairs: [(Method, Method)] = []
    for exchange in all {
      let cls = exchange.owner
      if class_getInstanceMethod(cls, exchange.replacement) == nil {
        try cls.addMethod(
          exchange.replacement, implementation: exchange.implementation, types: exchange.types)
      }
      guard let method = class_getInstanceMethod(cls, exchange.original) else {
        throw ObjCRuntimeError.methodNotFound(exchange.reference)
      }
      guard let replacement = class_getInstanceMethod(cls, exchange.replacement) else {
        throw ObjCRuntimeError.methodNotFound(
          MethodReference(owner: cls, selector: exchange.replacement))
      }
      pairs.append((method, replacement))
    }
    for (method, replacement) in pairs {
      try method.exchangeImplementation(with: replacement)
    }
  }

  /// Exchanges back each pair whose original still holds the plugin's implementation; a pair
  /// someone swizzled on top since is left alone, with a warning naming the outermost layer.
  static func exchangeBack() {
    for exchange in all {
      guard let method = class_getInstanceMethod(exchange.owner, exchange.original),
        let replacement = class_getInstanceMethod(exchange.owner, exchange.replacement)
      else { continue }
      guard method.implementation == exchange.implementation else {
        transparentWarnChangedSince(exchange.reference, by: "exchanged it")
        continue
      }
      try? method.exchangeImplementation(with: replacement)
    }
  }
}

// nonisolated: runtime work (methods added and exchanged), done by install() on any thread.
/// The replacements. Each does the seed's work, then sends its own selector (the `et_` one, not
/// `_cmd`: after the exchange `_cmd` is the original's name, which would call the replacement
/// again), whose method holds the original implementation after the exchange.
nonisolated private enum Replacements {
  static let updateInteractive: @convention(c) (id, SEL, Double) -> Void = { me, _, percent in
    MainThread.assumeIsolated(with: me, percent) { me, percent in
      let navigation = me.receiver(as: UINavigationController.self)
      // The article's guard, `guard self.isKind(of: EMNavigationController.self) else { return }`:
      // a navigation controller that is not the app's own subclass returns before the original,
      // so UIKit's own update of the interactive pop never runs for it.
      if TransparentBarPlugin.mode.value == .seed,
        object_getClass(navigation) === UINavigationController.runtimeClass
      {
        return
      }
      navigation.transparentUpdateInteractive(percent: CGFloat(percent))
      reportingFailure(Itself.updateInteractive) { () throws(ObjCRuntimeError) in
        try objc_msgSend(navigation, Itself.updateInteractive.selector, percent) as Void
      }
    }
  }

  static let pop: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
    MainThread.assumeIsolated(with: me, animated) { me, animated in
      let navigation = me.receiver(as: UINavigationController.self)
      // ET, iOS 13: a pop by the back button (not the swipe) snaps to the controller below.
      let controllers = navigation.viewControllers
      if UIDevice.current.majorSystemVersion >= 13,
        navigation.interactivePopGestureRecognizer?.state != .began, controllers.count >= 2
      {
        navigation.transparentApply(controllers[controllers.count - 2])
      }
      return reportingFailure(Itself.pop) { () throws(ObjCRuntimeError) in
        try objc_msgSend(navigation, Itself.pop.selector, animated) as ObjCObject?
      }??.passRetained()
    }
  }

  static let popTo: @convention(c) (id, SEL, id?, Bool) -> id? = { me, _, target, animated in
    MainThread.assumeIsolated(with: me, target, animated) { me, target, animated in
      let navigation = me.receiver(as: UINavigationController.self)
      let controller = target.map { $0.takeUnretainedObject() } as? UIViewController
      if let controller { navigation.transparentApply(controller) }
      return reportingFailure(Itself.popTo) { () throws(ObjCRuntimeError) in
        try objc_msgSend(navigation, Itself.popTo.selector, controller, animated) as ObjCObject?
      }??.passRetained()
    }
  }

  static let popToRoot: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
    MainThread.assumeIsolated(with: me, animated) { me, animated in
      let navigation = me.receiver(as: UINavigationController.self)
      if let root = navigation.viewControllers.first { navigation.transparentApply(root) }
      return reportingFailure(Itself.popToRoot) { () throws(ObjCRuntimeError) in
        try objc_msgSend(navigation, Itself.popToRoot.selector, animated) as ObjCObject?
      }??.passRetained()
    }
  }
}

/// Runs `send`, a replacement's send of its own selector; a failure (someone broke the method
/// since the exchange) is reported, naming the method, and gives nil.
private func reportingFailure<Result>(
  _ selector: borrowing SelectorReference, _ send: () throws(ObjCRuntimeError) -> Result
) -> Result? {
  do {
    return try send()
  } catch {
    Diagnostics.warn("transparent: -[UINavigationController \(selector.selector)]", refused: error)
    return nil
  }
}

// nonisolated: runtime work (methods added and exchanged), done by install() on any thread.
/// The replacements' own selectors, which reach the originals after the exchange.
nonisolated private enum Itself {
  static let updateInteractive = SelectorReference("et_updateInteractiveTransition:")
  static let pop = SelectorReference("et_popViewControllerAnimated:")
  static let popTo = SelectorReference("et_popToViewController:animated:")
  static let popToRoot = SelectorReference("et_popToRootViewControllerAnimated:")
}
