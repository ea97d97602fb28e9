// The navigation controller: appearance callbacks in UIKit's order, the coordinator during a
// transition, the private members, swizzles seen by every caller, and UIKit's rules.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// Records its appearance callbacks into a shared log.
final class LoggedScreen: UIViewController {
  let name: String
  let log: NavigationLog

  init(_ name: String, log: NavigationLog) {
    self.name = name
    self.log = log
    super.init()
    title = name
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    log.entries.append("\(name).viewDidLoad")
  }
  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    log.entries.append("\(name).willAppear")
  }
  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    log.entries.append("\(name).didAppear")
  }
  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    log.entries.append("\(name).willDisappear")
  }
  override func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    log.entries.append("\(name).didDisappear")
  }
}

/// The callbacks seen, in order.
final class NavigationLog {
  var entries: [String] = []
  func take() -> [String] {
    defer { entries.removeAll() }
    return entries
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("UINavigationController")
  struct NavigationTests {
    /// A navigation controller with screens A (root), launched in a window.
    private func stack(_ names: [String] = ["A"]) -> (
      UINavigationController, [LoggedScreen], NavigationLog
    ) {
      freshModel()
      UIDevice.current.systemVersion = "13.0"
      let log = NavigationLog()
      let screens = names.map { LoggedScreen($0, log: log) }
      let navigation = UINavigationController(rootViewController: screens[0])
      let window = UIWindow(frame: UIScreen.main.bounds)
      window.rootViewController = navigation
      for screen in screens.dropFirst() { navigation.pushViewController(screen, animated: false) }
      _ = log.take()
      return (navigation, screens, log)
    }

    @Test("push and pop, animated and not, call back in UIKit's order", arguments: [false, true])
    func pushAndPop(animated: Bool) {
      let (navigation, _, log) = stack()
      let b = LoggedScreen("B", log: log)
      navigation.pushViewController(b, animated: animated)
      if animated {
        #expect(log.entries == ["B.viewDidLoad", "A.willDisappear", "B.willAppear"])
        VirtualRunLoop.main.runUntilIdle()
      }
      #expect(
        log.take() == [
          "B.viewDidLoad", "A.willDisappear", "B.willAppear", "A.didDisappear", "B.didAppear",
        ])
      #expect(navigation.popViewController(animated: animated) === b)
      VirtualRunLoop.main.runUntilIdle()
      #expect(log.take() == ["B.willDisappear", "A.willAppear", "B.didDisappear", "A.didAppear"])
      #expect(navigation.viewControllers.count == 1 && b.parent == nil)
    }

    @Test(
      "popTo and popToRoot call back only the top and the target; setViewControllers too",
      arguments: [false, true])
    func popToAndSet(animated: Bool) {
      let (navigation, screens, log) = stack(["A", "B", "C", "D"])
      #expect(
        navigation.popToViewController(screens[1], animated: animated) == [screens[2], screens[3]])
      VirtualRunLoop.main.runUntilIdle()
      #expect(log.take() == ["D.willDisappear", "B.willAppear", "D.didDisappear", "B.didAppear"])
      #expect(navigation.popToRootViewController(animated: animated) == [screens[1]])
      VirtualRunLoop.main.runUntilIdle()
      #expect(log.take() == ["B.willDisappear", "A.willAppear", "B.didDisappear", "A.didAppear"])
      let e = LoggedScreen("E", log: log)
      navigation.setViewControllers([screens[0], e], animated: animated)
      VirtualRunLoop.main.runUntilIdle()
      #expect(
        log.take() == [
          "E.viewDidLoad", "A.willDisappear", "E.willAppear", "A.didDisappear", "E.didAppear",
        ])
      #expect(navigation.navigationBar.items?.count == navigation.viewControllers.count)
    }

    @Test("during an animated push the coordinator and _isTransitioning are there, then gone")
    func coordinator() throws {
      let (navigation, screens, _) = stack()
      let b = LoggedScreen("B", log: NavigationLog())
      var alongside = 0
      var completed = false
      navigation.pushViewController(b, animated: true)
      let coordinator = try #require(b.transitionCoordinator)
      coordinator.animate(
        alongsideTransition: { _ in alongside += 1 }, completion: { _ in completed = true })
      #expect(coordinator.viewController(forKey: .from) === screens[0])
      #expect(coordinator.viewController(forKey: .to) === b)
      #expect(
        coordinator.isAnimated && !coordinator.isInteractive && !coordinator.initiallyInteractive)
      #expect(coordinator.transitionDuration == UINavigationController.transitionDuration)
      #expect(try navigation.value(forKey: "_isTransitioning") as? Bool == true)
      VirtualRunLoop.main.advance(by: 0.175)
      #expect(abs(coordinator.percentComplete - 0.5) < 0.05)
      #expect(screens[0].transitionCoordinator === coordinator)
      VirtualRunLoop.main.runUntilIdle()
      #expect(b.transitionCoordinator == nil && completed && alongside == 1)
      #expect(try navigation.value(forKey: "_isTransitioning") as? Bool == false)
    }

    @Test("a completion set before begin() around a push fires when the push has finished")
    func transactionAroundPush() {
      let (navigation, _, _) = stack()
      var finishedAt: TimeInterval?
      CATransaction.setCompletionBlock { finishedAt = CACurrentMediaTime() }
      CATransaction.setAnimationDuration(0.13)
      CATransaction.begin()
      navigation.pushViewController(LoggedScreen("B", log: NavigationLog()), animated: true)
      CATransaction.commit()
      VirtualRunLoop.main.runUntilIdle()
      let end = UINavigationController.transitionDuration
      #expect(finishedAt.map { $0 >= end && $0 < end + 2.0 / 60 } == true)
    }

    @Test("a completion around an animated push runs after viewDidAppear:; a push from it works")
    func pushWithCompletion() {
      let (navigation, _, log) = stack()
      let b = LoggedScreen("B", log: log)
      let c = LoggedScreen("C", log: log)
      var seen: (transitioning: Bool, log: [String])?
      CATransaction.begin()
      CATransaction.setCompletionBlock {
        seen = (navigation.isTransitioning, log.entries)
        navigation.pushViewController(c, animated: true)
      }
      navigation.pushViewController(b, animated: true)
      CATransaction.commit()
      VirtualRunLoop.main.runUntilIdle()
      #expect(seen?.transitioning == false)
      #expect(seen?.log.last == "B.didAppear")
      #expect(navigation.viewControllers.last === c)
      #expect(log.entries.suffix(2) == ["B.didDisappear", "C.didAppear"])
    }

    @Test("a swizzle of -viewWillAppear: runs for the controller's own calls, after overrides")
    func swizzledAppearance() throws {
      let (navigation, _, log) = stack()
      let cls = try #require(objc_allocateClassPair(LoggedScreen.runtimeClass, "SwizzledScreen", 0))
      let original = class_getMethodImplementation(
        UIViewController.runtimeClass, "viewWillAppear:")!
      let swizzled = try imp_implementationWithBlock { (me: LoggedScreen, animated: Bool) in
        me.log.entries.append("wr_viewWillAppear")
        typealias Appear = @convention(c) (id, SEL, Bool) -> Void
        unsafeBitCast(original.rawValue, to: Appear.self)(
          me.passUnretained(), Selector("viewWillAppear:").sel, animated)
      }
      class_addMethod(cls, "viewWillAppear:", swizzled, "v@:B")
      objc_registerClassPair(cls)
      let b = LoggedScreen("B", log: log)
      try b.setClass(cls)
      navigation.pushViewController(b, animated: false)
      let entries = log.take()
      #expect(entries.contains("wr_viewWillAppear"))
      #expect(
        entries.firstIndex(of: "wr_viewWillAppear")! < entries.firstIndex(of: "B.willAppear")!)
    }

    @Test("UIKit's rules: no double push, root pops to nil, bad targets and empty stacks refused")
    func rules() {
      let (navigation, screens, _) = stack(["A", "B"])
      navigation.pushViewController(screens[1], animated: false)
      #expect(UIKitModelIssues.all == [.pushedTwice(controller: screens[1].description)])
      navigation.popToRootViewController(animated: false)
      #expect(navigation.popViewController(animated: true) == nil)
      #expect(
        navigation.popToViewController(LoggedScreen("X", log: NavigationLog()), animated: true)
          == nil)
      navigation.setViewControllers([], animated: false)
      #expect(navigation.viewControllers == [screens[0]])
      navigation.pushViewController(LoggedScreen("C", log: NavigationLog()), animated: true)
      navigation.pushViewController(LoggedScreen("D", log: NavigationLog()), animated: true)
      #expect(navigation.viewControllers.count == 2, "a push during a transition is refused")
      #expect(UIKitModelIssues.all.count == 4)
    }

    @Test(
      "the back button asks shouldPop through the runtime; iOS 13 refuses YES after a manual pop")
    func backButton() throws {
      let (navigation, screens, _) = stack(["A", "B", "C"])
      navigation.navigationBar.tapBackButton()
      VirtualRunLoop.main.runUntilIdle()
      #expect(navigation.topViewController === screens[1])
      // WRNavigationBar_swift's shouldPop: pop by hand, then return true.
      let cls = try #require(
        objc_allocateClassPair(UINavigationController.runtimeClass, "ManualPopper", 0))
      let manual = try imp_implementationWithBlock {
        (me: UINavigationController, _: ObjCObject?, _: ObjCObject?) -> Bool in
        me.popViewController(animated: false)
        return true
      }
      class_addMethod(cls, "navigationBar:shouldPopItem:", manual, "B@:@@")
      objc_registerClassPair(cls)
      try navigation.setClass(cls)
      navigation.navigationBar.tapBackButton()
      #expect(navigation.topViewController === screens[0], "popped once, by the override")
      #expect(
        UIKitModelIssues.all.contains {
          if case .shouldPopAfterManualPop = $0 { true } else { false }
        })

      // Before iOS 13 the same override is no error.
      UIKitModelIssues.removeAll()
      UIDevice.current.systemVersion = "12.4"
      navigation.pushViewController(LoggedScreen("B2", log: NavigationLog()), animated: false)
      navigation.navigationBar.tapBackButton()
      #expect(navigation.viewControllers.count == 1 && UIKitModelIssues.all.isEmpty)
    }

    @Test("a push asks the bar's delegate shouldPushItem through the runtime, after willAppear")
    func shouldPushThroughTheRuntime() throws {
      freshModel()
      let log = NavigationLog()
      let root = LoggedScreen("A", log: log)
      let navigation = UINavigationController(rootViewController: root)
      // A subclass made at run time answers shouldPush and logs whose item it was asked for.
      let cls = try #require(
        objc_allocateClassPair(UINavigationController.runtimeClass, "PushLogger", 0))
      let logging = try imp_implementationWithBlock {
        (_: UINavigationController, _: ObjCObject?, item: ObjCObject?) -> Bool in
        log.entries.append("shouldPush \((item as? UINavigationItem)?.title ?? "?")")
        return true
      }
      class_addMethod(cls, "navigationBar:shouldPushItem:", logging, "B@:@@")
      objc_registerClassPair(cls)
      try navigation.setClass(cls)
      let window = UIWindow(frame: UIScreen.main.bounds)
      window.rootViewController = navigation
      #expect(log.take().contains("shouldPush A"), "the root's item, as the controller shows")
      navigation.pushViewController(LoggedScreen("B", log: log), animated: true)
      #expect(log.take() == ["B.viewDidLoad", "A.willDisappear", "B.willAppear", "shouldPush B"])
      VirtualRunLoop.main.runUntilIdle()
      _ = navigation.popViewController(animated: false)
      #expect(!log.take().contains { $0.hasPrefix("shouldPush") }, "a pop asks no push")
    }

    /// A navigation controller in a key window whose top controller prefers light content.
    private func lightContentOnTop() -> UINavigationController {
      final class Light: UIViewController {
        override var preferredStatusBarStyle: UIStatusBarStyle { .lightContent }
      }
      let (navigation, _, _) = stack()
      let window = UIWindow(frame: UIScreen.main.bounds)
      window.rootViewController = navigation
      window.makeKeyAndVisible()
      navigation.pushViewController(Light(), animated: false)
      return navigation
    }

    @Test("with its bar showing, a navigation controller answers for the status bar from the bar")
    func statusBarFromTheBar() {
      let navigation = lightContentOnTop()
      #expect(UIApplication.shared.resolvedStatusBarStyle == .default, "the child is not asked")
      navigation.navigationBar.barStyle = .black
      #expect(UIApplication.shared.resolvedStatusBarStyle == .lightContent)
      let answer: Int = (try? objc_msgSend(navigation, "preferredStatusBarStyle")) ?? -1
      #expect(answer == UIStatusBarStyle.lightContent.rawValue, "sends get the bar's answer")
    }

    @Test("with its bar hidden, the top controller decides the status bar style")
    func statusBarFromTheTop() {
      let navigation = lightContentOnTop()
      navigation.setNavigationBarHidden(true, animated: false)
      #expect(UIApplication.shared.resolvedStatusBarStyle == .lightContent)
      let style: Int =
        (try? objc_msgSend(navigation.topViewController!, "preferredStatusBarStyle")) ?? -1
      #expect(style == UIStatusBarStyle.lightContent.rawValue, "the Swift override answers sends")
    }

    @Test("a swizzle of -[UINavigationController preferredStatusBarStyle] sets the status bar")
    func statusBarSwizzled() throws {
      let (navigation, _, _) = stack()
      let window = UIWindow(frame: UIScreen.main.bounds)
      window.rootViewController = navigation
      window.makeKeyAndVisible()
      let cls = UINavigationController.runtimeClass
      let light = try imp_implementationWithBlock { (_: UINavigationController) -> Int in
        UIStatusBarStyle.lightContent.rawValue
      }
      let original = try #require(
        class_replaceMethod(cls, "preferredStatusBarStyle", light, "q@:"))
      defer { _ = class_replaceMethod(cls, "preferredStatusBarStyle", original, "q@:") }
      #expect(UIApplication.shared.resolvedStatusBarStyle == .lightContent)
      #expect(navigation.preferredStatusBarStyle == .lightContent)
    }
  }
}
