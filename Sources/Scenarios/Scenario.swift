// Scenarios: scripted sessions on the UIKit model, with what the bar looks like at named moments.
// Plugin-neutral: a plugin brings its scenarios (``ScenarioPlugin``), the lab, the benchmark and
// tests run them with whichever plugins they choose.
public import Foundation
public import Hooks
import ObjCRuntime
public import UIKitModel

/// One view of the navigation controller's container as drawn at a moment: a controller's
/// view sliding, a mask over it.
public struct ScenarioViewSnapshot: Sendable, Equatable {
  /// Its frame in the container, as drawn (mid-animation, the interpolated one).
  public let frame: CGRect
  /// Its background colour as drawn, if any.
  public let color: UIColorComponents?
  /// Its opacity as drawn (its alpha and its ancestors').
  public let alpha: CGFloat
  /// The views inside it, back to front, their frames in the container's coordinates too (a
  /// page's header and list, moved by its scroll view's offset).
  public let subviews: [ScenarioViewSnapshot]

  /// A snapshot.
  public init(
    frame: CGRect, color: UIColorComponents?, alpha: CGFloat,
    subviews: [ScenarioViewSnapshot] = []
  ) {
    self.frame = frame
    self.color = color
    self.alpha = alpha
    self.subviews = subviews
  }

  /// What the container of `navigation` shows under its bar: each of its views but the bar,
  /// back to front, as drawn now, with the views inside them three levels deep.
  @MainActor
  public static func snapshots(of navigation: UINavigationController) -> [ScenarioViewSnapshot] {
    guard navigation.isViewLoaded else { return [] }
    // Loops, not `filter` and `map`: a main-actor closure the standard library calls checks its
    // executor on every call (SE-0423), and a scenario takes these at every moment.
    var snapshots: [ScenarioViewSnapshot] = []
    for view in navigation.view.subviews where !(view is UINavigationBar) && !view.isHidden {
      snapshots.append(snapshot(view, frame: view.presentationFrame, depth: 3))
    }
    return snapshots
  }

  @MainActor
  private static func snapshot(_ view: UIView, frame: CGRect, depth: Int) -> ScenarioViewSnapshot {
    // A scroll view's subviews sit in its content, moved by its offset.
    let scrolled = (view as? UIScrollView)?.contentOffset ?? .zero
    var inside: [ScenarioViewSnapshot] = []
    if depth > 0 {
      for child in view.subviews where !child.isHidden {
        inside.append(
          snapshot(
            child,
            frame: child.frame.offsetBy(
              dx: frame.minX - scrolled.x, dy: frame.minY - scrolled.y),
            depth: depth - 1))
      }
    }
    var color: UIColorComponents?
    if let background = view.presentationBackgroundColor { color = UIColorComponents(background) }
    return ScenarioViewSnapshot(
      frame: frame, color: color, alpha: view.effectiveAlpha, subviews: inside)
  }
}

/// What the bar looks like at one named moment of a scenario, and the views under it.
public struct ScenarioMoment: Sendable, CustomStringConvertible {
  /// The moment's name (`start`, `past the change point`...).
  public let name: String
  /// The virtual time.
  public let time: TimeInterval
  /// What the user sees.
  public let seenBar: SeenBar
  /// The views of the navigation controller's container other than the bar, back to front.
  public let views: [ScenarioViewSnapshot]
  /// What the user sees of the tab bar, in a session launched with tabs.
  public let seenTabBar: SeenTabBar?
  /// Where the sheet whose bar is marked is in the window (mid-drag, where the finger has it);
  /// nil for a bar that fills the screen's width under the status bar.
  public let sheetFrame: CGRect?

  /// A moment.
  public init(
    name: String, time: TimeInterval, seenBar: SeenBar,
    views: [ScenarioViewSnapshot] = [], seenTabBar: SeenTabBar? = nil, sheetFrame: CGRect? = nil
  ) {
    self.name = name
    self.time = time
    self.seenBar = seenBar
    self.views = views
    self.seenTabBar = seenTabBar
    self.sheetFrame = sheetFrame
  }

  /// `name @ time: seen bar`, and `; seen tab bar` in a session with tabs.
  public var description: String {
    "\(name) @ \(String(format: "%.3f", time)): \(seenBar)"
      + (seenTabBar.map { "; \($0)" } ?? "")
  }
}

