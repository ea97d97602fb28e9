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

    @Test("the status bar style follows the child chain, or the legacy setter")
    func statusBar() {
      let delegate = ProbeDelegate()
      UIApplication.shared.launch(delegate: delegate)
      let app = UIApplication.shared
      #expect(app.resolvedStatusBarStyle == .default)
      delegate.window?.statusBarAppearanceProvider = StyleNode(
        .default, child: StyleNode(.lightContent))
      #expect(app.resolvedStatusBarStyle == .lightContent)
      #expect(UINavigationBar().appearance().statusBarStyle == .lightContent)
      delegate.window?.statusBarAppearanceProvider?.setNeedsStatusBarAppearanceUpdate()
      #expect(app.statusBarAppearanceUpdates == 1)
      app.isViewControllerBasedStatusBarAppearance = false
      app.statusBarStyle = .darkContent
      #expect(app.resolvedStatusBarStyle == .darkContent)
      app.isViewControllerBasedStatusBarAppearance = true
    }
  }

  @Suite("UIScrollView")
  struct ScrollViewTests {
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
