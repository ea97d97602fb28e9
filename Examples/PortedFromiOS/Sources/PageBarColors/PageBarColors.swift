// PageBarColors.swift, ported to Linux from iOS/PageBarColors.swift with only the changes Linux
// Swift forces (no Objective-C interoperability); each is marked "Linux:" and its idiom is in
// Docs/Porting.md. A test counts them.
//
// Each page says which colour the navigation bar has behind it; the bar shows the top page's
// colour, and blends from one page's colour to the other's while a swipe-back is under way.
// The technique is the seeds': associated objects on UIKit's classes, a colour view inserted in
// the bar's background, methods exchanged once in a `static let`, woken by a walk of the class
// list from `UIApplication.next`.
// The methods carry the seeds' prefixes (pbc_), which the linter's naming rule would refuse.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

import Hooks  // Linux: the hook that stands for the override of `next`
import UIKit

// MARK: - The values each page keeps

private struct PageBarKeys {
  static var color: UInt8 = 0
  static var colorView: UInt8 = 0
  static var registered: UInt8 = 0
}

extension UIViewController {
  /// The colour of the bar while this page is on top; white unless set.
  public var pageBarColor: UIColor {
    get {
      objc_getAssociatedObject(self, &PageBarKeys.color) as? UIColor ?? .white
    }
    set {
      objc_setAssociatedObject(
        self, &PageBarKeys.color, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      if navigationController?.topViewController === self {
        navigationController?.navigationBar.paintPageColor(newValue)
      }
    }
  }

  // Linux: no @objc; exposed to the runtime where the exchange is made.
  func pbc_viewWillAppear(_ animated: Bool) {
    try? objc_msgSend(self, "pbc_viewWillAppear:", animated)  // Linux: a send, not a call
    guard let navigation = navigationController, navigation is PageColorNavigationController
    else { return }
    navigation.navigationBar.paintPageColor(pageBarColor)
  }
}

// MARK: - The colour view in the bar's background

extension UINavigationBar {
  fileprivate var pageColorView: UIView? {
    get { objc_getAssociatedObject(self, &PageBarKeys.colorView) as? UIView }
    set {
      objc_setAssociatedObject(
        self, &PageBarKeys.colorView, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    }
  }

  /// Paints `color` behind the bar's content, in a view of its own at the bottom of the bar's
  /// background view (`_UIBarBackground`, the bar's first subview).
  fileprivate func paintPageColor(_ color: UIColor) {
    if pageColorView == nil {
      setBackgroundImage(UIImage(), for: .default)
      let colorView = UIView(frame: CGRect(x: 0, y: 0, width: bounds.width, height: bounds.height))
      colorView.autoresizingMask = .flexibleWidth
      subviews.first?.insertSubview(colorView, at: 0)
      pageColorView = colorView
    }
    pageColorView?.backgroundColor = color
  }
}

// MARK: - Blending during a swipe-back

/// The colour `fraction` of the way from `from` to `to`, component by component.
private func blend(_ from: UIColor, _ to: UIColor, _ fraction: CGFloat) -> UIColor {
  var (r1, g1, b1, a1): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
  var (r2, g2, b2, a2): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
  from.getRed(&r1, green: &g1, blue: &b1, alpha: &a1)
  to.getRed(&r2, green: &g2, blue: &b2, alpha: &a2)
  return UIColor(
    red: r1 + (r2 - r1) * fraction, green: g1 + (g2 - g1) * fraction,
    blue: b1 + (b2 - b1) * fraction, alpha: a1 + (a2 - a1) * fraction)
}

extension UINavigationController {
  func pbc_updateInteractiveTransition(_ percentComplete: CGFloat) {  // Linux: no @objc
    try? objc_msgSend(self, "pbc_updateInteractiveTransition:", percentComplete)  // Linux
    guard self is PageColorNavigationController,
      let coordinator = topViewController?.transitionCoordinator,
      let from = coordinator.viewController(forKey: .from),
      let to = coordinator.viewController(forKey: .to)
    else { return }
    navigationBar.paintPageColor(blend(from.pageBarColor, to.pageBarColor, percentComplete))
    // Once per transition: when the finger lifts, settle on the page that will be on top.
    if objc_getAssociatedObject(coordinator, &PageBarKeys.registered) == nil {
      objc_setAssociatedObject(
        coordinator, &PageBarKeys.registered, true, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      coordinator.notifyWhenInteractionChanges { [weak self] context in
        let page = context.isCancelled ? from : to
        self?.navigationBar.paintPageColor(page.pageBarColor)
      }
    }
  }

  func pbc_pushViewController(_ viewController: UIViewController, animated: Bool) {  // Linux
    try? objc_msgSend(self, "pbc_pushViewController:animated:", viewController, animated)  // Linux
    if self is PageColorNavigationController {
      navigationBar.paintPageColor(viewController.pageBarColor)
    }
  }

  /// Exchanges the methods once, whoever asks first.
  fileprivate static let exchangeOnce: Void = {
    // Linux: what @objc did, one line per method.
    _ = try? UIViewController.exposeMethod(
      "pbc_viewWillAppear:", UIViewController.pbc_viewWillAppear)
    _ = try? UINavigationController.exposeMethod(
      "pbc_updateInteractiveTransition:", UINavigationController.pbc_updateInteractiveTransition)
    _ = try? UINavigationController.exposeMethod(
      "pbc_pushViewController:animated:", UINavigationController.pbc_pushViewController)
    let exchanges: [(AnyClass, Selector, Selector)] = [
      (
        UINavigationController.self, NSSelectorFromString("_updateInteractiveTransition:"),
        "pbc_updateInteractiveTransition:"  // Linux: a selector literal
      ),
      (
        UINavigationController.self, "pushViewController:animated:",  // Linux
        "pbc_pushViewController:animated:"  // Linux
      ),
      (
        UIViewController.self, "viewWillAppear:",  // Linux
        "pbc_viewWillAppear:"  // Linux
      ),
    ]
    for exchange in exchanges {
      guard let originalMethod = class_getInstanceMethod(exchange.0, exchange.1),
        let replacementMethod = class_getInstanceMethod(exchange.0, exchange.2)
      else { continue }
      method_exchangeImplementations(originalMethod, replacementMethod)
    }
  }()
}

/// The navigation controller whose bars show the pages' colours.
open class PageColorNavigationController: UINavigationController {}

// MARK: - Waking up without being called: the class list, from UIApplication.next

private protocol SelfAware: AnyObject {
  static func awake()
}

extension PageColorNavigationController: SelfAware {
  static func awake() {
    guard self === PageColorNavigationController.self else { return }
    UINavigationController.exchangeOnce
  }
}

private enum ClassListWalk {
  static func awakeAll() {
    let typeCount = Int(objc_getClassList(nil, 0))
    let types = UnsafeMutablePointer<AnyClass?>.allocate(capacity: typeCount)
    let autoreleasingTypes = AutoreleasingUnsafeMutablePointer<AnyClass>(types)
    objc_getClassList(autoreleasingTypes, Int32(typeCount))
    for index in 0..<typeCount {
      (types[index] as? SelfAware.Type)?.awake()
    }
    types.deallocate()
  }
}

extension UIApplication {
  private static let runOnce: Void = {
    ClassListWalk.awakeAll()
  }()

  // Linux: no override in an extension; a SelfAware class, woken before the launch, hooks
  // -[UIApplication nextResponder], which the launch reads as UIKit reads `next`.
  private final class NextResponder: ObjCRuntime.SelfAware {
    static func awake() {
      _ = try? UIApplication.hook(before: "nextResponder") { (_: UIApplication) in
        MainThread.assumeIsolated { UIApplication.runOnce }  // Linux: the hook's body, on main
      }
    }
  }
}
