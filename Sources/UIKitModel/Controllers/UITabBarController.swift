// UITabBarController: tabs of controllers (a navigation controller each, typically) over a tab
// bar, selection by code and by tap with UIKit's appearance callbacks and delegate rules, and the
// private door a navigation controller asks before it hides the bar for a pushed page.
import Foundation
public import ObjCRuntime

/// The delegate of a tab bar controller, as UIKit's `UITabBarControllerDelegate`. As Apple
/// documents both methods, they are called only when the user taps a tab, never when code
/// changes the selection.
@preconcurrency @MainActor
public protocol UITabBarControllerDelegate: AnyObject {
  /// Whether the tab of `viewController`, which the user tapped, may be selected.
  func tabBarController(
    _ tabBarController: UITabBarController, shouldSelect viewController: UIViewController
  ) -> Bool
  /// The user tapped the tab of `viewController`, and it is selected. Apple: "the tab bar
  /// controller calls this method regardless of whether the selected view controller
  /// changed".
  func tabBarController(
    _ tabBarController: UITabBarController, didSelect viewController: UIViewController)
}

extension UITabBarControllerDelegate {
  /// Yes.
  public func tabBarController(
    _ tabBarController: UITabBarController, shouldSelect viewController: UIViewController
  ) -> Bool { true }
  /// Nothing.
  public func tabBarController(
    _ tabBarController: UITabBarController, didSelect viewController: UIViewController
  ) {}
}

