// The timelines of Docs/UIKitModel.md: every callback of a push, a pop and an interactive pop
// (cancelled and finished), with the coordinator's flags at each, and of a sheet presented and
// dragged down (cancelled and finished), with its delegate's, recorded from a run.
import Foundation
import Hooks
import UIKitModel

/// Appends lines to a shared log.
final class TimelineLog {
  var lines: [String] = []
  /// The navigation controller whose flags each line shows.
  weak var navigation: UINavigationController?
  /// The sheet whose flags each line shows instead, in a sheet's timeline.
  weak var sheet: UIViewController?
  /// Whether each line shows the bar's height as drawn (its presentation value), in the large
  /// title's timeline.
  var showsBarHeight = false
  /// Whether each line says whether the bar is hidden, in the search's timeline.
  var showsBarHidden = false

  @MainActor func note(_ text: String) {
    let time = String(format: "%.3f", VirtualRunLoop.main.currentTime)
    var flags: [String] = []
    if let sheet {
      flags.append("presented \(sheet.presentingViewController == nil ? "no" : "yes")")
      flags.append("being dismissed \(sheet.isBeingDismissed ? "yes" : "no")")
    }
    if let navigation {
      flags.append("top \(navigation.topViewController?.title ?? "-")")
      flags.append("transitioning \(navigation.isTransitioning ? "yes" : "no")")
      if let coordinator = navigation.topViewController?.transitionCoordinator {
        flags.append(
          "interactive \(coordinator.isInteractive ? "yes" : "no"), cancelled"
            + " \(coordinator.isCancelled ? "yes" : "no"), percent"
            + " \(String(format: "%.2f", coordinator.percentComplete))")
      }
    }
    if showsBarHeight, let bar = navigation?.navigationBar {
      flags.append(
        "bar \(String(format: "%.1f", bar.presentationFrame.height)), large title"
          + " \(bar.largeTitleExtent == 0 ? "no" : "yes"), search bar"
          + " \(bar.searchBarExtent == 0 ? "no" : "yes")")
    }
    if showsBarHidden, let navigation {
      flags.append("bar hidden \(navigation.isNavigationBarHidden ? "yes" : "no")")
    }
    let padded = text.padding(toLength: 40, withPad: " ", startingAt: 0)
    lines.append("\(time)  \(padded)\(flags.joined(separator: ", "))")
  }
}

/// A screen that notes its appearance callbacks, and registers for the coordinator's callbacks
/// when it appears in a transition.
final class TimelineScreen: UIViewController {
  let name: String
  let log: TimelineLog

  init(_ name: String, log: TimelineLog) {
    self.name = name
    self.log = log
    super.init()
    title = name
  }

  /// Whether the screen hides the bar in its `viewWillAppear:` (after noting it).
  var hidesBarOnAppear = false

  override func viewWillAppear(_ animated: Bool) {
    log.note("\(name) viewWillAppear:")
    super.viewWillAppear(animated)
    if hidesBarOnAppear {
      navigationController?.setNavigationBarHidden(true, animated: animated)
      log.note("  \(name) setNavigationBarHidden:YES")
    }
    if let coordinator = transitionCoordinator, coordinator.viewController(forKey: .to) === self {
      coordinator.notifyWhenInteractionChanges { [log] _ in log.note("  interaction changed") }
      coordinator.animate(alongsideTransition: nil) { [log] _ in
        log.note("  coordinator completion")
      }
    }
  }
  override func viewDidAppear(_ animated: Bool) {
    log.note("\(name) viewDidAppear:")
    super.viewDidAppear(animated)
  }
  override func viewWillDisappear(_ animated: Bool) {
    log.note("\(name) viewWillDisappear:")
    super.viewWillDisappear(animated)
  }
  override func viewDidDisappear(_ animated: Bool) {
    log.note("\(name) viewDidDisappear:")
    super.viewDidDisappear(animated)
  }
}

/// Notes the bar's question and the private interactive update of `navigation`, with hooks on
/// that one object: a `UINavigationController` subclass declared here would be woken by the
/// transparent-bar plugin's launch trigger, which acts on every subclass in the process.
private func noteNavigation(_ navigation: UINavigationController, in log: TimelineLog) throws {
  // nonisolated(unsafe): the hooks run on the model's thread, which owns the log too.
  nonisolated(unsafe) let log = log
  try navigation.hook(before: "navigationBar:shouldPopItem:") {
    (_, _: UINavigationBar?, _: UINavigationItem?) in
    MainThread.assumeIsolated {
      log.note("navigationBar:shouldPopItem:")
    }
  }
  try navigation.hook(after: "_updateInteractiveTransition:") { (_, percent: Double) in
    MainThread.assumeIsolated {
      log.note("_updateInteractiveTransition: \(String(format: "%.2f", percent))")
    }
  }
}

