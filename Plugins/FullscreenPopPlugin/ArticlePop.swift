// The NavigationInteractiveTransition article: a pan of its own on the navigation controller's
// view, NavigationInteractiveTransition as the delegate returning PopAnimation, driven by a
// percent-driven transition, and the bar's first subview faded by hand.
import Foundation
import Hooks
import ObjCRuntime
public import UIKitModel

// nonisolated: a direct subclass of ObjCObject, which in a main-actor target Swift 6.3 cannot
// make isolated (Docs/Porting.md, section 9); its model work is marked @MainActor.
/// The article's `PopAnimation`: 0.25 s, the leaving view translated off to the right, the
/// coming one under it.
nonisolated public final class PopAnimation: ObjCObject, UIViewControllerAnimatedTransitioning {
  /// 0.25 s.
  @MainActor public func transitionDuration(
    using transitionContext: (any UIViewControllerContextTransitioning)?
  ) -> TimeInterval { 0.25 }

  /// Moves the leaving view off to the right, then completes.
  @MainActor public func animateTransition(using context: any UIViewControllerContextTransitioning)
  {
    guard let fromView = context.view(forKey: .from), let toView = context.view(forKey: .to)
    else {
      context.completeTransition(!context.transitionWasCancelled)
      return
    }
    context.containerView.insertSubview(toView, belowSubview: fromView)
    UIView.animate(
      withDuration: transitionDuration(using: context),
      animations: {
        fromView.transform = CGAffineTransform(translationX: UIScreen.main.bounds.width, y: 0)
      },
      completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
  }
}

// nonisolated: a direct subclass of ObjCObject, which in a main-actor target Swift 6.3 cannot
// make isolated (Docs/Porting.md, section 9); its model work is marked @MainActor.
/// The article's `NavigationInteractiveTransition`: the navigation controller's delegate (its
/// two methods in its table, as the Objective-C class had them) and the target of the pan
/// (`handleControllerPop:`); here also the pan's delegate (`gestureRecognizerShouldBegin:`,
/// which the article's page B implemented).
nonisolated public final class NavigationInteractiveTransition: ObjCObject,
  UINavigationControllerDelegate,
  UIGestureRecognizerDelegate
{
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(NavigationInteractiveTransition.self) {
      ObjCMethodDeclaration("handleControllerPop:", NavigationInteractiveTransition.handle)
      ObjCMethodDeclaration(
        UINavigationController.DelegateSelectors.animator, NavigationInteractiveTransition.animator
      )
      ObjCMethodDeclaration(
        UINavigationController.DelegateSelectors.interaction,
        NavigationInteractiveTransition.interaction)
      ObjCMethodDeclaration(
        "gestureRecognizerShouldBegin:", NavigationInteractiveTransition.shouldBegin)
    }
  }

  /// The navigation controller.
  public private(set) weak var navigationController: UINavigationController?
  /// Whether the article's bugs are fixed.
  public let fixed: Bool
  /// The pan it added.
  public let pan: UIPanGestureRecognizer
  /// The transition the pan drives, while it does.
  public private(set) var interactivePopTransition: UIPercentDrivenInteractiveTransition?
  /// The delegate the controller had before.
  weak var previousDelegate: AnyObject?
  /// The pages of the swipe under way: the one being revealed and the one leaving (the fixed
  /// mode reads their own alphas).
  private weak var revealed: UIViewController?
  private weak var leaving: UIViewController?
  /// Whether the system's swipe-back was enabled before the set-up turned it off.
  var systemPanWasEnabled = true

  @MainActor init(_ navigation: UINavigationController, fixed: Bool) {
    pan = UIPanGestureRecognizer()
    navigationController = navigation
    self.fixed = fixed
    super.init()
    pan.maximumNumberOfTouches = 1
  }

  /// The article's `initWithViewController:`: takes the navigation controller's delegate.
  @MainActor static func made(for navigation: UINavigationController, fixed: Bool)
    -> NavigationInteractiveTransition
  {
    let transition = NavigationInteractiveTransition(navigation, fixed: fixed)
    transition.previousDelegate = navigation.delegateObject
    navigation.delegate = transition
    return transition
  }

  private static func me(_ me: id) -> NavigationInteractiveTransition {
    me.receiver(as: NavigationInteractiveTransition.self)
  }

  private static let handle: @convention(c) (id, SEL, id?) -> Void = { me, _, sender in
    MainThread.assumeIsolated(with: me, sender) { me, sender in
      guard let pan = sender?.takeUnretainedObject() as? UIPanGestureRecognizer else { return }
      NavigationInteractiveTransition.me(me).handleControllerPop(pan)
    }
  }

  private static let animator: @convention(c) (id, SEL, id?, Int, id?, id?) -> id? = {
    _, _, _, operation, _, _ in
    MainThread.assumeIsolated(with: operation) { operation in
      // Method 1: every pop gets the PopAnimation.
      operation == UINavigationControllerOperation.pop.rawValue
        ? PopAnimation().passRetained() : nil
    }
  }

  private static let interaction: @convention(c) (id, SEL, id?, id?) -> id? = {
    me, _, _, animator in
    MainThread.assumeIsolated(with: me, animator) { me, animator in
      // Method 2: the pan's transition drives a PopAnimation.
      guard animator?.takeUnretainedObject() is PopAnimation else { return nil }
      return NavigationInteractiveTransition.me(me).interactivePopTransition?.passRetained()
    }
  }

  private static let shouldBegin: @convention(c) (id, SEL, id?) -> Bool = { me, _, _ in
    MainThread.assumeIsolated(with: me) { me in
      NavigationInteractiveTransition.me(me).gestureShouldBegin()
    }
  }

  /// The article's `gestureRecognizerShouldBegin:`: not on the root controller, and not while
  /// a push or pop runs (`_isTransitioning`, read through key-value coding). The article sets
  /// `isGesturePop` before deciding, so a refused gesture leaves it set; the fixed mode sets it
  /// only when the gesture begins.
  @MainActor func gestureShouldBegin() -> Bool {
    guard let navigation = navigationController else { return false }
    if !fixed { ArticleDefaults.isGesturePop = true }
    let transitioning = (try? navigation.value(forKey: "_isTransitioning") as? Bool) ?? false
    let allowed = navigation.viewControllers.count != 1 && transitioning != true
    if fixed && allowed { ArticleDefaults.isGesturePop = true }
    return allowed
  }

  /// The article's `handleControllerPop:`: the progress is `tx / view width`; the bar's first
  /// subview takes `min(stored alpha, 1 − progress)`; began makes a percent-driven transition
  /// and pops, changed updates it, ended or cancelled finishes above 0.5 (setting the bar's
  /// alpha to 0) and cancels otherwise, exactly 0.5 included. The fixed mode reads the alpha of
  /// the page being revealed, not the one stored for all, ends with that page's alpha (or the
  /// leaving page's on a cancel), cancels a gesture the system cancelled, and resets
  /// `isGesturePop` however the gesture ends.
  @MainActor func handleControllerPop(_ recognizer: UIPanGestureRecognizer) {
    guard let navigation = navigationController, let view = recognizer.view else { return }
    var progress = recognizer.translation(in: view).x / max(1, view.bounds.width)
    if recognizer.state == .began, navigation.viewControllers.count > 1 {
      revealed = navigation.viewControllers[navigation.viewControllers.count - 2]
      leaving = navigation.topViewController
    }
    // The article fades the bar on every swipe; the fixed mode only when one of the two pages
    // keeps a bar alpha of its own (a swipe between two opaque pages leaves the bar alone).
    let managesBar =
      !fixed || revealed?.hasArticleBarAlpha == true || leaving?.hasArticleBarAlpha == true
    let bar = navigation.navigationBar
    let barImageView = managesBar ? bar.subviews.first : nil
    if managesBar {
      bar.setBackgroundImage(UIImage(), for: .default)
      bar.shadowImage = UIImage()
    }
    let alpha = fixed ? (revealed?.articleBarAlpha ?? 1) : CGFloat(ArticleDefaults.alpha)
    barImageView?.alpha = 1 - progress > alpha ? alpha : 1 - progress
    progress = min(1, max(0, progress))
    switch recognizer.state {
    case .began:
      interactivePopTransition = UIPercentDrivenInteractiveTransition()
      navigation.popViewController(animated: true)
    case .changed:
      interactivePopTransition?.update(progress)
    case .ended, .cancelled:
      // Above half way the pop finishes; exactly 0.5 cancels. The article finishes a gesture
      // the system cancelled too; the fixed mode cancels it.
      let finishing = progress > 0.5 && (recognizer.state == .ended || !fixed)
      if finishing {
        interactivePopTransition?.finish()
        barImageView?.alpha = fixed ? (revealed?.articleBarAlpha ?? 1) : 0
      } else {
        interactivePopTransition?.cancel()
        if fixed { barImageView?.alpha = leaving?.articleBarAlpha ?? 1 }
      }
      interactivePopTransition = nil
      if fixed { ArticleDefaults.isGesturePop = false }
    default: break
    }
  }
}

