// UIViewController: the view loaded on first use, the appearance callbacks dispatched through the
// runtime, containment, and the status bar style.
import Foundation
public import ObjCRuntime

/// A view controller, as UIKit's.
///
/// `loadView`, `viewDidLoad`, the four appearance callbacks and `preferredStatusBarStyle` are in
/// the runtime's table with Swift entry points: a subclass overrides them in Swift calling
/// `super`, and a plugin swizzles `viewWillAppear:` (as WRNavigationBar does); both run, for
/// calls from the navigation controller and from `objc_msgSend` alike.
open class UIViewController: UIResponder, StatusBarAppearanceProviding {
  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIViewController.self) {
      ObjCMethodDeclaration("loadView", Base.loadView, swiftEntry: Entry.loadView)
      ObjCMethodDeclaration("viewDidLoad", Base.nothing, swiftEntry: Entry.viewDidLoad)
      ObjCMethodDeclaration("viewWillAppear:", Base.appearance, swiftEntry: Entry.viewWillAppear)
      ObjCMethodDeclaration("viewDidAppear:", Base.appearance, swiftEntry: Entry.viewDidAppear)
      ObjCMethodDeclaration(
        "viewWillDisappear:", Base.appearance, swiftEntry: Entry.viewWillDisappear)
      ObjCMethodDeclaration(
        "viewDidDisappear:", Base.appearance, swiftEntry: Entry.viewDidDisappear)
      ObjCMethodDeclaration(
        "viewWillLayoutSubviews", Base.nothing, swiftEntry: Entry.viewWillLayoutSubviews)
      ObjCMethodDeclaration(
        "preferredStatusBarStyle", Base.preferredStatusBarStyle,
        swiftEntry: Entry.preferredStatusBarStyle)
      ObjCMethodDeclaration(
        "hidesBottomBarWhenPushed", Base.hidesBottomBarWhenPushed,
        swiftEntry: Entry.hidesBottomBarWhenPushed)
      ObjCMethodDeclaration(
        "presentViewController:animated:completion:", PresentationBase.present)
      ObjCMethodDeclaration("dismissViewControllerAnimated:completion:", PresentationBase.dismiss)
      ObjCMethodDeclaration(
        "modalPresentationStyle", PresentationBase.modalPresentationStyle,
        swiftEntry: PresentationEntry.modalPresentationStyle)
    }
  }

  private var loadedView: UIView? {
    didSet {
      if oldValue?.owningController === self { oldValue?.owningController = nil }
      loadedView?.owningController = self
    }
  }
  private var ownNavigationItem: UINavigationItem?
  private var ownTabBarItem: UITabBarItem?
  private var hidesBottomBarStorage = false

  /// The parent controller (a navigation controller for the screens of a stack).
  public internal(set) weak var parent: UIViewController?
  /// The child controllers.
  public internal(set) var children: [UIViewController] = []
  /// Whether the controller is being added to its parent (true during a push that adds it).
  public internal(set) var isMovingToParent = false
  /// Whether the controller is being removed from its parent (true during a pop that removes it).
  public internal(set) var isMovingFromParent = false
  /// The controller this one presents (UIViewController+Presentation.swift).
  public internal(set) var presentedViewController: UIViewController?
  /// The controller that presents this one.
  public internal(set) weak var presentingViewController: UIViewController?
  /// Whether this controller's view is the one covered when it or a descendant presents in
  /// context; false by default, true for a navigation controller (Apple's documentation). In
  /// the model only an active search presents in context (``UISearchController``): it is
  /// presented by the nearest controller from the searching page up that defines the context,
  /// else by the root of the page's hierarchy.
  open var definesPresentationContext = false
  /// Whether the controller is being presented (from `present` until its `viewDidAppear:`).
  public internal(set) var isBeingPresented = false
  /// Whether the controller is being dismissed (from `dismiss` until its `viewDidDisappear:`).
  public internal(set) var isBeingDismissed = false
  /// The style set with `modalPresentationStyle`; nil for the default
  /// (UIViewController+Presentation.swift).
  var presentationStyleStorage: UIModalPresentationStyle?
  /// `isModalInPresentation`'s value.
  var modalInPresentationStorage = false
  /// The presentation controller, made on first use or when the controller is presented.
  var presentationControllerStorage: UIPresentationController?
  /// Whether a presentation that does not cover the screen hands the status bar to this
  /// controller, as UIKit's property: Apple documents that control "is transferred from the
  /// presenting to the presented view controller only if the presented controller's
  /// modalPresentationStyle value is UIModalPresentationFullScreen", unless this is true.
  open var modalPresentationCapturesStatusBarAppearance = false

  /// A controller whose view is loaded on first access.
  public override init() {
    super.init()
  }

  /// What Objective-C's `+alloc` makes (the GNUObjC module): a controller, for this class itself;
  /// a subclass Objective-C should allocate overrides it too.
  open override class func makeInstance() -> ObjCObject? {
    self == UIViewController.self ? MainThread.assumeIsolated { UIViewController() } : nil
  }

  // MARK: The view

  /// The root view, loaded on first access with ``loadView()`` then ``viewDidLoad()``.
  open var view: UIView! {
    get {
      loadViewIfNeeded()
      return loadedView
    }
    set { loadedView = newValue }
  }

  /// Whether the view was loaded.
  public var isViewLoaded: Bool { loadedView != nil }

  /// The view if it is loaded, without loading it, as UIKit's `viewIfLoaded`.
  public var viewIfLoaded: UIView? { loadedView }

  /// Loads the view if it is not loaded: ``loadView()``, then ``viewDidLoad()``, once.
  public func loadViewIfNeeded() {
    guard loadedView == nil else { return }
    loadView()
    if loadedView == nil { loadedView = UIView(frame: UIScreen.main.bounds) }
    viewDidLoad()
  }

  /// Makes the view; the base makes a white view as large as the screen. Through the table.
  open func loadView() { sendToTableReportingFailure(ControllerSelectors.loadView) }

  /// The view was loaded. Through the table.
  open func viewDidLoad() { sendToTableReportingFailure(ControllerSelectors.viewDidLoad) }

  /// The view will appear. Through the table: a swizzle of `viewWillAppear:` runs.
  open func viewWillAppear(_ animated: Bool) {
    sendToTableReportingFailure(ControllerSelectors.viewWillAppear, animated)
  }

  /// The view appeared. Through the table.
  open func viewDidAppear(_ animated: Bool) {
    sendToTableReportingFailure(ControllerSelectors.viewDidAppear, animated)
  }

  /// The view will disappear. Through the table.
  open func viewWillDisappear(_ animated: Bool) {
    sendToTableReportingFailure(ControllerSelectors.viewWillDisappear, animated)
  }

  /// The view disappeared. Through the table.
  open func viewDidDisappear(_ animated: Bool) {
    sendToTableReportingFailure(ControllerSelectors.viewDidDisappear, animated)
  }

  /// The view is about to lay out its subviews. Through the table.
  open func viewWillLayoutSubviews() {
    sendToTableReportingFailure(ControllerSelectors.viewWillLayoutSubviews)
  }

  // MARK: Title and item

  /// The title; also the navigation item's and, once made, the tab bar item's: Apple
  /// documents that assigning it "updates the title text of those objects".
  open var title: String? {
    didSet {
      navigationItem.title = title
      ownTabBarItem?.title = title
    }
  }

  /// What a navigation bar shows for this controller, made on first use with its title.
  open var navigationItem: UINavigationItem {
    if let ownNavigationItem { return ownNavigationItem }
    let item = UINavigationItem()
    item.title = title
    ownNavigationItem = item
    return item
  }

  /// What a tab bar shows for this controller as a tab, made on first use with its title.
  open var tabBarItem: UITabBarItem! {
    get {
      if let ownTabBarItem { return ownTabBarItem }
      let item = UITabBarItem(title: title)
      ownTabBarItem = item
      return item
    }
    set { ownTabBarItem = newValue }
  }

  /// Whether the tab bar hides while this controller is in a navigation controller's stack.
  /// As Apple documents it, "if true, the bottom bar remains hidden until the view controller
  /// is popped from the stack": the navigation controller reads this getter of every
  /// controller of its stack, top to bottom, and hides the bar when any says yes (a qiita.com
  /// test on iOS 10.3: pages pushed above one that hides it cannot show it again; Xcore swizzles
  /// this getter to make only the top page count). The getter is in the table, so a swizzle of
  /// it (as Xcore's) or a Swift override takes effect.
  open var hidesBottomBarWhenPushed: Bool {
    get {
      (try? sendToTable(ControllerSelectors.hidesBottomBarWhenPushed) as Bool)
        ?? hidesBottomBarStorage
    }
    set { hidesBottomBarStorage = newValue }
  }

  // MARK: Presentation

  /// How the controller is presented: a sheet by default from iOS 13 with its SDK
  /// (`.automatic`, which a controller of the app resolves to a page sheet), full screen
  /// before. Through the table (the getter `modalPresentationStyle`), so the swizzle that apps
  /// used to keep full screen on iOS 13 takes effect. `.automatic` before iOS 13 or with an
  /// older SDK is refused with ``UIKitModelIssue/unavailable(api:introduced:running:)``.
  open var modalPresentationStyle: UIModalPresentationStyle {
    get {
      guard let raw = try? sendToTable(PresentationSelectors.modalPresentationStyle) as Int else {
        return storedPresentationStyle
      }
      guard let style = UIModalPresentationStyle(rawValue: raw) else {
        UIKitModelIssues.report(
          .unsupportedPresentationStyle(controller: "\(type(of: self))", rawValue: raw))
        return .fullScreen
      }
      return style
    }
    set {
      if newValue == .automatic {
        guard UIDevice.isAvailable("UIModalPresentationStyle.automatic", from: 13, linked: true)
        else { return }
      }
      presentationStyleStorage = newValue
    }
  }

  /// Whether the controller refuses to be dismissed by a swipe down while presented as a sheet
  /// (iOS 13). As Apple documents it, UIKit "prevents the interactive dismissal of the view
  /// controller while it is onscreen", and the presentation controller's delegate hears
  /// `presentationControllerDidAttemptToDismiss` instead (WWDC19, quoted by Ichiro Hirata's
  /// "iOS Lifecycle When Dismissing a Modal View With .pageSheet"). Setting it before iOS 13 is
  /// refused with ``UIKitModelIssue/unavailable(api:introduced:running:)``.
  open var isModalInPresentation: Bool {
    get { modalInPresentationStorage }
    set {
      guard UIDevice.isAvailable("UIViewController.isModalInPresentation", from: 13) else {
        return
      }
      modalInPresentationStorage = newValue
    }
  }

  // MARK: Containment

  /// The nearest navigation controller up the parent chain (the controller itself is not).
  public var navigationController: UINavigationController? {
    var current = parent
    while let controller = current {
      if let navigation = controller as? UINavigationController { return navigation }
      current = controller.parent
    }
    return nil
  }

  /// The nearest tab bar controller up the parent chain (the controller itself is not).
  public var tabBarController: UITabBarController? {
    var current = parent
    while let controller = current {
      if let tabs = controller as? UITabBarController { return tabs }
      current = controller.parent
    }
    return nil
  }

  /// Adds `child` as a child controller.
  open func addChild(_ child: UIViewController) {
    guard child !== self, child.parent !== self else { return }
    child.removeFromParent()
    children.append(child)
    child.parent = self
  }

  /// Removes the controller from its parent.
  open func removeFromParent() {
    guard let parent else { return }
    parent.children.removeAll { $0 === self }
    self.parent = nil
  }

  // MARK: Status bar

  /// The status bar style this controller prefers; the default is `.default`. Through the table.
  open var preferredStatusBarStyle: UIStatusBarStyle {
    let raw = (try? sendToTable(ControllerSelectors.preferredStatusBarStyle) as Int) ?? 0
    return UIStatusBarStyle(rawValue: raw) ?? .default
  }

  /// A controller's next responder: its view's superview, or its parent when the view is not in
  /// a tree, as in UIKit.
  internal override var defaultNextResponder: UIResponder? { loadedView?.superview ?? parent }

  /// The child whose preference wins; none by default.
  open var childForStatusBarStyle: (any StatusBarAppearanceProviding)? { nil }

  // MARK: Transitions

  /// The coordinator of the transition this controller takes part in, if one is under way: set
  /// for the whole push or pop, display-link ticks included.
  public var transitionCoordinator: UIViewControllerTransitionCoordinator? {
    if let navigation = self as? UINavigationController ?? navigationController,
      let coordinator = navigation.activeCoordinator
    {
      return coordinator
    }
    return nil
  }
}

