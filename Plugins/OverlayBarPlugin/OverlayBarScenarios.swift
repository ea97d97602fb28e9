// LTNavigationBar's demo screens as scenarios, each run twice on one device and iOS version:
// first in the seed's mode, then in the fixed one, so that the two outcomes sit side by side.
import Foundation
import Hooks
import ObjCRuntime
public import Scenarios
public import UIKitModel

extension OverlayBarPlugin: ScenarioPlugin, BreakageGalleryPlugin {
  /// The seed's demo screens and the attempts its article made first.
  public var scenarios: [Scenario] { OverlayBarScenarios.all }

  /// LTNavigationBar's reported breakages its scenarios reproduce, and one of a peer's whose
  /// mechanism the seed's code meets too.
  public var breakages: [Breakage] {
    [
      Breakage(
        name: "lt-62", library: "LTNavigationBar", report: "ltebean/LTNavigationBar issue 62",
        reported: "on iOS 11, lt_setElementsAlpha crashes: NSUnknownKeyException for the key"
          + " _titleView",
        mechanism: "iOS 11 rebuilt the bar: the title and buttons moved into"
          + " _UINavigationBarContentView, and UINavigationBar no longer answers the key-value"
          + " coding keys _titleView, _leftViews and _rightViews the seed read",
        scenario: "lt-scrolling", profile: .ios11),
      Breakage(
        name: "lt-73", library: "LTNavigationBar", report: "ltebean/LTNavigationBar issue 73",
        reported: "on an iPhone X the bar is not fully shown: the overlay leaves a strip",
        mechanism: "the seed's overlay is the bar's height plus 20 points, the status bar of the"
          + " phones before the X; the notch's status bar is 44 (pull request 72 and issue 75"
          + " size it from the device)",
        scenario: "lt-background-color", device: .iPhoneX, profile: .ios11),
      Breakage(
        name: "lt-10", library: "LTNavigationBar", report: "ltebean/LTNavigationBar issue 10",
        reported: "lt_reset in viewWillDisappear does not reset the bar: it keeps the page's"
          + " colour after the page is gone",
        mechanism: "the page's scrollViewDidScroll is still called after its view disappears"
          + " (the maintainer's finding), while the content decelerates, and paints the bar"
          + " again; the fix of the time cleared the scroll view's delegate",
        scenario: "lt-stale-scroll", profile: .ios10),
      Breakage(
        name: "hbd-188", library: "HBDNavigationBar",
        report: "listenzz/HBDNavigationBar issue 188",
        reported: "on iOS 18 a page's bar settings go wrong during a push or a pop (a page with"
          + " hbd_barAlpha = 0 shows a bar): navigationBar.subviews[0] is then not the bar's"
          + " background but a view with a zero frame",
        mechanism: "during a push or a pop iOS 18 takes _UIBarBackground out of the bar and"
          + " inserts it again at index 0; code that reads subviews[0] in between gets another"
          + " view. LTNavigationBar's overlay, made again in the page's viewWillAppear: as a"
          + " swipe back starts, goes into that view: it covers the bar but not the status bar's"
          + " strip (the report's mechanism met by LTNavigationBar's code; its symptom differs)."
          + " Pull request 191 (open) applies the state again when the background is inserted"
          + " (didAddSubview:); the fixed overlay waits for the bar's next layout",
        scenario: "lt-tab-bar", profile: .ios18),
    ]
  }
}

/// The overlay plugin's scenarios. Each but the first runs its script in
/// ``OverlayMode/seed`` (moments named `seed: ...`) and then, from a fresh launch, in
/// ``OverlayMode/fixed`` (`fixed: ...`).
public enum OverlayBarScenarios {
  /// The plugin's short name, `overlay`.
  static let plugin = OverlayBarPlugin().name

  /// Every scenario of the plugin.
  public static let all: [Scenario] = [
    firstAttempts, backgroundColor, scrolling, staleScroll, fingerScroll, tabBar, sheet,
    largeTitle, search,
  ]

  /// The article's attempts before the overlay: the appearance proxy set from
  /// `scrollViewDidScroll` (nothing changes on screen), `barTintColor` (shows, through the
  /// translucent background), `backgroundColor` (washed out under the background, and not in
  /// the status bar's strip), then the overlay.
  public static let firstAttempts = Scenario(
    name: "lt-first-attempts",
    summary: "the article's attempts: appearance proxy, barTintColor, backgroundColor, overlay",
    plugin: plugin
  ) { context in
    let page = AttemptsPage()
    context.start(root: page)
    context.mark("start")
    page.attempt = .appearanceProxy
    page.scrollView.contentOffset = CGPoint(x: 0, y: 64)
    context.mark("appearance proxy: nothing changes")
    page.navigationController?.navigationBar.barTintColor = demoBlue
    context.mark("barTintColor")
    page.navigationController?.navigationBar.barTintColor = nil
    page.attempt = .backgroundColor
    page.scrollView.contentOffset = CGPoint(x: 0, y: 128)
    context.mark("backgroundColor")
    page.navigationController?.navigationBar.backgroundColor = nil
    page.attempt = .overlay
    page.scrollView.contentOffset = CGPoint(x: 0, y: 192)
    context.mark("lt_setBackgroundColor")
  }