/// A tab bar controller, as UIKit's: one child controller per tab, the selected one's view on
/// screen above the ``tabBar``.
///
/// `setSelectedIndex:`, `setSelectedViewController:`, `setViewControllers:animated:`,
/// `tabBar:didSelectItem:` and the private `_selectedViewControllerInTabBar` are in the table
/// with Swift entry points. A navigation controller in a tab hides the tab bar while a
/// controller of its stack has ``UIViewController/hidesBottomBarWhenPushed``, but only when the
/// tab bar controller's `_selectedViewControllerInTabBar` is that navigation controller: UIKit
/// asks that private method on every push (SwiftUIIntrospect's example overrides it so that a
/// navigation controller nested in a tab's controller can hide the bar).
///
/// Selecting a tab, by code or by a tap, runs the callbacks in UIKit's order, without
/// animation: the new tab's view loads, the new tab's `viewWillAppear:`, the old tab's
/// `viewWillDisappear:` and `viewDidDisappear:`, then the new tab's `viewDidAppear:` (a logged
/// switch in pgzxc.github.io's "UITabBarViewController 控制器加载"); a navigation controller's
/// top page hears them with it.
open class UITabBarController: UIViewController, UITabBarDelegate {
  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UITabBarController.self) {
      ObjCMethodDeclaration(
        "setSelectedIndex:", Base.setSelectedIndex, swiftEntry: Entry.setSelectedIndex)
      ObjCMethodDeclaration(
        "setSelectedViewController:", Base.setSelected, swiftEntry: Entry.setSelected)
      ObjCMethodDeclaration(
        "setViewControllers:animated:", Base.setControllers, swiftEntry: Entry.setControllers)
      ObjCMethodDeclaration(
        "tabBar:didSelectItem:", Base.didSelectItem, swiftEntry: Entry.didSelectItem)
      ObjCMethodDeclaration(
        "_selectedViewControllerInTabBar", Base.selectedInTabBar, swiftEntry: Entry.selectedInTabBar
      )
    }
  }

  /// The tab bar along the bottom; the controller is its delegate.
  public let tabBar: UITabBar
  /// The delegate, held weakly: asked and told about the user's taps on tabs.
  open weak var delegate: (any UITabBarControllerDelegate)?

  private var tabs: [UIViewController] = []
  private var selected = NSNotFound
  /// Where a selection or a new list is in its callbacks: a change asked while the new tab loads
  /// or hears its `will` callbacks is refused rather than nested; a selection asked from the
  /// `did` callbacks, when the switch has happened, runs once the switch returns.
  private var switchPhase = SwitchPhase.idle
  /// A selection asked from a switch's `did` callbacks, run once the switch returns.
  private var deferredSelection: Int?
  /// How many such selections ran in a row: tabs that select each other from `viewDidAppear:`
  /// would do so for ever.
  private var chainedSelections = 0
  /// The most selections asked from `did` callbacks that run in a row; the next is refused.
  public static let maximumChainedSelections = 8

  private enum SwitchPhase {
    case idle, appearing, finishing
  }

  /// A tab bar controller with no tabs: give it ``viewControllers``.
  public override init() {
    tabBar = UITabBar()
    super.init()
    tabBar.delegate = self
  }

  // MARK: The tabs

  /// The controllers, one per tab, left to right; nil when there are none. Setting it is
  /// ``setViewControllers(_:animated:)`` without animation.
  open var viewControllers: [UIViewController]? {
    get { tabs.isEmpty ? nil : tabs }
    set { setViewControllers(newValue, animated: false) }
  }

  /// The selected tab's index; `NSNotFound` with no tabs. Setting it selects that tab (through
  /// the table); an index out of range is refused with an issue, as UIKit ignores it.
  open var selectedIndex: Int {
    get { selected }
    set { sendToTableReportingFailure(TabBarSelectors.setSelectedIndex, newValue) }
  }

  /// The selected tab's controller. Setting it selects its tab (through the table); a
  /// controller not among the tabs is refused with an issue (UIKit raises: "only a view
  /// controller in the tab bar controller's list of view controllers can be selected").
  open var selectedViewController: UIViewController? {
    get { tabs.indices.contains(selected) ? tabs[selected] : nil }
    set {
      sendToTableReportingFailure(TabBarSelectors.setSelected, newValue as ObjCObject?)
    }
  }

  /// Replaces the tabs. As Apple documents `viewControllers`, the controller "remembers the
  /// view controller object that was previously selected and attempts to reselect it. If the
  /// selected view controller is no longer present, it attempts to select the view controller
  /// at the same index in the array as the previous selection. If that index is invalid, it
  /// selects the view controller at index 0." A list naming a controller twice is refused (the
  /// model's choice: a controller has one parent, so one tab), as is any change while the
  /// selected tab pushes or pops. Through the table.
  open func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) {
    sendToTableReportingFailure(
      TabBarSelectors.setControllers, ViewControllerList(viewControllers ?? []), animated)
  }

  /// The private door UIKit asks as a navigation controller pushes: the controller of the
  /// selected tab, whose navigation stack decides whether the tab bar hides. Through the table,
  /// so a subclass or a swizzle can answer another controller (a navigation controller nested
  /// inside the tab's controller, as SwiftUIIntrospect's example does).
  open func selectedViewControllerInTabBar() -> UIViewController? {
    (try? sendToTable(TabBarSelectors.selectedInTabBar) as ObjCObject?) as? UIViewController
  }

  /// The page on screen in the selected tab: a navigation controller's top page, or the tab's
  /// controller.
  public var pageOnScreen: UIViewController? {
    guard let selected = selectedViewController else { return nil }
    return (selected as? UINavigationController)?.topViewController ?? selected
  }

  // MARK: The view

  /// The view: the selected tab's view under the tab bar.
  open override func loadView() {
    view = UIView(frame: UIScreen.main.bounds)
  }

  /// Puts the selected tab's view under the tab bar, and the bar along the bottom of the view.
  open override func viewDidLoad() {
    super.viewDidLoad()
    let bounds = view.bounds
    let height = UITabBar.height(
      on: UIScreen.main.profile, majorVersion: UIDevice.current.majorSystemVersion)
    tabBar.frame = CGRect(x: 0, y: bounds.height - height, width: bounds.width, height: height)
    view.addSubview(tabBar)
    if let selected = selectedViewController { show(selected) }
    updateTabBar()
  }

  /// With the tab's status bar preference: the selected tab decides.
  open override var childForStatusBarStyle: (any StatusBarAppearanceProviding)? {
    selectedViewController
  }

  // MARK: The tab bar's delegate

  /// The user tapped `item`: the delegate is asked whether its tab may be selected, the tab is
  /// selected, and the delegate told, even when it was already selected (Apple's words above).
  /// Through the table.
  open func tabBar(_ tabBar: UITabBar, didSelect item: UITabBarItem) {
    sendToTableReportingFailure(
      TabBarSelectors.didSelectItem, tabBar as ObjCObject, item as ObjCObject)
  }

  // MARK: Work

  /// Shows `controller`'s view under the tab bar, filling the view.
  private func show(_ controller: UIViewController) {
    controller.view.frame = view.bounds
    view.insertSubview(controller.view, belowSubview: tabBar)
  }

  /// The tab bar's items from the tabs, the selected one marked, and its state for the
  /// selected tab: hidden while that tab's navigation stack hides it.
  private func updateTabBar() {
    let items = tabs.map { $0.tabBarItem ?? UITabBarItem(title: $0.title) }
    tabBar.setItems(items, selected: items.indices.contains(selected) ? items[selected] : nil)
    if let navigation = selectedViewControllerInTabBar() as? UINavigationController,
      navigation.managedTabBar === tabBar
    {
      tabBar.isHidden = navigation.hidesBottomBar(for: navigation.viewControllers)
    } else {
      tabBar.isHidden = false
    }
    tabBar.scrollEdgeMayHaveChanged()
  }

  /// Why the selection cannot change now, if it cannot: a switch is calling back, or the
  /// selected tab (or the navigation controller that hides the bar for it) pushes or pops.
  private var busyReason: String? {
    if switchPhase != .idle {
      return "a tab switch is under way (asked from one of its callbacks; the model's choice)"
    }
    let candidates = [selectedViewController, selectedViewControllerInTabBar()]
    guard
      let navigation = candidates.lazy.compactMap({ $0 as? UINavigationController })
        .first(where: \.isTransitioning)
    else { return nil }
    return "\(navigation) is pushing or popping (the model's choice: UIKit's order is unknown)"
  }

  private func refuse(_ request: String, _ reason: String) {
    UIKitModelIssues.report(
      .tabBarControllerRefused(controller: description, request: request, reason: reason))
  }

  /// Selects the tab at `index`, with the appearance callbacks when on screen.
  func performSelect(_ index: Int) {
    guard tabs.indices.contains(index) else {
      return refuse(
        "select tab \(index)", "it has \(tabs.count) tab\(tabs.count == 1 ? "" : "s")")
    }
    // Asked from the did callbacks of a switch that has happened: it runs when that returns.
    if switchPhase == .finishing {
      deferredSelection = index
      return
    }
    guard index != selected else { return }
    if let busyReason { return refuse("select tab \(index)", busyReason) }
    let old = selectedViewController
    let new = tabs[index]
    guard isViewLoaded, view.window != nil else {
      selected = index
      if isViewLoaded, let old {
        old.view.removeFromSuperview()
        show(new)
      }
      return updateTabBar()
    }
    // From before the new tab's view loads: its viewDidLoad is one of the switch's callbacks.
    switchPhase = .appearing
    defer { endSwitch() }
    new.loadViewIfNeeded()
    selected = index
    for controller in new.appearanceTargets { controller.viewWillAppear(false) }
    if let old {
      for controller in old.appearanceTargets { controller.viewWillDisappear(false) }
      old.view.removeFromSuperview()
    }
    show(new)
    updateTabBar()
    switchPhase = .finishing
    if let old {
      for controller in old.appearanceTargets { controller.viewDidDisappear(false) }
    }
    for controller in new.appearanceTargets { controller.viewDidAppear(false) }
  }

  /// Ends a switch, then runs a selection its did callbacks asked for.
  private func endSwitch() {
    switchPhase = .idle
    guard let index = deferredSelection else {
      chainedSelections = 0
      return
    }
    deferredSelection = nil
    guard chainedSelections < UITabBarController.maximumChainedSelections else {
      chainedSelections = 0
      return refuse(
        "select tab \(index)",
        "\(UITabBarController.maximumChainedSelections) selections in a row were asked from"
          + " switches' did callbacks (tabs selecting each other); the model stops there")
    }
    chainedSelections += 1
    performSelect(index)
  }

  /// Replaces the tabs, keeping or moving the selection as Apple documents.
  func performSet(_ controllers: [UIViewController]) {
    var seen = Set<ObjectIdentifier>()
    if let duplicate = controllers.first(where: { !seen.insert(ObjectIdentifier($0)).inserted }) {
      return refuse("set its view controllers", "\(duplicate) appears more than once")
    }
    // A controller holding this one (or itself) as a tab would make a cycle of parents.
    var ancestors: [UIViewController] = [self]
    while let parent = ancestors.last?.parent, !ancestors.contains(where: { $0 === parent }) {
      ancestors.append(parent)
    }
    if let cycle = controllers.first(where: { tab in ancestors.contains { $0 === tab } }) {
      return refuse("set its view controllers", "\(cycle) is itself or holds it: a cycle")
    }
    if let busyReason { return refuse("set its view controllers", busyReason) }
    switchPhase = .appearing
    defer { endSwitch() }
    let old = selectedViewController
    let index: Int
    if let old, let kept = controllers.firstIndex(ofIdentical: old) {
      index = kept
    } else if controllers.indices.contains(selected) {
      index = selected
    } else {
      index = controllers.isEmpty ? NSNotFound : 0
    }
    let new = controllers.indices.contains(index) ? controllers[index] : nil
    let onScreen = isViewLoaded && view.window != nil && old !== new
    if onScreen, let new {
      new.loadViewIfNeeded()
      for controller in new.appearanceTargets { controller.viewWillAppear(false) }
    }
    if onScreen, let old {
      for controller in old.appearanceTargets { controller.viewWillDisappear(false) }
    }
    for controller in tabs where !controllers.contains(where: { $0 === controller }) {
      if controller.isViewLoaded, controller.view.superview === view {
        controller.view.removeFromSuperview()
      }
      controller.removeFromParent()
    }
    tabs = controllers
    for controller in controllers where controller.parent !== self { addChild(controller) }
    selected = index
    if isViewLoaded, let new, new.view.superview !== view { show(new) }
    updateTabBar()
    switchPhase = .finishing
    if onScreen, let old {
      for controller in old.appearanceTargets { controller.viewDidDisappear(false) }
    }
    if onScreen, let new {
      for controller in new.appearanceTargets { controller.viewDidAppear(false) }
    }
  }

  /// The user's tap on `item`: asks the delegate, selects, tells the delegate.
  func userSelected(_ item: UITabBarItem) {
    guard let index = tabBar.items?.firstIndex(ofIdentical: item),
      tabs.indices.contains(index)
    else { return }
    let controller = tabs[index]
    if let delegate, !delegate.tabBarController(self, shouldSelect: controller) { return }
    // The delegate may have changed the tabs: the tapped controller is selected where it is now,
    // and not at all if it has left.
    guard let current = tabs.firstIndex(ofIdentical: controller) else { return }
    if current != selected {
      performSelect(current)
      guard selectedViewController === controller else { return }
    }
    delegate?.tabBarController(self, didSelect: controller)
  }
}