/// A line a plugin wrote to its `PluginLog` while a scenario ran.
public struct ScenarioLogLine: Sendable, Equatable, CustomStringConvertible {
  /// The virtual time it was written.
  public let time: TimeInterval
  /// The plugin's name.
  public let plugin: String
  /// The text.
  public let message: String
  /// How many moments had been marked when it was written: it comes before moment `moment`
  /// (after the last one when it equals their count).
  public let moment: Int

  /// A line of a run.
  public init(time: TimeInterval, plugin: String, message: String, moment: Int) {
    self.time = time
    self.plugin = plugin
    self.message = message
    self.moment = moment
  }

  /// `[plugin] message`.
  public var description: String { "[\(plugin)] \(message)" }
}

/// Where and with what a scenario runs.
public struct ScenarioOptions: Sendable {
  /// The device.
  public var device: DeviceProfile = .iPhone8
  /// The system version.
  public var systemVersion = "13.0"
  /// The SDK the application was built with (`"14.0"`), or nil for the system version's
  /// (`UIDevice.current.linkedSDKVersion`).
  public var sdkVersion: String?
  /// The plugins to install for the run (short names or identifiers), in this order; nil means
  /// the plugin that brought the scenario, and an empty list means none.
  public var plugins: [String]?

  /// Options for `device` (an iPhone 8 by default) running `systemVersion` (13.0) with an
  /// application built with `sdkVersion` (nil: the system version's), with `plugins` (by
  /// default the scenario's own).
  public init(
    device: DeviceProfile = .iPhone8, systemVersion: String = "13.0", sdkVersion: String? = nil,
    plugins: [String]? = nil
  ) {
    self.device = device
    self.systemVersion = systemVersion
    self.sdkVersion = sdkVersion
    self.plugins = plugins
  }

  /// Options for `device` running `profile` (its system version and SDK).
  public init(device: DeviceProfile = .iPhone8, profile: IOSProfile, plugins: [String]? = nil) {
    self.init(
      device: device, systemVersion: profile.systemVersion, sdkVersion: profile.sdkVersion,
      plugins: plugins)
  }
}

/// What the scenario's screens show behind the bar (a header photo's green), so that a
/// transparent bar is told from a white one.
public let scenarioBackdrop = UIColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 1)

/// What a scenario's script works with: it starts a session on the chosen device and marks the
/// moments the scenario promises.
///
/// ```swift
/// let scenario = Scenario(name: "push", summary: "a push") { context in
///   let session = context.start(root: UIViewController())
///   context.mark("before")
///   session.push(UIViewController())
///   context.mark("after")
/// }
/// ```
@MainActor
public final class ScenarioContext {
  /// The options of the run.
  public let options: ScenarioOptions
  /// The moments marked so far.
  public private(set) var moments: [ScenarioMoment] = [] {
    didSet { logRecorder.momentsMarked(moments.count) }
  }
  /// The plugins' log lines written so far (`PluginLog`), each with its moment.
  public var log: [ScenarioLogLine] { logRecorder.lines }
  internal let logRecorder = LogRecorder()

  /// The log lines of the run, and how many moments were marked when each was written.
  internal final class LogRecorder: Sendable {
    private let state = RuntimeLock<
      (lines: [ScenarioLogLine], momentsMarked: Int, started: Bool)
    >(([], 0, false))
    /// The thread that runs the scenario.
    private let owner = pthread_self()

    var lines: [ScenarioLogLine] { state.withLock { $0.lines } }

    func momentsMarked(_ count: Int) { state.withLock { $0.momentsMarked = count } }

    /// The script started a session: the clock is the run's from now (the plugins' installs
    /// come before, at 0).
    func sessionStarted() { state.withLock { $0.started = true } }

    /// Keeps `line`, written now, before the next moment, when the run wrote it: on the
    /// scenario's thread, which also runs the main queue's work at the end of its frames.
    /// Another thread's line is not the run's (and reading the clock there would race it).
    func note(_ line: PluginLog.Line) -> Bool {
      guard pthread_equal(pthread_self(), owner) != 0 else { return false }
      // On the run's thread, the main thread: the model's clock can be read.
      let time = MainThread.assumeIsolated { VirtualRunLoop.main.currentTime }
      state.withLock {
        $0.lines.append(
          ScenarioLogLine(
            time: $0.started ? time : 0, plugin: line.plugin, message: line.message,
            moment: $0.momentsMarked))
      }
      return true
    }
  }
  /// The checks made so far (``expectBar(_:_:failsOn:onDevices:tolerance:)``).
  public internal(set) var checks: [ScenarioCheck] = []
  /// The session started by ``start(root:)``.
  public private(set) var session: NavigationSession?

  internal init(options: ScenarioOptions) {
    self.options = options
  }

