// A short, scriptable way to drive the model for tests and the lab, with a trace of what the
// user sees after each step.
public import Foundation

/// How a swipe back is released.
public enum SwipeRelease: Sendable {
  /// The finger stops and lifts: the pop finishes past half way and cancels before.
  case slow
  /// The finger flicks on: the pop finishes wherever it is.
  case flick
  /// The finger flicks back: the pop cancels wherever it is.
  case flickBack
  /// The finger moves on at this many points per second (negative: back) as it lifts.
  case velocity(CGFloat)
}

/// A scripted session: an application launched with a navigation controller, driven step by
/// step, each step run until the model is idle and traced with what the user sees.
///
/// ```swift
/// let session = NavigationSession(root: home)
/// session.push(detail).swipeBack(to: 0.4).swipeBack(to: 0.8).pop()
/// print(session.trace.joined(separator: "\n"))
/// ```
///
/// The same script gives the same trace, every time.
@preconcurrency @MainActor
public final class NavigationSession {
  /// The navigation controller the session drives: the window's root, or with a tab bar
  /// controller at the root, the selected tab's (the last selected that is one).
  public private(set) var navigationController: UINavigationController
  /// The tab bar controller at the root of the window, for a session launched with one.
  public let tabBarController: UITabBarController?
  private let root: UIViewController
  /// One line per step: the virtual time, the step, and what the bar the user looks at
  /// (``frontNavigationController``'s) looks like after it.
  public var trace: [String] { steps.map(\.line) }

  /// A step as it was recorded; its line is written when someone reads the trace (most runs
  /// never do, and formatting every step was a tenth of a scenario's cost).
  private struct Step {
    let time: TimeInterval
    let name: String
    let top: String
    let seenBar: SeenBar
    let seenTabBar: SeenTabBar?

    var line: String {
      "t=\(String(format: "%.3f", time)) \(name) -> top \(top); \(seenBar)"
        + (seenTabBar.map { "; \($0)" } ?? "")
    }
  }

  private var steps: [Step] = []

  private final class Delegate: UIApplicationDelegate {
    var window: UIWindow?
    let root: UIViewController
    init(root: UIViewController) { self.root = root }
    func application(
      _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [String: Any]?
    ) -> Bool {
      window?.rootViewController = root
      window?.makeKeyAndVisible()
      return true
    }
  }

  private let delegate: Delegate

  /// Launches an application on `device` running `systemVersion`, whose window shows `root` in
  /// a navigation controller.
  public convenience init(
    root: UIViewController, device: DeviceProfile = .iPhone8, systemVersion: String = "13.0"
  ) {
    UIScreen.main.profile = device
    UIDevice.current.systemVersion = systemVersion
    self.init(
      navigationController: UINavigationController(rootViewController: root), device: device,
      systemVersion: systemVersion)
  }

  /// Launches an application on `device` running `systemVersion`, whose window shows
  /// `navigationController` (one of a subclass, or of a class made at run time). Make the
  /// controller after setting the device and version (``UIScreen/main`` and
  /// ``UIDevice/current``), as its bar takes the hierarchy of the version it is made under.
  public init(
    navigationController: UINavigationController, device: DeviceProfile = .iPhone8,
    systemVersion: String = "13.0"
  ) {
    UIScreen.main.profile = device
    UIDevice.current.systemVersion = systemVersion
    self.navigationController = navigationController
    tabBarController = nil
    root = navigationController
    delegate = Delegate(root: navigationController)
    UIApplication.shared.launch(delegate: delegate, device: device, systemVersion: systemVersion)
    record("launch")
  }

