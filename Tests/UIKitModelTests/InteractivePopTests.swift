// The interactive pop: the edge pan drives the default pop; finish and cancel end with the
// right controllers, callbacks and bar; seeds' private hooks see every step.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("Interactive pop")
  struct InteractivePopTests {
    private func stack() -> (UINavigationController, [LoggedScreen], NavigationLog) {
      freshModel()
      UIDevice.current.systemVersion = "13.0"
      let log = NavigationLog()
      let a = LoggedScreen("A", log: log)
      let b = LoggedScreen("B", log: log)
      let navigation = UINavigationController(rootViewController: a)
      let window = UIWindow(frame: UIScreen.main.bounds)
      window.rootViewController = navigation
      navigation.pushViewController(b, animated: false)
      _ = log.take()
      return (navigation, [a, b], log)
    }

    @Test("the delegate hears willShow as the swipe begins, didShow if it finishes, none if not")
    func delegateDuringSwipe() throws {
      let (navigation, screens, _) = stack()
      let delegate = ShowRecordingDelegate()
      navigation.delegate = delegate
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      GestureDriver.begin(pan)
      #expect(delegate.heard == ["willShow A"])
      // Short and slow: cancelled.
      GestureDriver.move(pan, to: CGPoint(x: 100, y: 0))
      GestureDriver.move(pan, to: CGPoint(x: 101, y: 0))
      GestureDriver.end(pan)
      VirtualRunLoop.main.runUntilIdle()
      #expect(delegate.heard == ["willShow A"], "OpenRadar 21137690: nothing after a cancel")
      #expect(navigation.topViewController === screens[1])
      GestureDriver.begin(pan)
      GestureDriver.move(pan, to: CGPoint(x: 300, y: 0))
      GestureDriver.end(pan)
      VirtualRunLoop.main.runUntilIdle()
      #expect(delegate.heard == ["willShow A", "willShow A", "didShow A"])
    }

    @Test("a swipe past half way finishes the pop, with the finish callbacks")
    func finishes() throws {
      let (navigation, screens, log) = stack()
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      GestureDriver.begin(pan)
      let coordinator = try #require(screens[0].transitionCoordinator)
      #expect(coordinator.initiallyInteractive && coordinator.isInteractive)
      #expect(log.entries == ["B.willDisappear", "A.willAppear"])
      GestureDriver.move(pan, to: CGPoint(x: 150, y: 0))
      #expect(abs(coordinator.percentComplete - 150 / 375) < 1e-9)
      GestureDriver.move(pan, to: CGPoint(x: 250, y: 0))
      GestureDriver.end(pan)
      #expect(!coordinator.isInteractive && !coordinator.isCancelled)
      VirtualRunLoop.main.runUntilIdle()
      #expect(log.take() == ["B.willDisappear", "A.willAppear", "B.didDisappear", "A.didAppear"])
      #expect(navigation.viewControllers == [screens[0]])
      #expect(navigation.navigationBar.items?.count == 1)
      #expect(screens[0].transitionCoordinator == nil)
    }

    @Test(
      "the release finishes past half way unless flicked back, or when flicked on: either side of each line",
      arguments: [
        (0.45, SwipeRelease.slow, false), (0.49, .slow, false), (0.51, .slow, true),
        (0.55, .slow, true), (0.2, .velocity(290), false), (0.2, .velocity(310), true),
        (0.6, .velocity(-290), true), (0.6, .velocity(-310), false),
      ] as [(CGFloat, SwipeRelease, Bool)])
    func releaseLines(fraction: CGFloat, release: SwipeRelease, finishes: Bool) {
      // Docs/UIKitModel.md, section 7: finish when the velocity is over 300 points per second,
      // or past half way while the finger is not flicking back (faster than 300 the other way).
      freshModel()
      let session = NavigationSession(root: UIViewController())
      session.push(UIViewController())
      session.swipeBack(to: fraction, release: release)
      #expect(session.navigationController.viewControllers.count == (finishes ? 1 : 2))
    }

    @Test("a short, slow swipe is cancelled: both controllers go back, the bar too")
    func cancels() throws {
      let (navigation, screens, log) = stack()
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      var sawCancel: Bool?
      GestureDriver.begin(pan)
      screens[0].transitionCoordinator?.notifyWhenInteractionChanges { sawCancel = $0.isCancelled }
      GestureDriver.move(pan, to: CGPoint(x: 100, y: 0))
      GestureDriver.move(pan, to: CGPoint(x: 101, y: 0))
      GestureDriver.end(pan)
      VirtualRunLoop.main.runUntilIdle()
      #expect(sawCancel == true)
      #expect(
        log.take() == [
          // UIKit's order: once it has run back, A goes, then B comes again.
          "B.willDisappear", "A.willAppear", "A.willDisappear", "A.didDisappear", "B.willAppear",
          "B.didAppear",
        ])
      #expect(navigation.viewControllers == screens)
      #expect(navigation.navigationBar.items?.count == 2)
    }

    @Test("percentComplete keeps the percent of the release while the rest of the pop runs")
    func percentAfterRelease() throws {
      let (navigation, screens, _) = stack()
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      GestureDriver.begin(pan)
      let coordinator = try #require(screens[0].transitionCoordinator)
      var percents: [CGFloat] = []
      coordinator.animate(alongsideTransition: nil) { percents.append($0.percentComplete) }
      GestureDriver.move(pan, to: CGPoint(x: 150, y: 0))
      GestureDriver.move(pan, to: CGPoint(x: 250, y: 0))
      GestureDriver.end(pan)
      VirtualRunLoop.main.advance(frames: 3)
      #expect(abs(coordinator.percentComplete - 250 / 375) < 1e-9)
      VirtualRunLoop.main.runUntilIdle()
      #expect(percents.count == 1 && abs(percents[0] - 250 / 375) < 1e-9)
    }

    @Test("_updateInteractiveTransition: and shouldPop are sent through the runtime, in order")
    func privateHooks() throws {
      let (navigation, _, _) = stack()
      let cls = try #require(
        objc_allocateClassPair(UINavigationController.runtimeClass, "WRLike", 0))
      let seen = RuntimeLock<[String]>([])
      let original = class_getMethodImplementation(
        UINavigationController.runtimeClass, "_updateInteractiveTransition:")!
      let update = try imp_implementationWithBlock {
        (me: UINavigationController, percent: Double) in
        seen.withLock { $0.append(String(format: "update %.2f", percent)) }
        typealias Update = @convention(c) (id, SEL, Double) -> Void
        unsafeBitCast(original.rawValue, to: Update.self)(
          me.passUnretained(), Selector("_updateInteractiveTransition:").sel, percent)
      }
      let shouldPop = try imp_implementationWithBlock {
        (me: UINavigationController, _: ObjCObject?, _: ObjCObject?) -> Bool in
        let interactive = me.topViewController?.transitionCoordinator?.initiallyInteractive ?? false
        seen.withLock { $0.append("shouldPop interactive: \(interactive)") }
        return true
      }
      class_addMethod(cls, "_updateInteractiveTransition:", update, "v@:d")
      class_addMethod(cls, "navigationBar:shouldPopItem:", shouldPop, "B@:@@")
      objc_registerClassPair(cls)
      try navigation.setClass(cls)
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      GestureDriver.swipe(pan, translation: CGPoint(x: 300, y: 0), steps: 3)
      VirtualRunLoop.main.runUntilIdle()
      #expect(
        seen.withLock { $0 } == [
          // The first step (100 points) is where the pan begins and the pop starts; each
          // later step updates it.
          "shouldPop interactive: true", "update 0.53", "update 0.80",
        ])
      #expect(navigation.viewControllers.count == 1)
    }

    @Test("a gesture that never began cannot end; a root-only stack does not pop")
    func badInput() throws {
      let (navigation, _, _) = stack()
      navigation.popViewController(animated: false)
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      GestureDriver.end(pan)
      #expect(UIKitModelIssues.all.contains(.gestureNotBegun(pan.description)))
      GestureDriver.swipe(pan, translation: CGPoint(x: 300, y: 0))
      VirtualRunLoop.main.runUntilIdle()
      #expect(navigation.viewControllers.count == 1)
    }
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("NavigationSession")
  struct SessionTests {
    private func script() -> [String] {
      let home = UIViewController()
      home.title = "Home"
      let detail = UIViewController()
      detail.title = "Detail"
      let session = NavigationSession(root: home)
      session.push(detail).swipeBack(to: 0.4).swipeBack(to: 0.8).push(UIViewController()).tapBack()
      return session.trace
    }

    @Test("a script of push, swipes and the back button ends where UIKit would, the same each time")
    func scripted() {
      let trace = script()
      #expect(trace.count == 6)
      #expect(trace[1].contains("push Detail -> top Detail"))
      #expect(trace[2].contains("swipe back to 40 % (slow) -> top Detail"), "cancelled")
      #expect(trace[3].contains("swipe back to 80 % (slow) -> top Home"), "finished")
      #expect(trace[5].contains("back button -> top Home"))
      #expect(script() == trace)
    }
  }
}

/// A navigation controller delegate that records what it is told, by title.
private final class ShowRecordingDelegate: UINavigationControllerDelegate {
  var heard: [String] = []
  func navigationController(
    _ navigationController: UINavigationController, willShow viewController: UIViewController,
    animated: Bool
  ) {
    heard.append("willShow \(viewController.title ?? "?")")
  }
  func navigationController(
    _ navigationController: UINavigationController, didShow viewController: UIViewController,
    animated: Bool
  ) {
    heard.append("didShow \(viewController.title ?? "?")")
  }
}
