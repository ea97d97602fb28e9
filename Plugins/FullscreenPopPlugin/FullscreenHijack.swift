// FDFullscreenPopGesture's hijack: a full-screen pan aimed at the system gesture's own private
// target, so that the system's interactive pop runs from anywhere on the screen.
import Foundation
import Hooks
import ObjCRuntime
public import UIKitModel

/// Why the hijack did not install on a navigation controller.
public enum FullscreenPopError: Error, Equatable, CustomStringConvertible {
  /// The system gesture has no target to take (`value(forKey: "targets")` gave an empty list or
  /// none): a profile without the private machinery. Nothing was changed.
  case noSystemTarget(navigationController: String)

  /// What happened and what to do.
  public var description: String {
    switch self {
    case .noSystemTarget(let navigation):
      "the swipe-back gesture of \(navigation) has no private target to hijack (its \"targets\""
        + " list is empty); the hijack was not installed and the system gesture is unchanged."
        + " Use the article technique on this profile"
    }
  }
}

// nonisolated: a direct subclass of ObjCObject, which in a main-actor target Swift 6.3 cannot
// make isolated (Docs/Porting.md, section 9); its model work is marked @MainActor.
/// The hijacking pan's delegate, FDFullscreenPopGesture's `_FDFullscreenPopGestureRecognizerDelegate`:
/// no pop on the root controller, nor when the top page disabled it, nor from farther than the
/// page allows from the left edge, nor while a transition runs (`_isTransitioning`, read through
/// key-value coding), nor when the finger's first move is to the left (asked once the finger
/// has moved, so `translation(in:)` says where it went). The model's layout runs left to right.
nonisolated public final class FullscreenPopGestureDelegate: ObjCObject, UIGestureRecognizerDelegate
{
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(FullscreenPopGestureDelegate.self) {
      ObjCMethodDeclaration("gestureRecognizerShouldBegin:", FullscreenPopGestureDelegate.begin)
    }
  }

  /// The navigation controller.
  public private(set) weak var navigationController: UINavigationController?
  /// The full-screen pan.
  public let pan: UIPanGestureRecognizer
  /// Whether the system's swipe-back was enabled before the hijack turned it off.
  var systemPanWasEnabled = true

  @MainActor init(_ navigation: UINavigationController) {
    navigationController = navigation
    pan = UIPanGestureRecognizer()
    super.init()
  }

  private static let begin: @convention(c) (id, SEL, id?) -> Bool = { me, _, sender in
    MainThread.assumeIsolated(with: me, sender) { me, sender in
      let pan = sender?.takeUnretainedObject() as? UIPanGestureRecognizer
      return me.receiver(as: FullscreenPopGestureDelegate.self).shouldBegin(pan)
    }
  }

  /// FDFullscreenPopGesture's `gestureRecognizerShouldBegin:`, check for check.
  @MainActor func shouldBegin(_ pan: UIPanGestureRecognizer?) -> Bool {
    guard let navigation = navigationController, navigation.viewControllers.count > 1,
      let top = navigation.viewControllers.last, !top.fdInteractivePopDisabled
    else { return false }
    let beginning = pan?.location(in: pan?.view) ?? .zero
    let maxDistance = top.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge
    if maxDistance > 0 && beginning.x > maxDistance { return false }
    let transitioning = (try? navigation.value(forKey: "_isTransitioning") as? Bool) ?? false
    if transitioning == true { return false }
    let translation = pan?.translation(in: pan?.view) ?? .zero
    return translation.x > 0
  }
}

private let disabledKey = AssociatedKey<Bool>(default: false)
private let hijackKey = AssociatedKey<FullscreenPopGestureDelegate?>()
/// Whether the hijack already declined on a controller (it says so once).
private let declinedKey = AssociatedKey<Bool>(default: false)

extension UIViewController {
  /// Whether the full-screen pop is off while this page is on top (FDFullscreenPopGesture's
  /// `fd_interactivePopDisabled`); false unless set.
  public var fdInteractivePopDisabled: Bool {
    get { self[disabledKey] }
    set { self[disabledKey] = newValue }
  }
}

extension UINavigationController {
  /// The full-screen pan the hijack added (FDFullscreenPopGesture's
  /// `fd_fullscreenPopGestureRecognizer`); nil until the hijack set this controller up, at its
  /// first push.
  public var fdFullscreenPopGestureRecognizer: UIPanGestureRecognizer? { self[hijackKey]?.pan }
}

/// Sets the hijack up on navigation controllers, and takes it off.
enum FullscreenHijack {
  private static let adopted = PluginChanges<UINavigationController>()

  /// FDFullscreenPopGesture's swizzled push, before the original: once per controller, a pan on
  /// the system gesture's view whose target is the system gesture's own first target (read with
  /// `value(forKey: "targets")`, then `value(forKey: "target")`) and whose action is the private
  /// `handleNavigationTransition:`; the system gesture is turned off.
  ///
  /// - Throws: ``FullscreenPopError/noSystemTarget(navigationController:)`` when there is no
  ///   target to take; nothing is changed then.
  static func setUp(_ navigation: UINavigationController) throws(FullscreenPopError) {
    guard navigation[hijackKey] == nil, !navigation[declinedKey],
      let system = navigation.interactivePopGestureRecognizer
    else { return }
    guard let targets = try? system.value(forKey: "targets") as? [ObjCObject],
      let entry = targets.first,
      let target = (try? entry.value(forKey: "target")) as? ObjCObject
    else {
      navigation[declinedKey] = true
      throw .noSystemTarget(navigationController: "\(navigation)")
    }
    let delegate = FullscreenPopGestureDelegate(navigation)
    navigation[hijackKey] = delegate
    adopted.note(navigation) { navigation in MainThread.assumeIsolated { release(navigation) } }
    delegate.systemPanWasEnabled = system.isEnabled
    delegate.pan.delegate = delegate
    delegate.pan.maximumNumberOfTouches = 1
    delegate.pan.addTarget(target, action: "handleNavigationTransition:")
    (system.view ?? navigation.view)?.addGestureRecognizer(delegate.pan)
    system.isEnabled = false
  }

  /// Takes the pans off and turns the system's swipe-back on.
  static func releaseAll() {
    adopted.undoAll()
  }

  /// Takes `navigation`'s pan off and turns its system swipe-back back on.
  private static func release(_ navigation: UINavigationController) {
    guard let delegate = navigation[hijackKey] else { return }
    delegate.pan.view?.removeGestureRecognizer(delegate.pan)
    navigation.interactivePopGestureRecognizer?.isEnabled = delegate.systemPanWasEnabled
    navigation[hijackKey] = nil
  }
}