  /// Launches an application on `device` running `systemVersion`, whose window shows
  /// `tabBarController`; the session drives the selected tab's navigation controller (when the
  /// selected tab is not one, the first tab that is, off screen until it is selected), and
  /// ``selectTab(_:)`` taps another tab. Make the controller and its tabs after setting the
  /// device and version, as for a navigation controller. Nil, with
  /// ``UIKitModelIssue/tabBarControllerRefused(controller:request:reason:)``, when no tab is a
  /// navigation controller.
  public init?(
    tabBarController: UITabBarController, device: DeviceProfile = .iPhone8,
    systemVersion: String = "13.0"
  ) {
    let tabs = tabBarController.viewControllers ?? []
    guard
      let navigation = tabBarController.selectedViewController as? UINavigationController
        ?? tabs.lazy.compactMap({ $0 as? UINavigationController }).first
    else {
      UIKitModelIssues.report(
        .tabBarControllerRefused(
          controller: tabBarController.description, request: "start a session",
          reason: "none of its tabs is a navigation controller"))
      return nil
    }
    UIScreen.main.profile = device
    UIDevice.current.systemVersion = systemVersion
    self.navigationController = navigation
    self.tabBarController = tabBarController
    root = tabBarController
    delegate = Delegate(root: tabBarController)
    UIApplication.shared.launch(delegate: delegate, device: device, systemVersion: systemVersion)
    record("launch")
  }

  /// What the user sees of the tab bar now, for a session launched with a tab bar controller.
  public var seenTabBar: SeenTabBar? { tabBarController?.tabBar.asSeen() }

  /// Taps the item of the tab at `index` and runs until idle: the tab bar controller asks its
  /// delegate, selects the tab and tells its delegate, as for a finger's tap; the session then
  /// drives that tab's navigation controller, if it is one. A session without a tab bar
  /// controller, an index with no item, or a hidden tab bar: the step is "refused".
  @discardableResult
  public func selectTab(_ index: Int) -> Self {
    guard let tabs = tabBarController, let window = tabs.view.window, !tabs.tabBar.isHidden,
      let point = tabs.tabBar.tapPoint(ofItemAt: index)
    else { return settle("tab \(index) (refused)") }
    window.tap(at: point)
    if let navigation = tabs.selectedViewController as? UINavigationController {
      navigationController = navigation
    }
    let title = tabs.selectedViewController.flatMap { $0.tabBarItem.title ?? $0.title } ?? "-"
    return settle("tab \(index) (selected \(tabs.selectedIndex): \(title))")
  }

  /// What the user sees of the bar now.
  public var seenBar: SeenBar {
    navigationController.navigationBar.asSeen()
  }

  /// The navigation controller the user looks at: the top-most one presented above the
  /// session's screen (a sheet's, say), else ``navigationController``.
  public var frontNavigationController: UINavigationController {
    presentedChain.last { $0 is UINavigationController } as? UINavigationController
      ?? navigationController
  }

  /// The controllers presented above the session's screen, the lowest first; empty (and not
  /// allocated) when nothing is presented.
  private var presentedChain: [UIViewController] {
    var chain: [UIViewController] = []
    var presented = root.presentedViewController
    while let controller = presented {
      chain.append(controller)
      presented = controller.presentedViewController
    }
    return chain
  }