/// The article's `NSUserDefaults` keys: `_alpha`, the transparent page's alpha (one for every
/// page), and `isGesturePop`.
public enum ArticleDefaults {
  /// `_alpha`.
  public static var alpha: Float {
    get { NSUserDefaults.standard.float(forKey: "_alpha") }
    set { NSUserDefaults.standard.set(newValue, forKey: "_alpha") }
  }

  /// `isGesturePop`.
  public static var isGesturePop: Bool {
    get { NSUserDefaults.standard.bool(forKey: "isGesturePop") }
    set { NSUserDefaults.standard.set(newValue, forKey: "isGesturePop") }
  }
}

private let articleAlphaKey = AssociatedKey<CGFloat?>()

extension UIViewController {
  /// The bar alpha this page shows, as the fixed mode keeps it for each page (the article kept
  /// one `_alpha` for all, in the user defaults); 1 unless the page set it. NaN is refused.
  public var articleBarAlpha: CGFloat {
    get { self[articleAlphaKey] ?? 1 }
    set {
      guard !newValue.isNaN else { return }
      self[articleAlphaKey] = max(0, min(1, newValue))
    }
  }

  /// Whether the page set ``articleBarAlpha``: the fixed mode fades the bar only for such pages.
  public var hasArticleBarAlpha: Bool { self[articleAlphaKey] != nil }
}

