// The seed's way: KJNavigationController, a subclass of UINavigationController that is its own
// delegate. An Objective-C subclass is a class the runtime knows; here it is made the way the
// runtime makes one at run time (objc_allocateClassPair, class_addMethod, then an instance whose
// isa is set to it), so that the process declares no Swift subclass of UINavigationController
// (the transparent-bar plugin's launch walk would take one as the signal to install itself).
import Foundation
public import ObjCRuntime
public import UIKitModel

/// KJNavigationController, as the seed wrote it: `viewDidLoad` sets `self.delegate = self` and
/// adds a left-edge pan; the delegate methods return ``KJPushAnimator`` and ``KJPopAnimator``
/// (``AnimatorMode/seed``) and the pan's `UIPercentDrivenInteractiveTransition`.
///
/// ```swift
/// let navigation = try KJNavigationController.make(rootViewController: home)
/// ```
public enum KJNavigationController {
  /// The class's name, `KJNavigationController`.
  public static let className = "KJNavigationController"

  /// The class, made and registered once.
  public static let runtimeClass: Result<Class, ObjCRuntimeError> = Result {
    () throws(ObjCRuntimeError) in
    let superclass = UINavigationController.runtimeClass
    guard let cls = objc_allocateClassPair(superclass, className, 0) else {
      throw .invalidDeclaration(
        className: className, reason: "the name is taken, or the superclass is unfinished")
    }
    do throws(ObjCRuntimeError) {
      try cls.addMethod("viewDidLoad", implementation: IMP(viewDidLoad), types: "v@:")
      try cls.addMethod(
        UINavigationController.DelegateSelectors.animator, implementation: IMP(animator),
        types: "@@:@q@@")
      try cls.addMethod(
        UINavigationController.DelegateSelectors.interaction, implementation: IMP(interaction),
        types: "@@:@@")
      try cls.addMethod(edgePanSelector, implementation: IMP(edgePan), types: "v@:@")
    } catch {
      objc_disposeClassPair(cls)
      throw error
    }
    objc_registerClassPair(cls)
    return cls
  }

  /// A KJNavigationController showing `rootViewController`.
  ///
  /// - Throws: the runtime's error if the class could not be made (its name taken).
  public static func make(rootViewController: UIViewController) throws(ObjCRuntimeError)
    -> UINavigationController
  {
    let cls = try runtimeClass.get()
    let navigation = UINavigationController(rootViewController: rootViewController)
    try navigation.setClass(cls)
    return navigation
  }

  /// `edgePanGesture:`.
  public static let edgePanSelector: Selector = "edgePanGesture:"

  private static let viewDidLoad: @convention(c) (id, SEL) -> Void = { me, _ in
    MainThread.assumeIsolated(with: me) { me in
      let navigation = me.receiver(as: UINavigationController.self)
      if case .success(let cls) = runtimeClass, let superclass = cls.superclass {
        try? objc_msgSendSuper(
          ObjCSuper(receiver: navigation, superclass: superclass), "viewDidLoad") as Void
      }
      // self.delegate = self
      try? objc_msgSend(navigation, "setDelegate:", navigation as ObjCObject) as Void
      // setupGesture
      let edgePan = UIScreenEdgePanGestureRecognizer(target: navigation, action: edgePanSelector)
      edgePan.edges = .left
      navigation.view.addGestureRecognizer(edgePan)
    }
  }

  private static let animator: @convention(c) (id, SEL, id?, Int, id?, id?) -> id? = {
    _, _, _, operation, _, _ in
    MainThread.assumeIsolated(with: operation) { operation in
      guard let operation = UINavigationControllerOperation(rawValue: operation),
        let animator = KJAnimator.animator(for: operation, mode: .seed) as? ObjCObject
      else { return nil }
      return animator.passRetained()
    }
  }

  private static let interaction: @convention(c) (id, SEL, id?, id?) -> id? = { me, _, _, _ in
    MainThread.assumeIsolated(with: me) { me in
      me.receiver(as: UINavigationController.self).kjInteractive?.passRetained()
    }
  }

  private static let edgePan: @convention(c) (id, SEL, id?) -> Void = { me, _, sender in
    MainThread.assumeIsolated(with: me, sender) { me, sender in
      guard let pan = sender?.takeUnretainedObject() as? UIPanGestureRecognizer else { return }
      me.receiver(as: UINavigationController.self).kjEdgePanGesture(pan)
    }
  }
}

/// The key of the interactive transition the edge pan drives (the seed's `interactive`
/// property).
private let interactiveKey = AssociatedKey<UIPercentDrivenInteractiveTransition?>()

extension UINavigationController {
  /// The interactive transition the edge pan drives, while it does.
  var kjInteractive: UIPercentDrivenInteractiveTransition? {
    get { self[interactiveKey] }
    set { self[interactiveKey] = newValue }
  }

  /// The seed's `edgePanGesture:`: the percent is `max(0, tx) / screen width`; the pan's
  /// beginning makes a linear percent-driven transition and pops; a change updates it; an end
  /// above 0.5 finishes, at or below cancels, and any other end cancels.
  ///
  /// The seed begins on the root controller too: it makes the transition, the pop pops
  /// nothing, and the updates drive a transition that never started (the model reports it).
  /// The plugin's pan does not begin there (``AnimatorTransitionPlugin``), and `fixed` (the
  /// plugin's) lets go of its transition when the pop did not take it (the app's delegate
  /// returned an animator of its own, which then runs by itself), and measures the finger
  /// against the width of the pan's view, not the screen's: in an iPad's sheet, narrower than
  /// the screen, the seed's swipe across 70 % of the sheet is under half the screen and cancels
  /// (`kj-sheet`).
  func kjEdgePanGesture(_ sender: UIPanGestureRecognizer, fixed: Bool = false) {
    let offsetX = max(0, sender.translation(in: sender.view).x)
    let screen = UIScreen.main.bounds.width
    let width = fixed ? max(1, sender.view?.bounds.width ?? screen) : screen
    let percent = offsetX / width
    switch sender.state {
    case .began:
      let interactive = UIPercentDrivenInteractiveTransition()
      interactive.completionCurve = .linear
      kjInteractive = interactive
      popViewController(animated: true)
      if fixed, topViewController?.transitionCoordinator?.isInteractive != true {
        kjInteractive = nil
      }
    case .changed:
      kjInteractive?.update(percent)
    case .ended:
      if percent > 0.5 {
        kjInteractive?.finish()
      } else {
        kjInteractive?.cancel()
      }
      kjInteractive = nil
    default:
      kjInteractive?.cancel()
      kjInteractive = nil
    }
  }
}
