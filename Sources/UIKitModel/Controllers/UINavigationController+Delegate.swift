// The navigation controller's delegate, told and asked through the runtime: a plugin can hook
// the delegate's methods, and an object that answers the selectors without the Swift protocol
// is honoured, as in Objective-C.
import Foundation
import ObjCRuntime

extension UINavigationController {
  /// The delegate as an object whose class's table has `selector`, if it is one.
  private func delegateAnswering(_ selector: Selector) -> ObjCObject? {
    guard let object = delegateObject as? ObjCObject, object.responds(to: selector) else {
      return nil
    }
    return object
  }

  /// Tells the delegate `navigationController:willShowViewController:animated:`.
  func tellDelegateWillShow(_ controller: UIViewController, animated: Bool) {
    let selector = DelegateSelectors.willShow
    if let object = delegateAnswering(selector) {
      send(object, selector) { () throws(ObjCRuntimeError) in
        try objc_msgSend(
          object, selector, self as ObjCObject, controller as ObjCObject, animated) as Void
      }
    } else {
      delegate?.navigationController(self, willShow: controller, animated: animated)
    }
  }

  /// Tells the delegate `navigationController:didShowViewController:animated:`.
  func tellDelegateDidShow(_ controller: UIViewController, animated: Bool) {
    let selector = DelegateSelectors.didShow
    if let object = delegateAnswering(selector) {
      send(object, selector) { () throws(ObjCRuntimeError) in
        try objc_msgSend(
          object, selector, self as ObjCObject, controller as ObjCObject, animated) as Void
      }
    } else {
      delegate?.navigationController(self, didShow: controller, animated: animated)
    }
  }

  /// Asks the delegate for the animator of `operation` from `from` to `to`
  /// (`navigationController:animationControllerForOperation:fromViewController:toViewController:`);
  /// nil for the default slide. An object that is not an animator counts as nil.
  func askDelegateAnimator(
    _ operation: UINavigationControllerOperation, from: UIViewController, to: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? {
    let selector = DelegateSelectors.animator
    guard let object = delegateAnswering(selector) else {
      return delegate?.navigationController(
        self, animationControllerFor: operation, from: from, to: to)
    }
    var answer: ObjCObject?
    send(object, selector) { () throws(ObjCRuntimeError) in
      answer = try objc_msgSend(
        object, selector, self as ObjCObject, operation.rawValue, from as ObjCObject,
        to as ObjCObject)
    }
    return answer as? any UIViewControllerAnimatedTransitioning
  }

  /// Asks the delegate for the interaction controller of `animator`
  /// (`navigationController:interactionControllerForAnimationController:`).
  func askDelegateInteraction(for animator: any UIViewControllerAnimatedTransitioning)
    -> (any UIViewControllerInteractiveTransitioning)?
  {
    let selector = DelegateSelectors.interaction
    guard let object = delegateAnswering(selector), let animatorObject = animator as? ObjCObject
    else {
      return delegate?.navigationController(self, interactionControllerFor: animator)
    }
    var answer: ObjCObject?
    send(object, selector) { () throws(ObjCRuntimeError) in
      answer = try objc_msgSend(object, selector, self as ObjCObject, animatorObject)
    }
    return answer as? any UIViewControllerInteractiveTransitioning
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
