// The application: launch (with SelfAware awake before the delegate), the window, and the status
// bar style.
import Foundation
public import ObjCRuntime
import Synchronization

/// Status bar styles, as UIKit's `UIStatusBarStyle`.
public enum UIStatusBarStyle: Int, Sendable, CustomStringConvertible {
  /// Dark content on a light background (before iOS 13: the only dark style).
  case `default` = 0
  /// Light content, for dark backgrounds.
  case lightContent = 1
  /// Dark content, explicitly (iOS 13).
  case darkContent = 3

  /// `default`, `lightContent` or `darkContent`.
  public var description: String {
    switch self {
    case .default: "default"
    case .lightContent: "lightContent"
    case .darkContent: "darkContent"
    }
  }
}

/// What the status bar style is asked of: UIKit's view controllers answer through
/// `preferredStatusBarStyle` and `childForStatusBarStyle` (the navigation model's controllers
/// conform).
@preconcurrency @MainActor
public protocol StatusBarAppearanceProviding: AnyObject {
  /// The style this object prefers.
  var preferredStatusBarStyle: UIStatusBarStyle { get }
  /// The child whose preference wins over this object's, if any.
  var childForStatusBarStyle: (any StatusBarAppearanceProviding)? { get }
}

extension StatusBarAppearanceProviding {
  /// Asks for the status bar style to be read again. The model resolves the style whenever it is
  /// asked, so this only counts the request (``UIApplication/statusBarAppearanceUpdates``), which
  /// tests and the lab can watch, as the seeds call it after changing a style.
  public func setNeedsStatusBarAppearanceUpdate() {
    UIApplication.shared.statusBarAppearanceUpdates += 1
  }
}

/// A window: the root of what is on screen.
open class UIWindow: UIView {
  /// What decides the status bar style when it is view-controller based (the root view
  /// controller, unless set otherwise).
  open var statusBarAppearanceProvider: (any StatusBarAppearanceProviding)?

  /// The root view controller: its view fills the window, and it decides the status bar style.
  open var rootViewController: UIViewController? {
    didSet {
      oldValue?.view.removeFromSuperview()
      guard let rootViewController else { return }
      rootViewController.view.frame = bounds
      addSubview(rootViewController.view)
      statusBarAppearanceProvider = rootViewController
      // The root, then a navigation controller's top page or a tab bar controller's selected
      // tab (and its top page), each hears both.
      for controller in rootViewController.appearanceTargets {
        controller.viewWillAppear(false)
        controller.viewDidAppear(false)
      }
    }
  }
  /// Whether this is the key window.
  public internal(set) var isKeyWindow = false

  /// A window's next responder is the application.
  internal override var defaultNextResponder: UIResponder? { UIApplication.shared }

  /// Makes this the application's key window and shows it.
  open func makeKeyAndVisible() {
    for window in UIApplication.shared.windows { window.isKeyWindow = false }
    isKeyWindow = true
    isHidden = false
    UIApplication.shared.register(self)
  }
}

/// The application delegate, as UIKit's `UIApplicationDelegate`.
@preconcurrency @MainActor
public protocol UIApplicationDelegate: AnyObject {
  /// The main window.
  var window: UIWindow? { get set }
  /// Launch is done: build the window and the first screens here.
  func application(
    _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [String: Any]?
  ) -> Bool
}

/// The application, as UIKit's `UIApplication.shared`.
///
/// ``launch(delegate:device:systemVersion:)`` is the model's `UIApplicationMain`: it resets the
/// run loop, sets the device, awakes every `SelfAware` class (the analogue of `+load`, which runs
/// when an image loads, before `main`), then reads the application's ``UIResponder/next``
/// through the runtime (UIKit reads `nextResponder` early in the launch, which is where the
/// seeds hang their one-time setup, so a hook of it made by an awake runs here), all before the
/// delegate's `application(_:didFinishLaunchingWithOptions:)`.
public final class UIApplication: UIResponder {
  /// The application.
  public static let shared = UIApplication()

  /// The delegate, held strongly for the life of the launch.
  public private(set) var delegate: (any UIApplicationDelegate)?
  /// The windows, in the order they became visible.
  public private(set) var windows: [UIWindow] = []
  /// The key window.
  public var keyWindow: UIWindow? { windows.last { $0.isKeyWindow } }
  /// The style set with the legacy global setter, used when the appearance is not view
  /// controller based.
  public var statusBarStyle: UIStatusBarStyle = .default
  /// `UIViewControllerBasedStatusBarAppearance` of the Info.plist: true by default, as in UIKit
  /// (WRNavigationBar's status-bar control needs it; WR-O #113 was a `NO` here).
  public var isViewControllerBasedStatusBarAppearance = true
  /// `UIDesignRequiresCompatibility` of the Info.plist: false by default. True keeps the design
  /// of the previous versions on iOS 26 for an app built with the iOS 26 SDK (Apple's
  /// documentation of the key; xbmc/Official-Kodi-Remote-iOS pull request 1451, EdgeApp pull
  /// request 5990).
  public var designRequiresCompatibility = false