/// Notes what a search controller's delegate is told.
final class TimelineSearchDelegate: UISearchControllerDelegate {
  let log: TimelineLog
  init(log: TimelineLog) { self.log = log }

  func willPresentSearchController(_ searchController: UISearchController) {
    log.note("  willPresentSearchController:")
  }
  func didPresentSearchController(_ searchController: UISearchController) {
    log.note("  didPresentSearchController:")
  }
  func willDismissSearchController(_ searchController: UISearchController) {
    log.note("  willDismissSearchController:")
  }
  func didDismissSearchController(_ searchController: UISearchController) {
    log.note("  didDismissSearchController:")
  }
}

/// Notes what a presentation controller's delegate is asked and told.
final class TimelineSheetDelegate: UIAdaptivePresentationControllerDelegate {
  let log: TimelineLog
  init(log: TimelineLog) { self.log = log }

  func presentationControllerShouldDismiss(_ presentationController: UIPresentationController)
    -> Bool
  {
    log.note("  presentationControllerShouldDismiss")
    return true
  }
  func presentationControllerWillDismiss(_ presentationController: UIPresentationController) {
    log.note("  presentationControllerWillDismiss")
  }
  func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
    log.note("  presentationControllerDidDismiss")
  }
}

enum Timelines {
  /// The nine timelines, as the Markdown Docs/UIKitModel.md shows between its markers.
  @MainActor static func markdown() -> String {
    var parts: [String] = []
    for (title, run) in [
      ("A push of B onto A, animated", push),
      ("A pop of B back to A, animated", pop),
      ("A swipe-back from B to A, released at 30 %: cancelled", { swipe(to: 0.3) }),
      ("A swipe-back from B to A, released from 70 %: finished", { swipe(to: 0.7) }),
      (
        "A push of B (no large title, no search) onto A (a large title and a search bar), and"
          + " back", pushFromLargeTitle
      ),
      (
        "A's search activated from its field (a table header's), B (which hides the bar in its"
          + " viewWillAppear:) pushed from it and popped, then the search dismissed (the"
          + " search's will-show is `_navigationControllerWillShowViewController:`)",
        searchActive
      ),
      ("S presented over A in the default style (a page sheet), animated", presentSheet),
      ("S's sheet dragged down, released at 30 %: it goes back", { dragSheet(to: 0.3) }),
      ("S's sheet dragged down, released from 70 %: dismissed", { dragSheet(to: 0.7) }),
    ] as [(String, () -> [String])] {
      parts.append("**\(title)**\n\n```\n" + run().joined(separator: "\n") + "\n```\n")
    }
    return parts.joined(separator: "\n")
  }

  /// A launched application showing A in a navigation controller, and B, and the log.
  @MainActor private static func start() -> (
    UINavigationController, TimelineScreen, TimelineScreen, TimelineLog
  ) {
    UIApplication.resetModel()
    let log = TimelineLog()
    let a = TimelineScreen("A", log: log)
    let b = TimelineScreen("B", log: log)
    let navigation = UINavigationController(rootViewController: a)
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = navigation
    window.makeKeyAndVisible()
    VirtualRunLoop.main.runUntilIdle()
    try? noteNavigation(navigation, in: log)
    log.navigation = navigation
    log.lines.removeAll()
    return (navigation, a, b, log)
  }

  @MainActor private static func push() -> [String] {
    let (navigation, _, b, log) = start()
    log.note("pushViewController:animated: B")
    navigation.pushViewController(b, animated: true)
    VirtualRunLoop.main.runUntilIdle()
    log.note("idle")
    return log.lines
  }

  @MainActor private static func pushFromLargeTitle() -> [String] {
    let (navigation, a, b, log) = start()
    navigation.navigationBar.prefersLargeTitles = true
    a.navigationItem.searchController = UISearchController(searchResultsController: nil)
    b.navigationItem.largeTitleDisplayMode = .never
    VirtualRunLoop.main.runUntilIdle()
    log.showsBarHeight = true
    log.lines.removeAll()
    for (call, run) in [
      ("pushViewController:animated: B", { navigation.pushViewController(b, animated: true) }),
      ("popViewControllerAnimated:", { _ = navigation.popViewController(animated: true) }),
    ] as [(String, () -> Void)] {
      log.note(call)
      run()
      VirtualRunLoop.main.advance(by: UINavigationController.transitionDuration / 2)
      log.note("  half way")
      VirtualRunLoop.main.runUntilIdle()
      log.note("idle")
    }
    return log.lines
  }