private let articleKey = AssociatedKey<NavigationInteractiveTransition?>()

/// The article's page B, the page with the ordinary bar that the article's swipe pops: in
/// ``PopTechnique/articleSeed`` its `viewDidLoad` does what the article's does, with the page as
/// the pan's delegate: it turns the system's swipe-back off, adds a `UIPanGestureRecognizer` of
/// its own to the gesture's view, makes a ``NavigationInteractiveTransition`` (which takes the
/// navigation controller's delegate) the pan's target, and keeps it. Its
/// `gestureRecognizerShouldBegin:` is the article's: `isGesturePop` set first, then no pop on
/// the root nor during a transition. So every B pushed adds one more pan, and the pan of a B
/// that was popped stays on the view. In the other techniques it is a plain page (the
/// plugin's fixed article technique sets up once per navigation controller instead).
public final class ArticlePopPage: UIViewController, UIGestureRecognizerDelegate {
  nonisolated public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(ArticlePopPage.self) {
      ObjCMethodDeclaration("gestureRecognizerShouldBegin:", ArticlePopPage.shouldBegin)
    }
  }

  /// The article's `navT`, held by the page.
  public private(set) var navT: NavigationInteractiveTransition?
  /// The pan the page added, once its view loaded in the seed technique.
  public private(set) var popRecognizer: UIPanGestureRecognizer?

  public override func viewDidLoad() {
    super.viewDidLoad()
    guard FullscreenPopPlugin.technique.value == .articleSeed, FullscreenPopPlugin.isOn,
      let navigation = navigationController
    else { return }
    let gesture = navigation.interactivePopGestureRecognizer
    ArticlePop.adopt(navigation, systemPanWasEnabled: gesture?.isEnabled ?? true)
    gesture?.isEnabled = false
    let gestureView = gesture?.view ?? navigation.view
    let popRecognizer = UIPanGestureRecognizer()
    popRecognizer.delegate = self
    popRecognizer.maximumNumberOfTouches = 1
    gestureView?.addGestureRecognizer(popRecognizer)
    let navT = NavigationInteractiveTransition.made(for: navigation, fixed: false)
    popRecognizer.addTarget(navT, action: "handleControllerPop:")
    ArticlePop.note(popRecognizer, on: navigation)
    self.navT = navT
    self.popRecognizer = popRecognizer
  }

  nonisolated private static let shouldBegin: @convention(c) (id, SEL, id?) -> Bool = { me, _, _ in
    MainThread.assumeIsolated(with: me) { me in
      me.receiver(as: ArticlePopPage.self).articleShouldBegin()
    }
  }

  /// The article's `gestureRecognizerShouldBegin:` of page B.
  func articleShouldBegin() -> Bool {
    ArticleDefaults.isGesturePop = true
    guard let navigation = navigationController else { return false }
    let transitioning = (try? navigation.value(forKey: "_isTransitioning") as? Bool) ?? false
    return navigation.viewControllers.count != 1 && transitioning != true
  }
}

