// What a scenario promises: checks of the bar at its moments, some known to fail on some iOS
// versions (where a technique broke), and the outcome of a run against them.
public import Foundation
public import Hooks
public import UIKitModel

/// One check a scenario made: what it expected of the bar at a point of its script, what it
/// saw, and whether the technique is known to fail it on the run's iOS version.
public struct ScenarioCheck: Sendable, Equatable {
  /// What was checked (`fixed: elements faded`).
  public let label: String
  /// The differences between what was expected and what was seen; empty when it held.
  public let differences: [String]
  /// Whether the technique is known to fail this check on the run's iOS version.
  public let isKnownFailure: Bool

  /// A check.
  public init(label: String, differences: [String], isKnownFailure: Bool) {
    self.label = label
    self.differences = differences
    self.isKnownFailure = isKnownFailure
  }

  /// Whether the check held.
  public var held: Bool { differences.isEmpty }

  /// Whether the outcome is the one expected: held, or failed where a failure is known.
  public var isAsExpected: Bool { held != isKnownFailure }
}

/// The outcome of a scenario run against its checks.
public struct ScenarioReport: Sendable {
  /// The moments marked.
  public let moments: [ScenarioMoment]
  /// The checks made, in order.
  public let checks: [ScenarioCheck]
  /// The lines the plugins wrote to their `PluginLog` during the run, in order.
  public let log: [ScenarioLogLine]

  /// A report of `moments`, `checks` and `log`.
  public init(moments: [ScenarioMoment], checks: [ScenarioCheck], log: [ScenarioLogLine] = []) {
    self.moments = moments
    self.checks = checks
    self.log = log
  }

  /// Whether every check came out as expected.
  public var isAsExpected: Bool { checks.allSatisfy(\.isAsExpected) }

  /// The first check that did not come out as expected, described on one line; nil when all
  /// did.
  public var firstSurprise: String? {
    guard let check = checks.first(where: { !$0.isAsExpected }) else { return nil }
    if check.isKnownFailure {
      return "\(check.label): held, though known to fail here"
    }
    return "\(check.label): \(check.differences.first ?? "")"
  }

  /// Whether some check failed as known (the technique breaks on this version).
  public var hasKnownFailures: Bool { checks.contains { $0.isKnownFailure && !$0.held } }
}

extension ScenarioContext {
  /// Checks what the user sees of the session's bar now against `expected` (over
  /// ``scenarioBackdrop``), recording the outcome under `label`; with a navigation controller
  /// presented (a sheet's), its bar, the one the user looks at. Where the technique is known
  /// to fail the check, say so: `failsOn` names iOS profiles (`IOSProfile` names: `"11"`,
  /// `"15"`...) and `onDevices` devices; a run matching every set given is expected to fail
  /// (a pass there is a surprise).
  public func expectBar(
    _ expected: ExpectedBar, _ label: String, failsOn profiles: Set<String> = [],
    onDevices devices: Set<DeviceProfile> = [], tolerance: CGFloat = 0.01
  ) {
    guard let bar = session?.frontNavigationController.navigationBar else {
      // No session: there is no bar to compare, and a stand-in's would say something untrue.
      return record(
        label, ["no session: the scenario calls start(root:) before it checks the bar"],
        failsOn: profiles, onDevices: devices)
    }
    let differences = expected.differences(
      from: bar.asSeen(over: scenarioBackdrop), height: bar.barHeight, tolerance: tolerance)
    record(label, differences, failsOn: profiles, onDevices: devices)
  }

  /// Checks anything else the scenario promises (which controller is on top, how deep the
  /// stack is), recording the outcome under `label`: `holds` is the promise, `seen` says what
  /// was seen instead when it does not hold. `failsOn` and `onDevices` mark where the technique
  /// is known to break, as for ``expectBar(_:_:failsOn:onDevices:tolerance:)``.
  ///
  /// ```swift
  /// let top = session.navigationController.topViewController?.title
  /// context.expect(top == "Detail", "still on the detail", seen: "top: \(top ?? "none")")
  /// ```
  public func expect(
    _ holds: Bool, _ label: String, seen: @autoclosure () -> String = "not so",
    failsOn profiles: Set<String> = [], onDevices devices: Set<DeviceProfile> = []
  ) {
    record(label, holds ? [] : [seen()], failsOn: profiles, onDevices: devices)
  }

  /// Records a check's outcome, known to fail when the run matches every set given.
  private func record(
    _ label: String, _ differences: [String], failsOn profiles: Set<String>,
    onDevices devices: Set<DeviceProfile>
  ) {
    let profile = options.profileName
    let known =
      !(profiles.isEmpty && devices.isEmpty)
      && (profiles.isEmpty || profiles.contains(profile))
      && (devices.isEmpty || devices.contains(options.device))
    checks.append(ScenarioCheck(label: label, differences: differences, isKnownFailure: known))
  }
}

extension DeviceProfile {
  /// The devices a matrix runs on unless told otherwise: one of each shape of bar (an iPhone
  /// with a 20-point status bar, one with the notch, an iPad).
  public static let matrix: [DeviceProfile] = [.iPhone8, .iPhoneX, .iPadAir]
}

extension IOSProfile {
  /// The names of every matrix profile: for a check that fails on every version (a seed's bug).
  public static var everyName: Set<String> { Set(matrix.map(\.name)) }
}

extension ScenarioOptions {
  /// The name of the matrix profile the options run (`15`, `15/sdk14`), or the system version
  /// when they run no profile's.
  public var profileName: String {
    IOSProfile.running(systemVersion, sdk: sdkVersion)?.name ?? systemVersion
  }
}

extension Scenario {
  /// Runs the scenario from a fresh launch with `options`, as ``run(options:)``, and returns
  /// its moments with the checks its script made.
  ///
  /// - Throws: `PluginError` when a plugin is unknown or does not install.
  @MainActor
  public func check(options: ScenarioOptions) throws(PluginError) -> ScenarioReport {
    let context = try run(context: options)
    return ScenarioReport(moments: context.moments, checks: context.checks, log: context.log)
  }
}