  /// The background-colour demo (`BGColorDemoViewController`): transparent until the offset
  /// passes 50, then the overlay's alpha is `min(1, 1 − (50 + 64 − y) / 64)`; a push resets the
  /// bar in `viewWillDisappear`. On an iPhone X, the seed's overlay is 24 points too short.
  public static let backgroundColor = Scenario(
    name: "lt-background-color",
    summary: "the background-colour demo: the overlay fades in past offset 50; seed, then fixed",
    plugin: plugin
  ) { context in
    for mode in OverlayMode.allCases {
      let page = BackgroundColorDemo(mode: mode)
      let session = context.start(root: page)
      context.mark("\(mode): top")
      page.scrollView.contentOffset = CGPoint(x: 0, y: 82)
      context.mark("\(mode): offset 82")
      page.scrollView.contentOffset = CGPoint(x: 0, y: 150)
      context.mark("\(mode): offset 150")
      expectBlueBar(mode, context)
      session.push(plainPage("Next"))
      context.mark("\(mode): next page")
    }
  }

  /// The background-colour demo scrolled by a finger, as a user scrolls it: the table's own pan
  /// drags the content, and every step of the drag reaches `scrollViewDidScroll:` (the seed's
  /// demo is driven by UIKit's scroll view, which the model's pan is). Up by 130 points, the
  /// overlay is blue; down again, clear. The seed's overlay is short under a notch, as in
  /// `lt-background-color`.
  public static let fingerScroll = Scenario(
    name: "lt-finger-scroll",
    summary: "the background-colour demo dragged by a finger, up then down; seed, then fixed",
    plugin: plugin
  ) { context in
    for mode in OverlayMode.allCases {
      let page = BackgroundColorDemo(mode: mode)
      let session = context.start(root: page)
      context.mark("\(mode): top")
      session.drag(from: CGPoint(x: 200, y: 500), by: CGPoint(x: 0, y: -130))
      context.mark("\(mode): dragged up 130")
      context.expect(
        page.scrollView.contentOffset.y > 114, "\(mode): the finger scrolled the table",
        seen: "offset \(page.scrollView.contentOffset.y)")
      expectBlueBar(mode, context)
      session.drag(from: CGPoint(x: 200, y: 300), by: CGPoint(x: 0, y: 200))
      context.mark("\(mode): dragged down again")
      context.expect(
        page.scrollView.contentOffset.y == 0, "\(mode): back at the top",
        seen: "offset \(page.scrollView.contentOffset.y)")
    }
  }

  /// Checks the background-colour demo's bar is the demo's blue, fully opaque. The seed's
  /// overlay is 20 points taller than the bar, short under a notch: known there.
  /// In a tab: the background-colour demo scrolled until its bar is blue, then the other tab
  /// tapped and the first again. A tab switch runs the appearance callbacks the demo resets the
  /// bar in (`viewWillDisappear:`) and sets its overlay in (`viewWillAppear:`), and each tab has
  /// a bar of its own: the other tab's is plain, the demo's is blue again. Then a page that
  /// hides the tab bar, pushed and swiped back, cancelled then finished: the tab bar follows the
  /// page, and the demo's blue comes back with it. Seed, then fixed. From iOS 18 the seed's
  /// overlay, made again in the demo's `viewWillAppear:` while the interactive pop has the
  /// bar's background out of the bar, goes into whatever `subviews.first` is then (the
  /// mechanism of HBDNavigationBar issue 188): it covers the bar but not the status bar's
  /// strip, on every device (and covers the middle of a notch device's bar, which its short
  /// overlay leaves uncovered before iOS 18). The fixed overlay goes into the background at
  /// the bar's next layout.
  public static let tabBar = Scenario(
    name: "lt-tab-bar",
    summary: "in a tab: the demo's blue bar across a tab switch and a swipe back; seed, then fixed",
    plugin: plugin
  ) { context in
    for mode in OverlayMode.allCases {
      let page = BackgroundColorDemo(mode: mode)
      let session = context.start(tabs: [page, plainPage("Other")])
      page.scrollView.contentOffset = CGPoint(x: 0, y: 150)
      context.mark("\(mode): blue")
      expectBlueBar(mode, context)
      session.selectTab(1)
      context.mark("\(mode): the other tab")
      let other = session.seenBar.backgroundColor
      context.expect(
        other != UIColorComponents(demoBlue), "\(mode): the other tab's own bar is not blue",
        seen: "\(other.color.hexDescription)")
      session.selectTab(0)
      context.mark("\(mode): the demo's tab again")
      expectBlueBar(mode, context)
      let detail = plainPage("Detail")
      detail.hidesBottomBarWhenPushed = true
      context.pushAndSwipeBackOverTabBar(detail, in: session, prefix: "\(mode): ") { step in
        guard step == "finished" else { return }
        let seed = mode == .seed
        let fromIOS18 = IOSProfile.names(from: 18)
        context.expectBar(
          ExpectedBar(background: demoBlue, backgroundAlpha: 1), "\(mode): the bar blue again",
          failsOn: seed ? IOSProfile.everyName.subtracting(fromIOS18) : [],
          onDevices: seed ? notchDevices : [])
        let strip = session.seenBar.statusBarAreaColor
        context.expect(
          strip == UIColorComponents(demoBlue), "\(mode): the status bar's strip blue again",
          seen: strip.color.hexDescription, failsOn: seed ? fromIOS18 : [])
      }
    }
  }

