// The navigation controller's delegate, told and asked through the runtime: a plugin can hook
// the delegate's methods, and an object that answers the selectors without the Swift protocol
// is honoured, as in Objective-C.
import Foundation
import ObjCRuntime

// Public, so that a plugin that wraps the app's delegate forwards to it the way the model
// itself talks to a delegate.
extension UINavigationController {
  /// `delegate` as an object whose class's table has `selector`, if it is one.
  private func answering(_ delegate: AnyObject?, _ selector: Selector) -> ObjCObject? {
    guard let object = delegate as? ObjCObject, object.responds(to: selector) else {
      return nil
    }
    return object
  }

  /// Tells `delegate` (by default this controller's) `navigationController:willShowViewController:animated:`:
  /// through the runtime when its class has the method, else through the Swift protocol.
  public func tellWillShow(
    _ controller: UIViewController, animated: Bool, to delegate: AnyObject? = nil
  ) {
    tellShown(DelegateSelectors.willShow, controller, animated, to: delegate) {
      $0.navigationController(self, willShow: controller, animated: animated)
    }
  }

  /// Tells `delegate` (by default this controller's) `navigationController:didShowViewController:animated:`,
  /// as ``tellWillShow(_:animated:to:)``.
  public func tellDidShow(
    _ controller: UIViewController, animated: Bool, to delegate: AnyObject? = nil
  ) {
    tellShown(DelegateSelectors.didShow, controller, animated, to: delegate) {
      $0.navigationController(self, didShow: controller, animated: animated)
    }
  }

  /// Sends `selector` (`willShow` or `didShow`) to `delegate` through the runtime when its class
  /// has it, else calls `swift` with it as a Swift delegate.
  private func tellShown(
    _ selector: Selector, _ controller: UIViewController, _ animated: Bool,
    to delegate: AnyObject?, swift: (any UINavigationControllerDelegate) -> Void
  ) {
    let delegate = delegate ?? delegateObject
    guard let object = answering(delegate, selector) else {
      (delegate as? any UINavigationControllerDelegate).map(swift)
      return
    }
    send(object, selector) { () throws(ObjCRuntimeError) in
      try objc_msgSend(
        object, selector, self as ObjCObject, controller as ObjCObject, animated) as Void
    }
  }

  /// Asks `delegate` (by default this controller's) for the animator of `operation` from `from`
  /// to `to` (`navigationController:animationControllerForOperation:fromViewController:toViewController:`),
  /// as ``tellWillShow(_:animated:to:)``; nil for the default slide. An object that is not an
  /// animator counts as nil.
  public func animator(
    for operation: UINavigationControllerOperation, from: UIViewController,
    to: UIViewController, askingDelegate delegate: AnyObject? = nil
  ) -> (any UIViewControllerAnimatedTransitioning)? {
    let delegate = delegate ?? delegateObject
    let selector = DelegateSelectors.animator
    guard let object = answering(delegate, selector) else {
      return (delegate as? any UINavigationControllerDelegate)?.navigationController(
        self, animationControllerFor: operation, from: from, to: to)
    }
    var answer: ObjCObject?
    send(object, selector) { () throws(ObjCRuntimeError) in
      answer = try objc_msgSend(
        object, selector, self as ObjCObject, operation.rawValue, from as ObjCObject,
        to as ObjCObject)
    }
    return SwiftObjectBox.unwrap(answer) as? any UIViewControllerAnimatedTransitioning
  }

  /// Asks `delegate` (by default this controller's) for the interaction controller of
  /// `animator` (`navigationController:interactionControllerForAnimationController:`), as
  /// ``tellWillShow(_:animated:to:)``.
  public func interactionController(
    for animator: any UIViewControllerAnimatedTransitioning,
    askingDelegate delegate: AnyObject? = nil
  ) -> (any UIViewControllerInteractiveTransitioning)? {
    let delegate = delegate ?? delegateObject
    let selector = DelegateSelectors.interaction
    guard let object = answering(delegate, selector) else {
      return (delegate as? any UINavigationControllerDelegate)?.navigationController(
        self, interactionControllerFor: animator)
    }
    var answer: ObjCObject?
    send(object, selector) { () throws(ObjCRuntimeError) in
      answer = try objc_msgSend(
        object, selector, self as ObjCObject, SwiftObjectBox.wrap(animator))
    }
    return SwiftObjectBox.unwrap(answer) as? any UIViewControllerInteractiveTransitioning
  }

  /// Runs a send to the delegate; a refused one is said through `Diagnostics` and changes
  /// nothing.
  private func send(
    _ object: ObjCObject, _ selector: Selector, _ body: () throws(ObjCRuntimeError) -> Void
  ) {
    do {
      try body()
    } catch {
      Diagnostics.warn("-[\(type(of: object)) \(selector)]", refused: error)
    }
  }
}

/// The selectors of `UINavigationControllerDelegate`, as the runtime sends them.
extension UINavigationController {
  /// The delegate's selectors.
  public enum DelegateSelectors {
    /// `navigationController:willShowViewController:animated:`.
    public static let willShow: Selector = "navigationController:willShowViewController:animated:"
    /// `navigationController:didShowViewController:animated:`.
    public static let didShow: Selector = "navigationController:didShowViewController:animated:"
    /// `navigationController:animationControllerForOperation:fromViewController:toViewController:`
    /// (the operation is an `NSInteger`: 0 none, 1 push, 2 pop).
    public static let animator: Selector =
      "navigationController:animationControllerForOperation:fromViewController:toViewController:"
    /// `navigationController:interactionControllerForAnimationController:`.
    public static let interaction: Selector =
      "navigationController:interactionControllerForAnimationController:"
  }
}