  /// Whether the app gets iOS 26's Liquid Glass design: running iOS 26 or later, built with
  /// the iOS 26 SDK or later (apps built with an older SDK keep the previous design: "so we can
  /// build the app in Xcode 26 without having to support Liquid Glass", insidegui/WWDC pull
  /// request 761), and not opted out with ``designRequiresCompatibility``. The model does not
  /// draw the material (`Docs/UIKitModel.md`); it decides what the documented API changes.
  public var usesLiquidGlass: Bool {
    UIDevice.current.linkedMajorVersion >= 26 && !designRequiresCompatibility
  }

  /// How many times `setNeedsStatusBarAppearanceUpdate()` was called since the launch.
  public internal(set) var statusBarAppearanceUpdates = 0
  /// What the last launch's awake pass did.
  public private(set) var lastAwakeReport: AwakeReport?
  /// Whether ``launch(delegate:device:systemVersion:)`` is running: true for the `SelfAware`
  /// awakes and the `nextResponder` read it makes, and for the delegate's
  /// `didFinishLaunching`. What an awake that must act only at an application's launch (not at
  /// a discovery pass of a test or a tool) checks; on the launching thread only.
  public var isLaunching: Bool { UIApplication.isLaunching }

  /// ``isLaunching`` without making the shared application, for awakes: a class's `awake()`
  /// runs at whichever discovery pass meets it first, a launch's or a tool's, and the first
  /// read of ``shared`` realizes the model's classes (3 million instructions). True only on the
  /// thread that runs the launch: a discovery pass that another thread runs meanwhile is not
  /// part of it.
  nonisolated public static var isLaunching: Bool {
    let thread = launchingThread.load(ordering: .acquiring)
    return thread != 0 && pthread_equal(pthread_t(thread), pthread_self()) != 0
  }

  /// The thread running ``launch(delegate:device:systemVersion:)``, or 0 (an atomic: awakes
  /// read it from any thread).
  nonisolated private static let launchingThread = Atomic<UInt>(0)

  private override init() {
    super.init()
  }

  /// Launches the application with `delegate` on `device` running `systemVersion`; returns
  /// what the delegate's `didFinishLaunching` returned.
  @discardableResult
  public func launch(
    delegate: any UIApplicationDelegate, device: DeviceProfile = .iPhone8,
    systemVersion: String = "13.0"
  ) -> Bool {
    VirtualRunLoop.main.reset()
    UIScreen.main.profile = device
    UIDevice.current.systemVersion = systemVersion
    windows.removeAll()
    statusBarStyle = .default
    statusBarAppearanceUpdates = 0
    UINavigationBar.appearanceProxy.reset()
    NSUserDefaults.reset()
    self.delegate = delegate
    UIApplication.launchingThread.store(UInt(pthread_self()), ordering: .releasing)
    defer { UIApplication.launchingThread.store(0, ordering: .releasing) }
    // SelfAware classes wake first, as +load runs when an image loads, before main.
    lastAwakeReport = try? SelfAwareDiscovery.awakeAll()
    // UIKit asks the application for its next responder early in the launch: the seeds'
    // `UIApplication.next` override (here a hook or swizzle of `nextResponder`, made before the
    // launch or by an awake) runs here.
    _ = next
    let window = UIWindow(frame: UIScreen.main.bounds)
    delegate.window = window
    let result = delegate.application(self, didFinishLaunchingWithOptions: nil)
    if delegate.window?.isKeyWindow != true { delegate.window?.makeKeyAndVisible() }
    VirtualRunLoop.main.endTurn()
    return result
  }

  /// Puts the whole model back to where a process starts: the run loop reset (clock at zero, no
  /// timers, display links or animations), no issues recorded, `device` running
  /// `systemVersion`, no windows and no delegate, the status bar settings at their defaults,
  /// nothing set on the appearance proxies, empty user defaults (``NSUserDefaults``).
  /// Tests start from here; ``launch(delegate:device:systemVersion:)`` does the same before it
  /// launches. The testing library's `.uiKitModel` trait calls it before each test.
  public static func resetModel(device: DeviceProfile = .iPhone8, systemVersion: String = "13.0") {
    VirtualRunLoop.main.reset()
    UIKitModelIssues.removeAll()
    UIScreen.main.profile = device
    UIDevice.current.systemVersion = systemVersion
    UIDevice.current.linkedSDKVersion = nil
    let application = UIApplication.shared
    application.windows.removeAll()
    application.delegate = nil
    application.statusBarStyle = .default
    application.isViewControllerBasedStatusBarAppearance = true
    application.designRequiresCompatibility = false
    application.statusBarAppearanceUpdates = 0
    UINavigationBar.appearanceProxy.reset()
    UINavigationBar.someBarMayGrow = false
    NSUserDefaults.reset()
  }

  internal func register(_ window: UIWindow) {
    if !windows.contains(where: { $0 === window }) { windows.append(window) }
  }

  /// The status bar style on screen: the key window's view controllers decide it when the
  /// appearance is view-controller based (following `childForStatusBarStyle` down), else the
  /// legacy global style.
  public var resolvedStatusBarStyle: UIStatusBarStyle {
    guard isViewControllerBasedStatusBarAppearance,
      var provider = keyWindow?.statusBarAppearanceProvider
    else { return statusBarStyle }
    var visited = 0
    while let child = provider.childForStatusBarStyle, visited < 64 {
      provider = child
      visited += 1
    }
    return provider.preferredStatusBarStyle
  }
}