  /// Drags the top-most sheet down, released `fraction` of the way out of the window, over
  /// `frames` frames, and runs until idle: a finger down 40 points below the sheet's top, in
  /// the middle, as a user grabs a sheet. Past half way without a flick back the sheet is
  /// dismissed; before, it goes back (``UIPresentationController``). The step is "refused" when
  /// nothing is presented as a card (a full-screen presentation, or before iOS 13), or the
  /// sheet's pan did not begin.
  @discardableResult
  public func dragSheetDown(to fraction: CGFloat, frames: Int = 12) -> Self {
    guard let top = presentedChain.last, top.activePresentationController?.isCard == true,
      let sheet = top.viewIfLoaded,
      let window = sheet.window
    else { return settle("drag the sheet down (refused)") }
    guard fraction.isFinite, abs(fraction) <= 10 else {
      UIKitModelIssues.report(
        .invalidGeometry(view: sheet.description, value: "drag the sheet to \(fraction)"))
      return settle("drag the sheet down (refused)")
    }
    guard frames <= VirtualRunLoop.maximumFrames else {
      UIKitModelIssues.report(.advanceRefused("a drag of \(frames) frames"))
      return settle("drag the sheet down (refused)")
    }
    let frame = sheet.frame
    let start = CGPoint(x: frame.midX, y: frame.minY + 40)
    let travel = window.bounds.maxY - frame.minY
    let pans = GestureDriver.touchDown(at: start, in: window)
    moveFinger(pans, by: CGPoint(x: 0, y: travel * fraction), frames: frames)
    for pan in pans where pan.isFollowingTouch {
      GestureDriver.move(pan, to: CGPoint(x: 0, y: travel * fraction))
    }
    let presentation = top.activePresentationController
    let began =
      pans.contains { $0 === presentation?.dismissalPanGestureRecognizer }
      && presentation?.dragging?.refused == false
    for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan) }
    guard began else { return settle("drag the sheet down (refused)") }
    return settle("drag the sheet down to \(Int((fraction * 100).rounded())) %")
  }

  /// Pushes `controller` and runs until idle.
  @discardableResult
  public func push(_ controller: UIViewController, animated: Bool = true) -> Self {
    navigationController.pushViewController(controller, animated: animated)
    return settle("push \(controller.title ?? "\(type(of: controller))")")
  }

  /// Pops the top controller and runs until idle.
  @discardableResult
  public func pop(animated: Bool = true) -> Self {
    navigationController.popViewController(animated: animated)
    return settle("pop")
  }

  /// Pops to `controller` and runs until idle.
  @discardableResult
  public func popTo(_ controller: UIViewController, animated: Bool = true) -> Self {
    navigationController.popToViewController(controller, animated: animated)
    return settle("pop to \(controller.title ?? "\(type(of: controller))")")
  }

  /// Pops to the root and runs until idle.
  @discardableResult
  public func popToRoot(animated: Bool = true) -> Self {
    navigationController.popToRootViewController(animated: animated)
    return settle("pop to root")
  }

  /// Taps the back button and runs until idle.
  @discardableResult
  public func tapBack() -> Self {
    navigationController.navigationBar.tapBackButton()
    return settle("back button")
  }

  /// Taps the screen at `point` (window coordinates) and runs until idle: the view the hit test
  /// finds gets the touches (``UIWindow/tap(at:)``); a tap on the back button pops.
  @discardableResult
  public func tap(at point: CGPoint) -> Self {
    let view = navigationController.view.window?.tap(at: point)
    let name = view.map { "\(type(of: $0))" } ?? "nothing"
    return settle("tap (\(point.x), \(point.y)) on \(name)")
  }

  /// Swipes back from the left edge (or from `startX`, half way down: a full-screen pan takes a
  /// touch anywhere) by `fraction` of the width over `frames` frames, then releases as
  /// `release` says, and runs until idle. The pans under the finger begin once it has moved
  /// far enough (``UIPanGestureRecognizer/recognitionDistance``); the step is "refused" when
  /// none began.
  @discardableResult
  public func swipeBack(
    to fraction: CGFloat, release: SwipeRelease = .slow, frames: Int = 12, from startX: CGFloat = 5
  ) -> Self {
    // A finger down at the left edge, half way down: whichever recognizers take it (the
    // system's swipe-back, or a pan of one's own on a view under the finger) follow it.
    guard let view = navigationController.view, let window = view.window else {
      return settle("swipe back (refused)")
    }
    // A finger stays within a few screens of where it came down: beyond that a number was
    // mistyped (and would overflow the step's label).
    guard fraction.isFinite, startX.isFinite, abs(fraction) <= 10, abs(startX) <= 100_000 else {
      UIKitModelIssues.report(
        .invalidGeometry(view: view.description, value: "swipe to \(fraction) from \(startX)"))
      return settle("swipe back (refused)")
    }
    guard frames <= VirtualRunLoop.maximumFrames else {
      UIKitModelIssues.report(.advanceRefused("a swipe of \(frames) frames"))
      return settle("swipe back (refused)")
    }
    let start = CGPoint(x: startX, y: view.bounds.midY)
    let pans = GestureDriver.touchDown(at: start, in: window)
    guard !pans.isEmpty else { return settle("swipe back (refused)") }
    let width = view.bounds.width
    moveFinger(pans, by: CGPoint(x: width * fraction, y: 0), frames: frames)
    let last = width * fraction
    let releaseAt: CGFloat =
      switch release {
      case .slow: last + 1
      case .flick: last + 20
      case .flickBack: max(0, last - 20)
      case .velocity(let speed):
        speed.isFinite ? max(0, last + speed * CGFloat(VirtualRunLoop.frameDuration)) : last + 1
      }
    for pan in pans where pan.isFollowingTouch {
      GestureDriver.move(pan, to: CGPoint(x: releaseAt, y: 0))
    }
    // A pan that never moved far enough, or whose delegate refused, took no part.
    let began = pans.filter { $0.state == .began || $0.state == .changed }
    for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan) }
    guard !began.isEmpty else { return settle("swipe back (refused)") }
    return settle("swipe back to \(Int((fraction * 100).rounded())) % (\(release))")
  }

  /// Drags a finger: down at `start` (window coordinates), moved by `translation` over `frames`
  /// frames, then lifted, and runs until idle. Without `flick` the finger rests a frame before it
  /// lifts, so nothing moves on; with it, it lifts moving at its last step's speed (a scroll
  /// view decelerates from there). Every pan under the finger takes part, as for
  /// ``swipeBack(to:release:frames:from:)``: a scroll view's own pan drags its content. The
  /// step is "refused" when no pan began; a point or translation that is not finite, or beyond
  /// a million points, is refused with an issue.
  @discardableResult
  public func drag(
    from start: CGPoint, by translation: CGPoint, frames: Int = 12, flick: Bool = false
  ) -> Self {
    let name = "drag (\(start.x), \(start.y)) by (\(translation.x), \(translation.y))"
    guard let window = navigationController.view.window else { return settle("\(name) (refused)") }
    let values = [start.x, start.y, translation.x, translation.y]
    guard values.allSatisfy({ $0.isFinite && abs($0) <= 1_000_000 }) else {
      UIKitModelIssues.report(.invalidGeometry(view: window.description, value: name))
      return settle("drag (refused)")
    }
    guard frames <= VirtualRunLoop.maximumFrames else {
      UIKitModelIssues.report(.advanceRefused("a drag of \(frames) frames"))
      return settle("drag (refused)")
    }
    let pans = GestureDriver.touchDown(at: start, in: window)
    moveFinger(pans, by: translation, frames: frames)
    if !flick {
      for pan in pans where pan.isFollowingTouch { GestureDriver.move(pan, to: translation) }
    }
    let began = pans.filter { $0.state == .began || $0.state == .changed }
    for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan) }
    return settle(began.isEmpty ? "\(name) (refused)" : name)
  }

  /// Moves a finger the pans follow by `translation`, one step per frame over `frames` frames.
  private func moveFinger(_ pans: [UIPanGestureRecognizer], by translation: CGPoint, frames: Int) {
    let steps = max(1, frames)
    for step in 1...steps {
      let fraction = CGFloat(step) / CGFloat(steps)
      for pan in pans where pan.isFollowingTouch {
        GestureDriver.move(
          pan, to: CGPoint(x: translation.x * fraction, y: translation.y * fraction))
      }
      VirtualRunLoop.main.advance(frames: 1)
    }
  }

  /// Scrolls `scrollView` by `distance` points over `duration` seconds and runs until idle.
  @discardableResult
  public func scroll(_ scrollView: UIScrollView, by distance: CGFloat, duration: TimeInterval = 0.3)
    -> Self
  {
    scrollView.simulateDrag(by: CGPoint(x: 0, y: distance), duration: duration)
    return settle("scroll \(distance)")
  }

  /// Scrolls `scrollView` until its content is at vertical offset `offset`, dragging by the
  /// difference over `duration` seconds, and runs until idle.
  @discardableResult
  public func scroll(_ scrollView: UIScrollView, to offset: CGFloat, duration: TimeInterval = 0.3)
    -> Self
  {
    scrollView.simulateDrag(
      by: CGPoint(x: 0, y: offset - scrollView.contentOffset.y), duration: duration)
    return settle("scroll to \(offset)")
  }

  /// Advances the clock by `interval`.
  @discardableResult
  public func advance(by interval: TimeInterval) -> Self {
    VirtualRunLoop.main.advance(by: interval)
    record("advance \(interval)")
    return self
  }

  /// Advances the clock by `frames` frames (sixtieths of a second), without running until idle:
  /// to look at a transition or an animation mid-way.
  @discardableResult
  public func advance(frames: Int) -> Self {
    VirtualRunLoop.main.advance(frames: frames)
    record("advance \(frames) frames")
    return self
  }

  /// What keeps the session from being idle, one line each: a transition or presentation
  /// under way, and the run loop's work (timers, animations, a transaction's completion,
  /// running display links); empty when idle.
  public var busyWork: [String] {
    var lines: [String] = []
    if navigationController.isTransitioning {
      lines.append("a transition of \(type(of: navigationController))")
    }
    for controller in presentationsUnderWay {
      lines.append("a presentation of \(type(of: controller))")
    }
    return lines + VirtualRunLoop.main.busyWork()
  }

  /// The controllers above the navigation controller being presented or dismissed now.
  private var presentationsUnderWay: [UIViewController] {
    presentedChain.filter { $0.isBeingPresented || $0.isBeingDismissed }
  }

  /// Whether the session is idle, as EarlGrey and KIF wait for: no transition or presentation
  /// under way, no animation, no running display link, no pending timer or run-loop work.
  public var isIdle: Bool {
    let loop = VirtualRunLoop.main
    // The run loop first: while anything runs, the rest is not asked (this is checked each
    // frame of a wait).
    return loop.isIdle && !loop.hasRunningDisplayLinks && !navigationController.isTransitioning
      && presentationsUnderWay.isEmpty
  }

  /// Runs at least one frame (so that main-queue work sent before now runs), then frame by
  /// frame until the session is idle (``isIdle``), for at most `limit` seconds of virtual time;
  /// when still busy then, reports ``UIKitModelIssue/notIdle(_:limit:)`` naming what is. The
  /// drivers (push, pop, swipe, tap, scroll) wait this way at their end; a test calls it after
  /// work of its own (a plugin's animation, a deferred block) instead of counting frames.
  @discardableResult
  public func waitUntilIdle(limit: TimeInterval = 10) -> Self {
    VirtualRunLoop.main.advance(frames: 1)
    wait(limit: limit)
    record("wait until idle")
    return self
  }

  private func wait(limit: TimeInterval) {
    let loop = VirtualRunLoop.main
    let allowed = max(0, min(VirtualRunLoop.maximumAdvance, limit.isNaN ? 0 : limit))
    let deadline = loop.currentTime + allowed
    // UIKit lays out what a step marked before the screen shows it: once idle, the views
    // waiting for layout are laid out at once (no time passes), and if that started work, the
    // wait goes on; a layout that keeps marking views waits for the next step after a few.
    for pass in 0...VirtualRunLoop.layoutPassesPerTurn {
      while !isIdle {
        guard loop.currentTime < deadline else {
          UIKitModelIssues.report(.notIdle(busyWork.joined(separator: ", "), limit: allowed))
          return
        }
        loop.advance(frames: 1)
      }
      guard pass < VirtualRunLoop.layoutPassesPerTurn, loop.layOutPendingViews() else { return }
    }
  }

  private func settle(_ step: String) -> Self {
    wait(limit: 60)
    record(step)
    return self
  }

  /// Records `step` with the bar the user looks at: a sheet's over the session's own.
  private func record(_ step: String) {
    let front = frontNavigationController
    steps.append(
      Step(
        time: VirtualRunLoop.main.currentTime, name: step,
        top: front.topViewController?.title ?? "-", seenBar: front.navigationBar.asSeen(),
        seenTabBar: seenTabBar))
  }
}
