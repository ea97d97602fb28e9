// The application: launch with SelfAware awake before the delegate, windows, the status bar
// style, and scroll views driven on the virtual clock.
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

/// Counts its awakes, to check they happen before the delegate runs.
final class LaunchProbe: SelfAware {
  /// Atomic: the hook tests' discovery may awake it from another thread first.
  static let awoken = Atomic<Int>(0)
  static func awake() { awoken.add(1, ordering: .relaxed) }
}

final class ProbeDelegate: UIApplicationDelegate {
  var window: UIWindow?
  var awokenAtLaunch = -1

  func application(
    _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [String: Any]?
  ) -> Bool {
    awokenAtLaunch = LaunchProbe.awoken.load(ordering: .relaxed)
    return true
  }
}

// MARK: The EM seed's discovery, as it writes it

/// The seed's own protocol (EMNavigationBarTransition: `private protocol SelfAware: class`), not
/// the runtime's: found only by walking the class list.
private protocol EMSelfAware: AnyObject {
  static func awake()
}

/// A class nothing references: only the class list can find it.
private final class EMUnreferenced: ObjCObject, EMSelfAware {
  static let awoken = Atomic<Int>(0)
  static func awake() { awoken.add(1, ordering: .relaxed) }
}

/// The seed's `NothingToSeeHere.harmlessFunction()`: count the classes, fill a buffer with
/// `objc_getClassList`, cast each to the protocol and awake it.
private enum NothingToSeeHere {
  static func harmlessFunction() {
    // The seed's text as it is: a buffer never initialized, and Apple's signature.
    let typeCount = Int(objc_getClassList(nil, 0))
    let types = UnsafeMutablePointer<AnyClass?>.allocate(capacity: typeCount)
    let autoreleasingTypes = AutoreleasingUnsafeMutablePointer<AnyClass>(types)
    objc_getClassList(autoreleasingTypes, Int32(typeCount))
    for index in 0..<typeCount { (types[index] as? EMSelfAware.Type)?.awake() }
    types.deallocate()
  }
}

/// The seed's `UIApplication.runOnce`, reached from `next`: an override in an extension on iOS,
/// a hook of `-[UIApplication nextResponder]` here (a Swift extension cannot override).
private enum EMStartup {
  static let runOnce: Void = NothingToSeeHere.harmlessFunction()
  static let hook: Result<HookToken, any Error> = Result {
    try UIApplication.hook(before: "nextResponder") { _ in EMStartup.runOnce }
  }
}

/// A status-bar provider with a child, as a navigation controller and its top controller.
final class StyleNode: StatusBarAppearanceProviding {
  let preferredStatusBarStyle: UIStatusBarStyle
  let childForStatusBarStyle: (any StatusBarAppearanceProviding)?

  init(_ style: UIStatusBarStyle, child: (any StatusBarAppearanceProviding)? = nil) {
    preferredStatusBarStyle = style
    childForStatusBarStyle = child
  }
}

final class OffsetRecorder: UIScrollViewDelegate {
  var offsets: [CGFloat] = []
  var ended = false
  func scrollViewDidScroll(_ scrollView: UIScrollView) {
    offsets.append(scrollView.contentOffset.y)
  }
  func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
    ended = true
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("UIApplication")
  struct ApplicationTests {
    @Test("launch awakes SelfAware classes before the delegate, and makes the window key")
    func launch() {
      let delegate = ProbeDelegate()
      #expect(UIApplication.shared.launch(delegate: delegate, device: .iPhoneXR))
      #expect(delegate.awokenAtLaunch == 1)
      #expect(delegate.window?.isKeyWindow == true)
      #expect(delegate.window?.frame == CGRect(x: 0, y: 0, width: 414, height: 896))
      UIApplication.shared.launch(delegate: ProbeDelegate())
      #expect(LaunchProbe.awoken.load(ordering: .relaxed) == 1, "awoken once per process")
      #expect(objc_getClass("_UIBarBackground") != nil, "the model's classes are known by name")
      #expect(objc_getClass("UINavigationBar") != nil)
    }

    @Test("the EM seed's way: a walk of objc_getClassList from UIApplication.next finds a class")
    func classListFromNext() throws {
      _ = try EMStartup.hook.get()
      #expect(EMUnreferenced.awoken.load(ordering: .relaxed) == 0, "not before the launch")
      UIApplication.shared.launch(delegate: ProbeDelegate())
      #expect(EMUnreferenced.awoken.load(ordering: .relaxed) == 1)
      UIApplication.shared.launch(delegate: ProbeDelegate())
      #expect(EMUnreferenced.awoken.load(ordering: .relaxed) == 1, "runOnce ran once")
      try EMStartup.hook.get().remove()
    }