// MARK: - IMPs

extension UIViewController {
  fileprivate static func controller(_ me: id) -> UIViewController {
    me.receiver(as: UIViewController.self)
  }

  fileprivate enum Base {
    static let loadView: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        let view = UIView(frame: UIScreen.main.bounds)
        view.backgroundColor = .white
        UIViewController.controller(me).loadedView = view
      }
    }
    static let nothing: @convention(c) (id, SEL) -> Void = { _, _ in }
    static let appearance: @convention(c) (id, SEL, Bool) -> Void = { _, _, _ in }
    static let preferredStatusBarStyle: @convention(c) (id, SEL) -> Int = { _, _ in
      UIStatusBarStyle.default.rawValue
    }
    static let hidesBottomBarWhenPushed: @convention(c) (id, SEL) -> Bool = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIViewController.controller(me).hidesBottomBarStorage
      }
    }
  }

  fileprivate enum Entry {
    static let loadView: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIViewController.controller(me).loadView()
      }
    }
    static let viewDidLoad: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIViewController.controller(me).viewDidLoad()
      }
    }
    static let viewWillAppear: @convention(c) (id, SEL, Bool) -> Void = { me, _, animated in
      MainThread.enterIMP(with: me, animated) { me, animated in
        UIViewController.controller(me).viewWillAppear(animated)
      }
    }
    static let viewDidAppear: @convention(c) (id, SEL, Bool) -> Void = { me, _, animated in
      MainThread.enterIMP(with: me, animated) { me, animated in
        UIViewController.controller(me).viewDidAppear(animated)
      }
    }
    static let viewWillDisappear: @convention(c) (id, SEL, Bool) -> Void = { me, _, animated in
      MainThread.enterIMP(with: me, animated) { me, animated in
        UIViewController.controller(me).viewWillDisappear(animated)
      }
    }
    static let viewDidDisappear: @convention(c) (id, SEL, Bool) -> Void = { me, _, animated in
      MainThread.enterIMP(with: me, animated) { me, animated in
        UIViewController.controller(me).viewDidDisappear(animated)
      }
    }
    static let viewWillLayoutSubviews: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIViewController.controller(me).viewWillLayoutSubviews()
      }
    }
    static let preferredStatusBarStyle: @convention(c) (id, SEL) -> Int = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIViewController.controller(me).preferredStatusBarStyle.rawValue
      }
    }
    static let hidesBottomBarWhenPushed: @convention(c) (id, SEL) -> Bool = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIViewController.controller(me).hidesBottomBarWhenPushed
      }
    }
  }
}

/// The selectors of UIViewController's table methods, kept in static storage and registered once
/// (`SelectorReference`).
private enum ControllerSelectors {
  static let loadView = SelectorReference("loadView")
  static let viewDidLoad = SelectorReference("viewDidLoad")
  static let viewWillAppear = SelectorReference("viewWillAppear:")
  static let viewDidAppear = SelectorReference("viewDidAppear:")
  static let viewWillDisappear = SelectorReference("viewWillDisappear:")
  static let viewDidDisappear = SelectorReference("viewDidDisappear:")
  static let viewWillLayoutSubviews = SelectorReference("viewWillLayoutSubviews")
  static let preferredStatusBarStyle = SelectorReference("preferredStatusBarStyle")
  static let hidesBottomBarWhenPushed = SelectorReference("hidesBottomBarWhenPushed")
}