// MARK: - Table

extension UITabBarController {
  fileprivate static func tabs(_ me: id) -> UITabBarController {
    me.receiver(as: UITabBarController.self)
  }

  fileprivate static func object<T: AnyObject>(_ object: id?, as type: T.Type) -> T? {
    object.unretainedObject as? T
  }

  /// The controllers of a `setViewControllers:animated:` argument: none for nil; nil, with an
  /// issue, for an object that is not a ``ViewControllerList``.
  fileprivate static func controllers(in list: id?, for tabs: UITabBarController)
    -> [UIViewController]?
  {
    guard let list else { return [] }
    if let controllers = object(list, as: ViewControllerList.self)?.controllers {
      return controllers
    }
    tabs.refuse(
      "set its view controllers",
      "\(list.takeUnretainedObject()) is not a list of view controllers")
    return nil
  }

  fileprivate enum Base {
    static let setSelectedIndex: @convention(c) (id, SEL, Int) -> Void = { me, _, index in
      MainThread.enterIMP(with: me, index) { me, index in
        UITabBarController.tabs(me).performSelect(index)
      }
    }
    static let setSelected: @convention(c) (id, SEL, id?) -> Void = { me, _, object in
      MainThread.enterIMP(with: me, object) { me, object in
        let tabs = UITabBarController.tabs(me)
        let controller = UITabBarController.object(object, as: UIViewController.self)
        guard let controller, let index = tabs.tabs.firstIndex(ofIdentical: controller) else {
          return tabs.refuse(
            "select \(controller.map { "\($0)" } ?? "nil")",
            "only a view controller in its list of view controllers can be selected")
        }
        tabs.performSelect(index)
      }
    }
    static let setControllers: @convention(c) (id, SEL, id?, Bool) -> Void = {
      me, _, list, _ in
      MainThread.enterIMP(with: me, list) { me, list in
        let tabs = UITabBarController.tabs(me)
        // nil clears the tabs, as in UIKit; anything but a list of controllers is refused.
        guard let controllers = UITabBarController.controllers(in: list, for: tabs) else { return }
        tabs.performSet(controllers)
      }
    }
    static let didSelectItem: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, _, item in
      MainThread.enterIMP(with: me, item) { me, item in
        guard let item = UITabBarController.object(item, as: UITabBarItem.self) else { return }
        UITabBarController.tabs(me).userSelected(item)
      }
    }
    static let selectedInTabBar: @convention(c) (id, SEL) -> id? = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UITabBarController.tabs(me).selectedViewController?.passRetained()
      }
    }
  }

  fileprivate enum Entry {
    static let setSelectedIndex: @convention(c) (id, SEL, Int) -> Void = { me, _, index in
      MainThread.enterIMP(with: me, index) { me, index in
        UITabBarController.tabs(me).selectedIndex = index
      }
    }
    static let setSelected: @convention(c) (id, SEL, id?) -> Void = { me, _, object in
      MainThread.enterIMP(with: me, object) { me, object in
        let tabs = UITabBarController.tabs(me)
        guard let controller = UITabBarController.object(object, as: UIViewController.self) else {
          return tabs.refuse(
            "select nil", "only a view controller in its list of view controllers can be selected")
        }
        tabs.selectedViewController = controller
      }
    }
    static let setControllers: @convention(c) (id, SEL, id?, Bool) -> Void = {
      me, _, list, animated in
      MainThread.enterIMP(with: me, list, animated) { me, list, animated in
        let tabs = UITabBarController.tabs(me)
        guard let controllers = UITabBarController.controllers(in: list, for: tabs) else { return }
        tabs.setViewControllers(controllers, animated: animated)
      }
    }
    static let didSelectItem: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, bar, item in
      MainThread.enterIMP(with: me, bar, item) { me, bar, item in
        guard let bar = UITabBarController.object(bar, as: UITabBar.self),
          let item = UITabBarController.object(item, as: UITabBarItem.self)
        else { return }
        UITabBarController.tabs(me).tabBar(bar, didSelect: item)
      }
    }
    static let selectedInTabBar: @convention(c) (id, SEL) -> id? = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UITabBarController.tabs(me).selectedViewControllerInTabBar()?.passRetained()
      }
    }
  }
}

/// The selectors of UITabBarController's table methods, registered once.
private enum TabBarSelectors {
  static let setSelectedIndex = SelectorReference("setSelectedIndex:")
  static let setSelected = SelectorReference("setSelectedViewController:")
  static let setControllers = SelectorReference("setViewControllers:animated:")
  static let didSelectItem = SelectorReference("tabBar:didSelectItem:")
  static let selectedInTabBar = SelectorReference("_selectedViewControllerInTabBar")
}