    @Test("the responder chain: view, controller, superview, window, application")
    func responderChain() throws {
      let delegate = ProbeDelegate()
      UIApplication.shared.launch(delegate: delegate)
      let controller = UIViewController()
      let child = UIView()
      controller.view.addSubview(child)
      delegate.window?.rootViewController = controller
      #expect(child.next === controller.view)
      #expect(controller.view.next === controller)
      #expect(controller.next === delegate.window)
      #expect(delegate.window?.next === UIApplication.shared)
      #expect(UIApplication.shared.next == nil)
      #expect(try objc_msgSend(controller.view, "nextResponder") as ObjCObject? === controller)
    }

    @Test("the status bar style follows the child chain, or the legacy setter")
    func statusBar() {
      let delegate = ProbeDelegate()
      UIApplication.shared.launch(delegate: delegate)
      let app = UIApplication.shared
      #expect(app.resolvedStatusBarStyle == .default)
      delegate.window?.statusBarAppearanceProvider = StyleNode(
        .default, child: StyleNode(.lightContent))
      #expect(app.resolvedStatusBarStyle == .lightContent)
      #expect(UINavigationBar().asSeen().statusBarStyle == .lightContent)
      delegate.window?.statusBarAppearanceProvider?.setNeedsStatusBarAppearanceUpdate()
      #expect(app.statusBarAppearanceUpdates == 1)
      app.isViewControllerBasedStatusBarAppearance = false
      app.statusBarStyle = .darkContent
      #expect(app.resolvedStatusBarStyle == .darkContent)
      app.isViewControllerBasedStatusBarAppearance = true
    }
  }

  @MainActor
  @Suite("UIScrollView")
  struct ScrollViewTests {
    @Test("key-value observing its contentOffset: each step of a drag, with old and new values")
    func observedOffset() throws {
      final class Watcher: ObjCObject {
        var seen: [(CGPoint?, CGPoint?)] = []
        override func observeValue(
          forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
          context: UnsafeMutableRawPointer?
        ) {
          seen.append((change.oldValue as? CGPoint, change.newValue as? CGPoint))
        }
      }
      let scrollView = UIScrollView(frame: CGRect(x: 0, y: 0, width: 375, height: 667))
      scrollView.contentSize = CGSize(width: 375, height: 2000)
      let watcher = Watcher()
      try scrollView.addObserver(watcher, forKeyPath: "contentOffset", options: [.old, .new])
      #expect(object_getClass(scrollView)?.name == "NSKVONotifying_UIScrollView")
      #expect(scrollView.objcClass === UIScrollView.runtimeClass)
      scrollView.contentOffset = CGPoint(x: 0, y: 40)
      #expect(watcher.seen.count == 1)
      #expect(watcher.seen.first?.0 == .zero && watcher.seen.first?.1 == CGPoint(x: 0, y: 40))
      scrollView.simulateDrag(by: CGPoint(x: 0, y: 60), duration: 0.1)
      VirtualRunLoop.main.runUntilIdle()
      #expect(watcher.seen.count > 2, "every frame of the drag")
      #expect(watcher.seen.last?.1 == CGPoint(x: 0, y: 100))
      try scrollView.removeObserver(watcher, forKeyPath: "contentOffset")
      #expect(object_getClass(scrollView) === UIScrollView.runtimeClass)
    }

    @Test("its contentOffset and UIView's properties are declared, as UIKit declares them")
    func declaredProperties() {
      #expect(
        class_getProperty(UIScrollView.runtimeClass, "contentOffset")?.attributeString
          == "T{CGPoint=dd},N")
      #expect(class_getProperty(UIScrollView.runtimeClass, "alpha")?.attributeString == "Td,N")
      #expect(
        property_copyAttributeValue(class_getProperty(UITableView.runtimeClass, "hidden"), "G")
          == "isHidden")
      #expect(class_copyPropertyList(UIView.runtimeClass).map(\.name).contains("backgroundColor"))
    }

    @Test("a simulated drag moves the offset frame by frame in tracking mode")
    func drag() {
      freshModel()
      let scrollView = UIScrollView(frame: CGRect(x: 0, y: 0, width: 375, height: 667))
      let recorder = OffsetRecorder()
      scrollView.delegate = recorder
      var defaultTimerFired = false
      VirtualRunLoop.main.perform(after: 0.05) { defaultTimerFired = true }
      scrollView.simulateDrag(by: CGPoint(x: 0, y: 120), duration: 0.1)
      VirtualRunLoop.main.advance(by: 0.08)
      #expect(VirtualRunLoop.main.currentMode == .tracking && !defaultTimerFired)
      VirtualRunLoop.main.runUntilIdle()
      #expect(recorder.offsets.count == 6)
      #expect(recorder.offsets.last == 120 && recorder.ended)
      #expect(VirtualRunLoop.main.currentMode == .default && defaultTimerFired)
    }
  }
}
