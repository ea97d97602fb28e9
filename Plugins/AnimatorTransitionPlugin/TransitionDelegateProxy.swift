// The proxy the plugin puts in as each navigation controller's delegate: the plugin's animators
// and edge pan, and the app's delegate inside, forwarded to.
import Foundation
public import ObjCRuntime
public import UIKitModel

// nonisolated: a direct subclass of ObjCObject, which in a main-actor target Swift 6.3 cannot
// make isolated (Docs/Porting.md, section 9); its model work is marked @MainActor.
/// The delegate the plugin gives a navigation controller whose view loads while the plugin is
/// installed. It answers the delegate's four
/// messages: `willShow` and `didShow` go on to the app's delegate (``inner``); for an animator
/// or an interaction controller the app's delegate is asked first, and the plugin's
/// (``KJPushAnimator`` / ``KJPopAnimator`` in ``AnimatorMode/fixed``, and the edge pan's
/// transition) are used when it has none. It is also the edge pan's delegate: the pan does not
/// begin on the root controller or during a transition.
nonisolated public final class TransitionDelegateProxy: ObjCObject, UINavigationControllerDelegate,
  UIGestureRecognizerDelegate
{
  /// The navigation controller it serves.
  public private(set) weak var navigationController: UINavigationController?
  /// The app's delegate, held weakly as the navigation controller holds its delegate.
  public internal(set) weak var inner: AnyObject?
  /// The left-edge pan the plugin added.
  public let edgePan: UIScreenEdgePanGestureRecognizer
  /// Whether the system's swipe-back was enabled before the proxy turned it off.
  private var systemPanWasEnabled = true

  // The proxies, held strongly here while the plugin is installed (a delegate is held weakly),
  // behind a `RuntimeLock` of their own so that the table itself is never torn. The proxies and their
  // controllers are the model's, which runs on the main thread: install, use and uninstall
  // the plugin there (the registry's calls do, in tests and the lab).
  private static let proxies = RuntimeLock<[ObjectIdentifier: TransitionDelegateProxy]>([:])

  @MainActor private init(_ navigation: UINavigationController) {
    navigationController = navigation
    inner = navigation.delegateObject
    edgePan = UIScreenEdgePanGestureRecognizer()
    super.init()
    edgePan.edges = .left
    edgePan.delegate = self
  }

  /// The proxy serving `navigation`, if the plugin adopted it.
  public static func proxy(of navigation: UINavigationController) -> TransitionDelegateProxy? {
    let proxy = proxies.withLock { $0[ObjectIdentifier(navigation)] }
    return proxy?.navigationController === navigation ? proxy : nil
  }

  /// Puts a proxy in as `navigation`'s delegate (its current delegate inside) and adds the edge
  /// pan; a controller adopted already is left as it is.
  @MainActor static func adopt(_ navigation: UINavigationController) {
    guard proxy(of: navigation) == nil else { return }
    let proxy = TransitionDelegateProxy(navigation)
    proxies.withLock { proxies in
      // Controllers that are gone leave their proxies behind: drop them.
      proxies = proxies.filter { $0.value.navigationController != nil }
      proxies[ObjectIdentifier(navigation)] = proxy
    }
    navigation.delegate = proxy
    navigation.view.addGestureRecognizer(proxy.edgePan)
    proxy.edgePan.addTarget(proxy, action: "edgePan:")
    // The plugin's pan replaces the system's swipe-back while the controller is adopted.
    if let system = navigation.interactivePopGestureRecognizer {
      proxy.systemPanWasEnabled = system.isEnabled
      system.isEnabled = false
    }
  }

  /// Gives every adopted controller its app's delegate back and takes the edge pans off.
  @MainActor static func releaseAll() {
    let all = proxies.withLock { proxies in
      defer { proxies.removeAll() }
      return Array(proxies.values)
    }
    for proxy in all {
      guard let navigation = proxy.navigationController else { continue }
      navigation.view.removeGestureRecognizer(proxy.edgePan)
      navigation.interactivePopGestureRecognizer?.isEnabled = proxy.systemPanWasEnabled
      if navigation.delegateObject === proxy {
        let inner = proxy.inner.map { SwiftObjectBox.wrap($0) }
        try? objc_msgSend(navigation, "setDelegate:", inner) as Void
      }
    }
  }

  /// The edge pan's action, and the delegate's four methods in the table (as an Objective-C
  /// delegate has them), so that the navigation controller asks the proxy through the runtime:
  /// a `trace` shows it and a hook can reach it.
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(TransitionDelegateProxy.self) {
      ObjCMethodDeclaration("edgePan:", TransitionDelegateProxy.edgePanAction)
      ObjCMethodDeclaration(
        UINavigationController.DelegateSelectors.willShow, TransitionDelegateProxy.willShow)
      ObjCMethodDeclaration(
        UINavigationController.DelegateSelectors.didShow, TransitionDelegateProxy.didShow)
      ObjCMethodDeclaration(
        UINavigationController.DelegateSelectors.animator, TransitionDelegateProxy.animator)
      ObjCMethodDeclaration(
        UINavigationController.DelegateSelectors.interaction, TransitionDelegateProxy.interaction)
    }
  }

  private typealias Shown = @convention(c) (id, SEL, id?, id?, Bool) -> Void

  /// The arguments of a delegate message: the proxy, the navigation controller, a controller.
  @MainActor private static func arguments(_ me: id, _ navigation: id?, _ controller: id?)
    -> (TransitionDelegateProxy, UINavigationController, UIViewController)?
  {
    guard let navigation = navigation?.takeUnretainedObject() as? UINavigationController,
      let controller = controller?.takeUnretainedObject() as? UIViewController
    else { return nil }
    return (me.receiver(as: TransitionDelegateProxy.self), navigation, controller)
  }

  private static let willShow: Shown = { me, _, navigation, controller, animated in
    MainThread.assumeIsolated(with: me, navigation, controller, animated) {
      me, navigation, controller, animated in
      guard let (proxy, navigation, controller) = arguments(me, navigation, controller) else {
        return
      }
      proxy.navigationController(navigation, willShow: controller, animated: animated)
    }
  }

  private static let didShow: Shown = { me, _, navigation, controller, animated in
    MainThread.assumeIsolated(with: me, navigation, controller, animated) {
      me, navigation, controller, animated in
      guard let (proxy, navigation, controller) = arguments(me, navigation, controller) else {
        return
      }
      proxy.navigationController(navigation, didShow: controller, animated: animated)
    }
  }

  private static let animator: @convention(c) (id, SEL, id?, Int, id?, id?) -> id? = {
    me, _, navigation, operation, from, to in
    MainThread.assumeIsolated(with: me, navigation, operation, from, to) {
      me, navigation, operation, from, to in
      guard let (proxy, navigation, from) = arguments(me, navigation, from),
        let to = to?.takeUnretainedObject() as? UIViewController,
        let operation = UINavigationControllerOperation(rawValue: operation)
      else { return nil }
      let animator = proxy.navigationController(
        navigation, animationControllerFor: operation, from: from, to: to)
      return animator.map { SwiftObjectBox.wrap($0) }?.passRetained()
    }
  }

  private static let interaction: @convention(c) (id, SEL, id?, id?) -> id? = {
    me, _, navigation, animator in
    MainThread.assumeIsolated(with: me, navigation, animator) { me, navigation, animator in
      guard let navigation = navigation?.takeUnretainedObject() as? UINavigationController,
        let animator = SwiftObjectBox.unwrap(animator?.takeUnretainedObject())
          as? any UIViewControllerAnimatedTransitioning
      else { return nil }
      let proxy = me.receiver(as: TransitionDelegateProxy.self)
      let interaction = proxy.navigationController(navigation, interactionControllerFor: animator)
      return interaction.map { SwiftObjectBox.wrap($0) }?.passRetained()
    }
  }

  private static let edgePanAction: @convention(c) (id, SEL, id?) -> Void = { me, _, sender in
    MainThread.assumeIsolated(with: me, sender) { me, sender in
      let proxy = me.receiver(as: TransitionDelegateProxy.self)
      guard let pan = sender?.takeUnretainedObject() as? UIPanGestureRecognizer,
        let navigation = proxy.navigationController
      else { return }
      navigation.kjEdgePanGesture(pan, fixed: true)
    }
  }

  // MARK: The delegate's messages

  /// Forwards to the app's delegate.
  public func navigationController(
    _ navigationController: UINavigationController, willShow viewController: UIViewController,
    animated: Bool
  ) {
    guard let inner else { return }
    navigationController.tellWillShow(viewController, animated: animated, to: inner)
  }

  /// Forwards to the app's delegate.
  public func navigationController(
    _ navigationController: UINavigationController, didShow viewController: UIViewController,
    animated: Bool
  ) {
    guard let inner else { return }
    navigationController.tellDidShow(viewController, animated: animated, to: inner)
  }

  /// The app's delegate's animator, else the plugin's.
  public func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationControllerOperation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? {
    if let inner,
      let animator = navigationController.animator(
        for: operation, from: fromVC, to: toVC, askingDelegate: inner)
    {
      return animator
    }
    return KJAnimator.animator(for: operation, mode: .fixed)
  }

  /// The app's delegate's interaction controller for an animator of its own; the edge pan's
  /// transition for the plugin's.
  public func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)? {
    if animationController is KJAnimator {
      return navigationController.kjInteractive
    }
    guard let inner else { return nil }
    return navigationController.interactionController(
      for: animationController, askingDelegate: inner)
  }

  // MARK: The edge pan's delegate

  /// The pan begins only with a controller to go back to and no transition under way.
  public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
    guard let navigation = navigationController else { return false }
    return navigation.viewControllers.count > 1 && !navigation.isTransitioning
  }
}