  /// The devices with a notch, where the seed's overlay is short.
  static let notchDevices: Set<DeviceProfile> = [
    .iPhoneX, .iPhoneXS, .iPhoneXR, .iPhoneXSMax, .iPhone15,
  ]

  private static func expectBlueBar(_ mode: OverlayMode, _ context: ScenarioContext) {
    context.expectBar(
      ExpectedBar(background: demoBlue, backgroundAlpha: 1), "\(mode): the bar blue",
      onDevices: mode == .seed ? notchDevices : [])
  }

  /// The scrolling demo: progress `clamp(y / 44)`, the bar moved up by `44 × progress` and its
  /// elements at alpha `1 − progress`. From iOS 11 the seed's `lt_setElementsAlpha` throws at
  /// `_titleView` (the bar moves; its elements stay); the fixed mode fades them.
  public static let scrolling = Scenario(
    name: "lt-scrolling",
    summary: "the scrolling demo: the bar slides up and its elements fade; seed, then fixed",
    plugin: plugin
  ) { context in
    for mode in OverlayMode.allCases {
      let page = ScrollingDemo(mode: mode)
      context.start(root: page)
      context.mark("\(mode): top")
      page.scrollView.contentOffset = CGPoint(x: 0, y: 22)
      context.mark("\(mode): offset 22" + page.failure)
      page.scrollView.contentOffset = CGPoint(x: 0, y: 60)
      context.mark("\(mode): offset 60" + page.failure)
      // The seed's elements stay from iOS 11: its keys are gone.
      context.expectBar(
        ExpectedBar(titleColor: UIColor(white: 0, alpha: 0), translationY: -44),
        "\(mode): moved up, elements faded",
        failsOn: mode == .seed ? IOSProfile.names(from: 11) : [])
    }
  }

  /// The seed's issue 10: a flick on the colour demo, then back before the content stops; the
  /// popped page's `scrollViewDidScroll` keeps calling `lt_setBackgroundColor` on the bar, now
  /// the previous page's. The fixed mode ignores a page no longer on top.
  public static let staleScroll = Scenario(
    name: "lt-stale-scroll",
    summary: "a flick, then back while it decelerates: the popped page repaints the bar (seed)",
    plugin: plugin
  ) { context in
    for mode in OverlayMode.allCases {
      let session = context.start(root: plainPage("Home"))
      let page = BackgroundColorDemo(mode: mode)
      session.push(page)
      context.mark("\(mode): demo page")
      page.scrollView.simulateDrag(
        by: CGPoint(x: 0, y: 60), duration: 0.1, releaseVelocity: 2000)
      VirtualRunLoop.main.advance(by: 0.12)
      context.mark("\(mode): flicked")
      session.tapBack()
      context.mark("\(mode): back home")
      // Home never painted the bar: what shows is its own (the system's translucent bar, or
      // nothing at the scroll edge from iOS 15), not the popped page's opaque overlay, over the
      // bar or (the seed's overlay being short under a notch) over the status bar's strip.
      let seen = session.navigationController.navigationBar.asSeen(over: scenarioBackdrop)
      let painted =
        seen.backgroundOpacity >= 0.9 || seen.statusBarAreaColor != seen.backgroundColor
      context.expect(
        !painted, "\(mode): home's own bar, not the popped page's colour",
        seen: "background opacity \(seen.backgroundOpacity), status area"
          + " \(seen.statusBarAreaColor.color.hexDescription)",
        failsOn: mode == .seed ? IOSProfile.everyName : [])
    }
  }

  /// The scrolling demo's page in `mode`, for tests that script their own session around it.
  public static func scrollingPage(mode: OverlayMode) -> UIViewController & HasScrollView {
    ScrollingDemo(mode: mode)
  }