  /// Launches an application on the run's device and system version, whose window shows `root`
  /// in a navigation controller.
  @discardableResult
  public func start(root: UIViewController) -> NavigationSession {
    UIDevice.current.linkedSDKVersion = options.sdkVersion
    let session = NavigationSession(
      root: root, device: options.device, systemVersion: options.systemVersion)
    self.session = session
    logRecorder.sessionStarted()
    return session
  }

  /// Launches an application on the run's device and system version, whose window shows the
  /// navigation controller `make` returns; `make` runs after the device and version are set,
  /// so the bar has the hierarchy of the version (for a subclass, or a class made at run time).
  @discardableResult
  public func start(navigationController make: () -> UINavigationController) -> NavigationSession {
    UIScreen.main.profile = options.device
    UIDevice.current.systemVersion = options.systemVersion
    UIDevice.current.linkedSDKVersion = options.sdkVersion
    let session = NavigationSession(
      navigationController: make(), device: options.device,
      systemVersion: options.systemVersion)
    self.session = session
    logRecorder.sessionStarted()
    return session
  }

  /// Launches an application on the run's device and system version, whose window shows a tab
  /// bar controller with a navigation controller per page of `roots` (a root that is a
  /// navigation controller is the tab itself; each tab is titled with its root page's title),
  /// `selectedIndex` selected; the session drives the selected tab. No roots, or an index out
  /// of range: a failed check says so, and the session has one blank tab.
  @discardableResult
  public func start(tabs roots: [UIViewController], selectedIndex: Int = 0) -> NavigationSession {
    UIScreen.main.profile = options.device
    UIDevice.current.systemVersion = options.systemVersion
    UIDevice.current.linkedSDKVersion = options.sdkVersion
    var pages = roots
    var seen = Set<ObjectIdentifier>()
    let distinct = pages.allSatisfy { seen.insert(ObjectIdentifier($0)).inserted }
    if pages.isEmpty || !pages.indices.contains(selectedIndex) || !distinct {
      expect(
        false, "the tabs' pages are distinct and include the selected one",
        seen: "\(pages.count) page\(pages.count == 1 ? "" : "s")"
          + (distinct ? "" : ", one of them twice") + ", tab \(selectedIndex) selected")
      pages = [UIViewController()]
    }
    let tabs = UITabBarController()
    tabs.viewControllers = pages.map { page in
      let navigation =
        page as? UINavigationController ?? UINavigationController(rootViewController: page)
      navigation.tabBarItem = UITabBarItem(title: navigation.viewControllers.first?.title)
      return navigation
    }
    tabs.selectedIndex = pages.indices.contains(selectedIndex) ? selectedIndex : 0
    // Every tab is a navigation controller, so the session starts; should the tab bar
    // controller have refused the list anyway, a plain navigation controller stands in.
    guard
      let session = NavigationSession(
        tabBarController: tabs, device: options.device, systemVersion: options.systemVersion)
    else {
      expect(false, "the tabs start a session", seen: "the tab bar controller refused them")
      return start(root: UIViewController())
    }
    self.session = session
    logRecorder.sessionStarted()
    return session
  }

  /// Marks a moment with what the user sees of the session's bar now, over
  /// ``scenarioBackdrop``, the views under it, and the tab bar in a session with tabs. With a
  /// navigation controller presented (a sheet's), its bar is the one marked: the one the user
  /// looks at (`NavigationSession.frontNavigationController`).
  public func mark(_ name: String) {
    guard let navigation = session?.frontNavigationController else {
      return mark(name, seenBar: UINavigationBar().asSeen(over: scenarioBackdrop))
    }
    // A presented navigation controller covers the tab bar; a sheet's is drawn where the sheet
    // is now (mid-animation, where the user sees it).
    let presentation = navigation.activePresentationController
    let inSheet = presentation?.isSheet ?? false
    mark(
      name, seenBar: navigation.navigationBar.asSeen(over: scenarioBackdrop),
      views: ScenarioViewSnapshot.snapshots(of: navigation),
      seenTabBar: presentation == nil
        ? session?.tabBarController?.tabBar.asSeen(over: scenarioBackdrop) : nil,
      sheetFrame: inSheet ? navigation.viewIfLoaded?.presentationFrame : nil)
  }

