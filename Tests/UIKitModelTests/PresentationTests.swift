// Modal presentation, full screen: UIKit's callbacks and order, the presenting root, the status
// bar, and the presentations UIKit refuses (sheets: SheetTests.swift).
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("UIViewController presentation")
  struct PresentationTests {
    /// A page that prefers light content, for the status bar.
    final class LightScreen: UIViewController {
      override var preferredStatusBarStyle: UIStatusBarStyle { .lightContent }
    }

    /// `controller`, presented full screen (the default from iOS 13 is a sheet).
    private func fullScreen<Controller: UIViewController>(_ controller: Controller) -> Controller {
      controller.modalPresentationStyle = .fullScreen
      return controller
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

    @Test("full screen: present and dismiss call back in UIKit's order, sliding over the duration")
    func presentAndDismiss() {
      let (navigation, root, log) = scene()
      let sheet = fullScreen(LoggedScreen("S", log: log))
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

    @Test("full screen: the presented controller decides the status bar until it is dismissed")
    func statusBar() {
      let (navigation, _, _) = scene()
      #expect(UIApplication.shared.resolvedStatusBarStyle == .default)
      navigation.present(fullScreen(LightScreen()), animated: false)
      #expect(UIApplication.shared.resolvedStatusBarStyle == .lightContent)
      navigation.dismiss(animated: false)
      #expect(UIApplication.shared.resolvedStatusBarStyle == .default)
    }

    @Test("a presented navigation controller's top page hears the callbacks; its root is pushed")
    func presentedNavigation() {
      let (navigation, _, log) = scene()
      let page = LoggedScreen("P", log: log)
      let presented = fullScreen(UINavigationController(rootViewController: page))
      navigation.present(presented, animated: false)
      #expect(
        log.take() == [
          "P.viewDidLoad", "A.willDisappear", "P.willAppear", "P.didAppear", "A.didDisappear",
        ])
      #expect(presented.navigationBar.items?.map(\.title) == ["P"])
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

    // UIKit raises for these: "Application tried to present modally a view controller that is
    // already being presented", "... an active controller"; and warns "Attempt to present ...
    // while a presentation is in progress".
    @Test("a cycle, an active controller, and a presenter still being presented: refused")
    func moreRefusals() {
      let (navigation, _, _) = scene()
      let sheet = UIViewController()
      navigation.present(sheet, animated: true)
      UIKitModelIssues.removeAll()
      sheet.present(UIViewController(), animated: false)
      #expect(sheet.presentedViewController == nil, "still being presented")
      VirtualRunLoop.main.runUntilIdle()
      sheet.present(navigation, animated: false)
      #expect(sheet.presentedViewController == nil, "a cycle")
      let window = UIWindow(frame: UIScreen.main.bounds)
      let onScreen = UIViewController()
      window.rootViewController = onScreen
      window.makeKeyAndVisible()
      sheet.present(onScreen, animated: false)
      #expect(sheet.presentedViewController == nil, "active elsewhere")
      let reasons = UIKitModelIssues.all.map(\.description)
      #expect(reasons.count == 3)
      #expect(reasons[0].contains("while a presentation or dismissal is in progress"))
      #expect(reasons[1].contains("a presentation cycle"))
      #expect(reasons[2].contains("which is active"))
    }

    @Test("presenting during a push is refused: the pushed page's callbacks stay balanced")
    func duringPush() {
      let (navigation, _, log) = scene()
      navigation.pushViewController(LoggedScreen("B", log: log), animated: true)
      UIKitModelIssues.removeAll()
      navigation.present(LoggedScreen("S", log: log), animated: false)
      #expect(navigation.presentedViewController == nil)
      #expect(
        UIKitModelIssues.all.first?.description.contains("push or pop is in progress") == true)
      VirtualRunLoop.main.runUntilIdle()
      let b = log.take().filter { $0.hasPrefix("B.") && !$0.hasSuffix("viewDidLoad") }
      #expect(b == ["B.willAppear", "B.didAppear"])
    }

    // Apple: dismissing from lower in a stack of presentations "dismisses its immediate child
    // view controller and all view controllers above that child on the stack".
    @Test("dismissing from the bottom of three presentations dismisses all; only the top animates")
    func dismissChain() {
      let (navigation, _, log) = scene()
      let first = fullScreen(LoggedScreen("P1", log: log))
      let second = LoggedScreen("P2", log: log)
      let third = LoggedScreen("P3", log: log)
      navigation.present(first, animated: false)
      first.present(second, animated: false)
      second.present(third, animated: false)
      _ = log.take()
      var done = false
      navigation.dismiss(animated: true) { done = true }
      #expect(log.take() == ["P3.willDisappear", "A.willAppear"])
      // The intermediate ones are gone at once: the top-most slides down over the presenter.
      #expect(first.view.superview == nil && second.view.superview == nil)
      #expect(third.view.superview != nil)
      VirtualRunLoop.main.runUntilIdle()
      #expect(log.take() == ["A.didAppear", "P3.didDisappear"])
      #expect(done)
      for controller in [first, second, third] {
        #expect(controller.presentingViewController == nil && controller.view.superview == nil)
        #expect(controller.presentedViewController == nil)
      }
      #expect(navigation.presentedViewController == nil)
      // The middle of the stack dismisses what is above it only.
      navigation.present(first, animated: false)
      first.present(second, animated: false)
      second.present(third, animated: false)
      second.dismiss(animated: false)
      #expect(second.presentedViewController == nil && first.presentedViewController === second)
      first.dismiss(animated: false)
      #expect(first.presentedViewController == nil && navigation.presentedViewController === first)
    }
  }
}
