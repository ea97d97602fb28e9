// Modal presentation: UIKit's callbacks and order, the presenting root, the status bar, and the
// presentations UIKit refuses.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

extension UIKitModelTests {
  @Suite("UIViewController presentation")
  struct PresentationTests {
    /// A page that prefers light content, for the status bar.
    final class LightScreen: UIViewController {
      override var preferredStatusBarStyle: UIStatusBarStyle { .lightContent }
    }

    /// A navigation controller with A at its root, in a key window; the log is emptied.
    private func scene() -> (UINavigationController, LoggedScreen, NavigationLog) {
      let log = NavigationLog()
      let root = LoggedScreen("A", log: log)
      let navigation = UINavigationController(rootViewController: root)
      let window = UIWindow(frame: UIScreen.main.bounds)
      window.rootViewController = navigation
      window.makeKeyAndVisible()
      VirtualRunLoop.main.runUntilIdle()
      _ = log.take()
      return (navigation, root, log)
    }

    @Test("present and dismiss call back in UIKit's order, sliding over the duration")
    func presentAndDismiss() {
      let (navigation, root, log) = scene()
      let sheet = LoggedScreen("S", log: log)
      var completions: [String] = []
      root.present(sheet, animated: true) { completions.append("presented") }
      #expect(navigation.presentedViewController === sheet, "the root of the hierarchy presents")
      #expect(sheet.presentingViewController === navigation)
      #expect(sheet.isBeingPresented)
      // UIKit loads the incoming view before any appearance callback.
      #expect(log.entries == ["S.viewDidLoad", "A.willDisappear", "S.willAppear"])
      let height = UIScreen.main.bounds.height
      #expect(sheet.view.presentationFrame.minY == height, "starts below the window")
      VirtualRunLoop.main.advance(by: UIViewController.presentationDuration / 2)
      #expect(completions.isEmpty, "not before the slide ends")
      #expect(sheet.view.presentationFrame.minY > 0 && sheet.view.presentationFrame.minY < height)
      VirtualRunLoop.main.runUntilIdle()
      #expect(
        log.take() == [
          "S.viewDidLoad", "A.willDisappear", "S.willAppear", "S.didAppear", "A.didDisappear",
        ])
      #expect(completions == ["presented"] && !sheet.isBeingPresented)
      #expect(sheet.view.frame == UIScreen.main.bounds)

      sheet.dismiss(animated: true) { completions.append("dismissed") }
      #expect(sheet.isBeingDismissed)
      VirtualRunLoop.main.runUntilIdle()
      #expect(log.take() == ["S.willDisappear", "A.willAppear", "A.didAppear", "S.didDisappear"])
      #expect(completions == ["presented", "dismissed"])
      #expect(navigation.presentedViewController == nil && sheet.presentingViewController == nil)
      #expect(sheet.view.superview == nil)
    }

    @Test("the presented controller decides the status bar until it is dismissed")
    func statusBar() {
      let (navigation, _, _) = scene()
      #expect(UIApplication.shared.resolvedStatusBarStyle == .default)
      navigation.present(LightScreen(), animated: false)
      #expect(UIApplication.shared.resolvedStatusBarStyle == .lightContent)
      navigation.dismiss(animated: false)
      #expect(UIApplication.shared.resolvedStatusBarStyle == .default)
    }

    @Test("a presented navigation controller's top page hears the callbacks; its root is pushed")
    func presentedNavigation() {
      let (navigation, _, log) = scene()
      let page = LoggedScreen("P", log: log)
      let presented = UINavigationController(rootViewController: page)
      navigation.present(presented, animated: false)
      #expect(
        log.take() == [
          "P.viewDidLoad", "A.willDisappear", "P.willAppear", "P.didAppear", "A.didDisappear",
        ])
      #expect(presented.navigationBar.items.map(\.title) == ["P"])
      #expect(presented.view.superview is UIWindow, "over the whole window")
    }

    @Test("UIKit's refusals: presenting twice, a presented controller, off-window; nothing changes")
    func refusals() {
      let (navigation, root, _) = scene()
      let first = UIViewController()
      navigation.present(first, animated: true)
      let second = UIViewController()
      root.present(second, animated: false)
      #expect(navigation.presentedViewController === first, "already presenting")
      #expect(second.presentingViewController == nil && !second.isViewLoaded)
      first.dismiss(animated: false)
      #expect(navigation.presentedViewController === first, "not while it is being presented")
      VirtualRunLoop.main.runUntilIdle()

      let offWindow = UIViewController()
      offWindow.present(UIViewController(), animated: false)
      #expect(offWindow.presentedViewController == nil && !offWindow.isViewLoaded)
      let other = UIWindow(frame: UIScreen.main.bounds)
      let elsewhere = UIViewController()
      other.rootViewController = elsewhere
      elsewhere.present(first, animated: false)
      #expect(first.presentingViewController === navigation, "already presented")
      #expect(UIKitModelIssues.all.count == 4)
      #expect(
        UIKitModelIssues.all.allSatisfy {
          if case .presentationRefused = $0 { true } else { false }
        })

      var ran = false
      UIViewController().dismiss(animated: true) { ran = true }
      #expect(ran, "dismissing with nothing presented just runs the completion, as UIKit does")
    }
  }
}