private let pagePansKey = AssociatedKey<[UIPanGestureRecognizer]>(default: [])
private let systemPanKey = AssociatedKey<Bool?>()
/// The delegate the navigation controller had before the first page B took it (weakly).
private let appDelegateKey = AssociatedKey<WeakDelegate?>()

/// A delegate held weakly, as a navigation controller holds its own.
private final class WeakDelegate {
  weak var delegate: AnyObject?
  init(_ delegate: AnyObject?) { self.delegate = delegate }
}

/// Sets the article's machinery up on navigation controllers, and takes it off.
enum ArticlePop {
  /// A navigation controller whose page B set the article up (the seed technique): noted, with
  /// whether its system swipe-back was on before the first B turned it off.
  static func adopt(_ navigation: UINavigationController, systemPanWasEnabled: Bool) {
    if navigation[systemPanKey] == nil {
      navigation[systemPanKey] = systemPanWasEnabled
      navigation[appDelegateKey] = WeakDelegate(navigation.delegateObject)
    }
    adopted.note(navigation) { navigation in MainThread.assumeIsolated { release(navigation) } }
  }

  /// A pan a page B added to `navigation`'s gesture view.
  static func note(_ pan: UIPanGestureRecognizer, on navigation: UINavigationController) {
    navigation[pagePansKey] = navigation[pagePansKey] + [pan]
  }

  /// The controllers set up, held weakly, each with how to give it back.
  private static let adopted = PluginChanges<UINavigationController>()

  /// The article's `viewDidLoad` of page B, for `navigation`: the system's swipe-back off, a
  /// pan on its view whose target and delegate is a `NavigationInteractiveTransition`, which
  /// becomes the controller's delegate.
  static func setUp(_ navigation: UINavigationController, fixed: Bool) {
    guard navigation[articleKey] == nil else { return }
    let transition = NavigationInteractiveTransition(navigation, fixed: fixed)
    navigation[articleKey] = transition
    adopted.note(navigation) { navigation in MainThread.assumeIsolated { release(navigation) } }
    let gesture = navigation.interactivePopGestureRecognizer
    transition.systemPanWasEnabled = gesture?.isEnabled ?? true
    gesture?.isEnabled = false
    let gestureView = gesture?.view ?? navigation.view
    transition.pan.delegate = transition
    gestureView?.addGestureRecognizer(transition.pan)
    transition.pan.addTarget(transition, action: "handleControllerPop:")
    transition.previousDelegate = navigation.delegateObject
    navigation.delegate = transition
  }

  /// Takes the pans off, turns the system's swipe-back on and gives the delegates back.
  static func releaseAll() {
    adopted.undoAll()
  }

  /// Gives `navigation` back what the technique changed.
  private static func release(_ navigation: UINavigationController) {
    // The seed's: the pans its pages B added, and the delegate their transitions took.
    for pan in navigation[pagePansKey] { pan.view?.removeGestureRecognizer(pan) }
    navigation[pagePansKey] = []
    if let wasEnabled = navigation[systemPanKey] {
      navigation.interactivePopGestureRecognizer?.isEnabled = wasEnabled
      navigation[systemPanKey] = nil
      if navigation.delegateObject is NavigationInteractiveTransition {
        // The app's delegate from before the first page B, as the fixed technique gives it.
        let previous = navigation[appDelegateKey]?.delegate.map { SwiftObjectBox.wrap($0) }
        try? objc_msgSend(navigation, "setDelegate:", previous) as Void
      }
      navigation[appDelegateKey] = nil
    }
    guard let transition = navigation[articleKey] else { return }
    transition.pan.view?.removeGestureRecognizer(transition.pan)
    navigation.interactivePopGestureRecognizer?.isEnabled = transition.systemPanWasEnabled
    if navigation.delegateObject === transition {
      let previous = transition.previousDelegate.map { SwiftObjectBox.wrap($0) }
      try? objc_msgSend(navigation, "setDelegate:", previous) as Void
    }
    navigation[articleKey] = nil
  }
}