  /// The demos' blue: `UIColor(red: 0, green: 175 / 255, blue: 240 / 255, alpha: 1)`.
  public static let demoBlue = UIColor(red: 0, green: 175 / 255, blue: 240 / 255, alpha: 1)

  static func plainPage(_ title: String) -> UIViewController {
    let page = UIViewController()
    page.title = title
    return page
  }
}

/// A page with a scroll view a script can move.
public protocol HasScrollView: AnyObject {
  /// The page's scroll view.
  var scrollView: UITableView { get }
}

/// A demo page: a table view whose delegate it is, with `scrollViewDidScroll:` in its class's
/// table, as an Objective-C page implements it (so a trace shows it and a hook can reach it).
class OverlayDemoPage: UIViewController, UIScrollViewDelegate, HasScrollView {
  nonisolated override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(OverlayDemoPage.self) {
      ObjCMethodDeclaration("scrollViewDidScroll:", OverlayDemoPage.didScroll)
    }
  }
  nonisolated static let didScroll: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
    MainThread.assumeIsolated(with: me, view) { me, view in
      guard let view = view?.takeUnretainedObject() as? UIScrollView else { return }
      me.receiver(as: OverlayDemoPage.self).scrollViewDidScroll(view)
    }
  }

  let scrollView = UITableView(frame: .zero)
  let mode: OverlayMode

  init(mode: OverlayMode, title: String) {
    self.mode = mode
    super.init()
    self.title = title
    navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Edit")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
    scrollView.delegate = self
    view.addSubview(scrollView)
  }

  var bar: UINavigationBar? { navigationController?.navigationBar }

  func scrollViewDidScroll(_ scrollView: UIScrollView) {}
}

/// `BGColorDemoViewController`: the overlay's colour follows the offset past the change point.
final class BackgroundColorDemo: OverlayDemoPage {
  static let changePoint: CGFloat = 50

  init(mode: OverlayMode) { super.init(mode: mode, title: "Colour") }

  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    scrollViewDidScroll(scrollView)
  }

  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    bar?.lt_reset(mode: mode)
  }

  override func scrollViewDidScroll(_ scrollView: UIScrollView) {
    let y = scrollView.contentOffset.y
    let change = BackgroundColorDemo.changePoint
    let alpha = y > change ? min(1, 1 - (change + 64 - y) / 64) : 0
    bar?.lt_setBackgroundColor(
      OverlayBarScenarios.demoBlue.withAlphaComponent(alpha), from: self, mode: mode)
  }
}

/// The scrolling demo: the bar slides away and its elements fade as the page scrolls.
final class ScrollingDemo: OverlayDemoPage {
  /// What the last `lt_setElementsAlpha` threw, for the scenario's moment names.
  private(set) var failure = ""

  init(mode: OverlayMode) { super.init(mode: mode, title: "Scrolling") }

  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    bar?.lt_setBackgroundColor(OverlayBarScenarios.demoBlue, from: self, mode: mode)
  }

  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    // No `from: self` here: the page is already off the top of the stack as it disappears,
    // and the fixed mode would ignore it.
    bar?.lt_setTranslationY(0, mode: mode)
    try? bar?.lt_setElementsAlpha(1, mode: mode)
    bar?.lt_reset(mode: mode)
  }

  override func scrollViewDidScroll(_ scrollView: UIScrollView) {
    setProgress(max(0, min(1, scrollView.contentOffset.y / 44)))
  }

  private func setProgress(_ progress: CGFloat) {
    bar?.lt_setTranslationY(-44 * progress, from: self, mode: mode)
    do {
      try bar?.lt_setElementsAlpha(1 - progress, from: self, mode: mode)
      failure = ""
    } catch {
      failure = " (lt_setElementsAlpha threw: undefined key \(error.undefinedKey ?? "?"))"
    }
  }
}

/// The article's page: what `scrollViewDidScroll` tries.
final class AttemptsPage: OverlayDemoPage {
  enum Attempt { case none, appearanceProxy, backgroundColor, overlay }
  var attempt = Attempt.none

  init() { super.init(mode: .fixed, title: "Attempts") }

  override func scrollViewDidScroll(_ scrollView: UIScrollView) {
    let alpha = min(1, max(0, scrollView.contentOffset.y / 64))
    let color = OverlayBarScenarios.demoBlue.withAlphaComponent(alpha)
    switch attempt {
    case .none: break
    case .appearanceProxy: UINavigationBar.appearance().barTintColor = color
    case .backgroundColor: bar?.backgroundColor = color
    case .overlay: bar?.lt_setBackgroundColor(color, from: self, mode: mode)
    }
  }
}

extension ObjCRuntimeError {
  /// The key of an undefined-key error.
  fileprivate var undefinedKey: String? {
    if case .undefinedKey(_, let key) = self { return key }
    return nil
  }
}