  /// Marks a moment with `seenBar` (for a bar that is not the session's), `views`,
  /// `seenTabBar`, and the frame of the sheet the bar is in.
  public func mark(
    _ name: String, seenBar: SeenBar, views: [ScenarioViewSnapshot] = [],
    seenTabBar: SeenTabBar? = nil, sheetFrame: CGRect? = nil
  ) {
    moments.append(
      ScenarioMoment(
        name: name, time: VirtualRunLoop.main.currentTime, seenBar: seenBar, views: views,
        seenTabBar: seenTabBar, sheetFrame: sheetFrame))
  }
}

/// A scenario: a name, a line saying what it shows, and a script that runs on a freshly launched
/// application and marks what the bar looks like at named moments.
public struct Scenario: Sendable {
  /// The name used on the command line (`ant-forest`).
  public let name: String
  /// One line.
  public let summary: String
  /// The short name of the plugin that brought the scenario; nil for one made by hand.
  public let plugin: String?
  /// The plugins installed before ``plugin``, in order: a scenario that shows two plugins on one
  /// stack names the other here. Empty for most.
  public let companions: [String]
  private let script: @MainActor @Sendable (ScenarioContext) -> Void

  /// A scenario from its name, summary and script; `plugin` is the short name of the plugin it
  /// is meant for, installed by ``run(options:)`` unless the options say otherwise (the
  /// catalog sets it to the plugin that brings the scenario), after `companions`.
  public init(
    name: String, summary: String, plugin: String? = nil, companions: [String] = [],
    _ script: @escaping @MainActor @Sendable (ScenarioContext) -> Void
  ) {
    self.name = name
    self.summary = summary
    self.plugin = plugin
    self.companions = companions
    self.script = script
  }

  /// The same scenario, brought by the plugin named `plugin`.
  public func broughtBy(_ plugin: String) -> Scenario {
    Scenario(name: name, summary: summary, plugin: plugin, companions: companions, script)
  }

  /// The plugins a run with `options` installs: the options' list, else the scenario's
  /// companions and then its plugin.
  public func plugins(for options: ScenarioOptions) -> [String] {
    options.plugins ?? (companions + (plugin.map { [$0] } ?? []))
  }

  /// Runs the scenario from a fresh launch on the default device, with its own plugin.
  @MainActor
  public func run() throws(PluginError) -> [ScenarioMoment] {
    try run(options: ScenarioOptions())
  }

  /// Runs the scenario from a fresh launch with `options`: installs the chosen plugins (those
  /// not installed already), runs the script, and uninstalls what it installed.
  ///
  /// - Throws: `PluginError` when a plugin is unknown or does not install; the script does
  ///   not run then, and the plugins this call installed are uninstalled.
  @MainActor
  public func run(options: ScenarioOptions) throws(PluginError) -> [ScenarioMoment] {
    try run(context: options).moments
  }

  /// Runs the script with `options` and returns its context (moments and checks).
  @MainActor
  internal func run(context options: ScenarioOptions) throws(PluginError) -> ScenarioContext {
    let registry = PluginRegistry.shared
    let names = plugins(for: options)
    // Discovery reads the loaded images: only when a plugin the run needs is not known yet.
    if names.contains(where: { registry.plugin(named: $0) == nil }) {
      _ = try? registry.discover()
    }
    let context = ScenarioContext(options: options)
    // The plugins' log lines go to the run, at their moment, from their installs to their
    // uninstalls, not to standard error.
    let recorder = context.logRecorder
    let note: @Sendable (PluginLog.Line) -> Bool = { line in recorder.note(line) }
    try PluginLog.withObserver(note) { () throws(PluginError) in
      var installed: [String] = []
      defer { for name in installed.reversed() { registry.uninstall(name) } }
      for name in names {
        if try registry.install(named: name) { installed.append(name) }
      }
      runScript(context, options)
    }
    return context
  }

  /// Runs the script in `context`, unless the options' versions cannot run it (then a failed
  /// check says why).
  @MainActor
  private func runScript(_ context: ScenarioContext, _ options: ScenarioOptions) {
    // A version that does not parse would run on the model's previous version under this
    // run's label: the script does not run, and a failed check says why.
    for (what, version) in [("system version", options.systemVersion), ("SDK", options.sdkVersion)]
    {
      guard let version, !UIDevice.isSystemVersion(version) else { continue }
      context.expect(
        false, "the options' \(what) is a version number",
        seen: "\"\(version)\" is not a version number such as 15.0; the script did not run")
      return
    }
    if let sdk = options.sdkVersion,
      UIDevice.isVersion(sdk, newerThan: options.systemVersion)
    {
      context.expect(
        false, "the options' SDK is no newer than the system",
        seen: "the SDK \(sdk) is newer than iOS \(options.systemVersion); the script did not run")
      return
    }
    script(context)
  }

}