  @MainActor private static func searchActive() -> [String] {
    let (navigation, a, b, log) = start()
    let search = UISearchController(searchResultsController: nil)
    let delegate = TimelineSearchDelegate(log: log)
    search.delegate = delegate
    search.searchBar.frame = CGRect(x: 0, y: 64, width: 375, height: 56)
    a.view.addSubview(search.searchBar)
    b.hidesBarOnAppear = true
    // nonisolated(unsafe): the hook runs on the model's thread, which owns the log too.
    nonisolated(unsafe) let unsafeLog = log
    // `_navigationControllerWillShowViewController:`, noted once it has set the bar.
    let hook = try? search.hook(after: "_navigationControllerWillShowViewController:") {
      (_, _: UINavigationController?) in
      MainThread.assumeIsolated {
        unsafeLog.note("  the search's will-show")
      }
    }
    defer { hook?.remove() }
    log.showsBarHidden = true
    for (call, run) in [
      ("searchBar becomeFirstResponder", { search.searchBar.becomeFirstResponder() }),
      ("pushViewController:animated: B", { navigation.pushViewController(b, animated: true) }),
      ("popViewControllerAnimated:", { _ = navigation.popViewController(animated: true) }),
      ("setActive: NO", { search.isActive = false }),
    ] as [(String, () -> Void)] {
      log.note(call)
      run()
      VirtualRunLoop.main.runUntilIdle()
      log.note("idle")
    }
    return log.lines
  }

  @MainActor private static func pop() -> [String] {
    let (navigation, _, b, log) = start()
    navigation.pushViewController(b, animated: false)
    VirtualRunLoop.main.runUntilIdle()
    log.lines.removeAll()
    log.note("popViewControllerAnimated:")
    navigation.popViewController(animated: true)
    VirtualRunLoop.main.runUntilIdle()
    log.note("idle")
    return log.lines
  }

  @MainActor private static func swipe(to fraction: CGFloat) -> [String] {
    let (navigation, _, b, log) = start()
    navigation.pushViewController(b, animated: false)
    VirtualRunLoop.main.runUntilIdle()
    log.lines.removeAll()
    guard let pan = navigation.interactivePopGestureRecognizer else { return ["no gesture"] }
    log.note("the finger touches the left edge")
    _ = GestureDriver.begin(pan)
    let width = navigation.view.bounds.width
    for step in 1...4 {
      GestureDriver.move(pan, to: CGPoint(x: width * fraction * CGFloat(step) / 4, y: 0))
      VirtualRunLoop.main.advance(frames: 1)
    }
    GestureDriver.move(pan, to: CGPoint(x: width * fraction + 1, y: 0))
    log.note("the finger lifts")
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
    log.note("idle")
    return log.lines
  }

  @MainActor private static func presentSheet() -> [String] {
    let (navigation, _, _, log) = start()
    let sheet = TimelineScreen("S", log: log)
    log.navigation = nil
    log.sheet = sheet
    log.note("present S, animated")
    navigation.present(sheet, animated: true)
    VirtualRunLoop.main.runUntilIdle()
    log.note("idle")
    return log.lines
  }

  @MainActor private static func dragSheet(to fraction: CGFloat) -> [String] {
    let (navigation, _, _, log) = start()
    let sheet = TimelineScreen("S", log: log)
    let delegate = TimelineSheetDelegate(log: log)
    sheet.presentationController?.delegate = delegate
    navigation.present(sheet, animated: false)
    VirtualRunLoop.main.runUntilIdle()
    log.navigation = nil
    log.sheet = sheet
    log.lines.removeAll()
    guard let pan = sheet.activePresentationController?.dismissalPanGestureRecognizer else {
      return ["no gesture"]
    }
    log.note("the finger touches the sheet")
    _ = GestureDriver.begin(pan)
    let travel = navigation.view.bounds.height - sheet.view.frame.minY
    for step in 1...4 {
      GestureDriver.move(pan, to: CGPoint(x: 0, y: travel * fraction * CGFloat(step) / 4))
      VirtualRunLoop.main.advance(frames: 1)
    }
    GestureDriver.move(pan, to: CGPoint(x: 0, y: travel * fraction + 1))
    log.note("the finger lifts")
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
    log.note("idle")
    return log.lines
  }
}
