// A scenario run as a test: its checks recorded as Swift Testing issues naming the scenario and
// the profile, its timeline compared with a golden file.
public import ObjCRuntime
public import Scenarios
import ScreenRendering
public import Testing
public import UIKitModel

/// Runs `scenario` from a fresh launch with `options` and records an issue, naming the scenario,
/// the device and the iOS profile, for each check that did not come out as the scenario says:
/// a promise broken (with its differences), or a known failure that held. With `golden`, the
/// run's timeline (each moment, each check's outcome, and the sends of the `tracing` selectors
/// through the runtime) is also compared with the golden file of that name next to the test
/// (``GoldenTimeline``). With `snapshots`, each moment's screen is also compared with its image
/// snapshot, named after the moment (``expectSnapshot(of:named:scale:precision:perceptualPrecision:record:filePath:function:sourceLocation:)``).
///
/// A plugin that does not install is an issue of the same kind, and the result is nil; the
/// other runs of the test go on.
///
/// ```swift
/// @MainActor @Test(.uiKitModel, arguments: IOSProfile.all)
/// func scrolling(profile: IOSProfile) {
///   expectScenario(
///     OverlayBarScenarios.scrolling,
///     options: ScenarioOptions(profile: profile),
///     golden: "lt-scrolling-ios\(profile.name)")
/// }
/// ```
@discardableResult
@MainActor
public func expectScenario(
  _ scenario: Scenario, options: ScenarioOptions = ScenarioOptions(), golden: String? = nil,
  tracing selectors: Set<Selector> = [], snapshots: Bool = false, filePath: String = #filePath,
  function: String = #function, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> ScenarioReport? {
  let cell = "\(scenario.name) on \(options.device.rawValue), iOS \(options.profileName)"
  // A version that does not parse would run on the model's previous one under this label.
  for (what, version) in [("system version", options.systemVersion), ("SDK", options.sdkVersion)] {
    guard let version, !UIDevice.isSystemVersion(version) else { continue }
    TestReporter.fail(
      "\(scenario.name): the \(what) \"\(version)\" is not a version number such"
        + " as 15.0 or 10.3.1 (IOSProfile names the profiles); the scenario did not run",
      at: sourceLocation)
    return nil
  }
  if let sdk = options.sdkVersion, UIDevice.isSystemVersion(sdk),
    UIDevice.isSystemVersion(options.systemVersion),
    UIDevice.isVersion(sdk, newerThan: options.systemVersion)
  {
    TestReporter.fail(
      "\(scenario.name): the SDK \(sdk) is newer than the running iOS"
        + " \(options.systemVersion) (an app cannot be built with a newer SDK than it runs on;"
        + " see Docs/Testing.md); the scenario did not run", at: sourceLocation)
    return nil
  }
  if let plugins = options.plugins,
    let twice = plugins.first(where: { name in plugins.filter { $0 == name }.count > 1 })
  {
    TestReporter.fail(
      "\(scenario.name): the plugin \(twice) is named twice; the scenario did not run",
      at: sourceLocation)
    return nil
  }
  let report: ScenarioReport
  let sends: [String]
  do {
    (report, sends) = try GoldenTimeline.recordingSends(of: selectors) {
      try scenario.check(options: options)
    }
  } catch {
    TestReporter.fail("\(cell): \(error)", at: sourceLocation)
    return nil
  }
  for check in report.checks where !check.isAsExpected {
    let what =
      check.isKnownFailure
      ? ["held, though the scenario says it fails here (drop failsOn/onDevices if fixed)"]
      : check.differences
    TestReporter.fail(
      (["\(cell): \"\(check.label)\""] + what.map { "  " + $0 })
        .joined(separator: "\n"), at: sourceLocation)
  }
  if let golden {
    let text =
      GoldenTimeline.timeline(report)
      + (sends.isEmpty ? "" : "sends:\n" + sends.map { "  " + $0 + "\n" }.joined())
    GoldenTimeline.check(text, named: golden, filePath: filePath, sourceLocation: sourceLocation)
  }
  if snapshots {
    let names = SnapshotName.momentIdentifiers(
      scenario: scenario.name, moments: report.moments.map(\.name))
    for (moment, name) in zip(report.moments, names) {
      expectSnapshot(
        of: ScreenFrame(moment: moment, options: options), named: name, filePath: filePath,
        function: function, sourceLocation: sourceLocation)
    }
  }
  return report
}

/// Runs each of `scenarios` on `profile` and each of `devices` with ``expectScenario(_:options:golden:tracing:snapshots:filePath:function:sourceLocation:)``:
/// the matrix's row of one profile, as a test.
///
/// ```swift
/// @MainActor @Test(.uiKitModel, arguments: IOSProfile.matrix)
/// func everywhere(profile: IOSProfile) {
///   expectScenarios(OverlayBarScenarios.all, on: profile)
/// }
/// ```
@MainActor
public func expectScenarios(
  _ scenarios: [Scenario], on profile: IOSProfile, devices: [DeviceProfile] = DeviceProfile.matrix,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  for device in devices {
    for scenario in scenarios {
      expectScenario(
        scenario, options: ScenarioOptions(device: device, profile: profile),
        sourceLocation: sourceLocation)
    }
  }
}

extension Scenario: CustomTestStringConvertible {
  /// The scenario's name, as a parameterized test's case shows it (`ant-forest`).
  public var testDescription: String { name }
}

extension IOSProfile: CustomTestStringConvertible {
  /// `iOS 15`, as a parameterized test's case shows a profile.
  public var testDescription: String { "iOS \(name)" }
}

/// A plugin's scenario suite in one call, what every plugin's scenarios should be held to:
/// - each keeps its promises on every profile of `profiles` and every device of the matrix
///   (``expectScenarios(_:on:devices:sourceLocation:)``);
/// - its timeline is the golden one, `Golden/<scenario name>.txt` beside the calling file, with
///   the sends of the `tracing` selectors (``expectScenario(_:options:golden:tracing:snapshots:filePath:function:sourceLocation:)``);
/// - run twice in a row, it marks the same moments with the same bars
///   (``expectScenariosRepeatable(_:sourceLocation:)``).
///
/// Swift Testing has no suite inheritance and SwizzleKit takes no macro package, so the reusable
/// suite is this function: a plugin's test target calls it from one test, and adds the tests of
/// its own behaviour beside it.
///
/// ```swift
/// @MainActor @Suite(.uiKitModel)
/// struct MyScenarioTests {
///   @Test("the scenarios: every profile and device, golden timelines, the same twice")
///   func suite() {
///     expectScenarioSuite(MyScenarios.all, tracing: ["pushViewController:animated:"])
///   }
/// }
/// ```
@MainActor
public func expectScenarioSuite(
  _ scenarios: [Scenario], tracing selectors: Set<Selector> = [],
  profiles: [IOSProfile] = IOSProfile.matrix, filePath: String = #filePath,
  function: String = #function, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  for profile in profiles {
    expectScenarios(scenarios, on: profile, sourceLocation: sourceLocation)
  }
  for scenario in scenarios {
    expectScenario(
      scenario, golden: scenario.name, tracing: selectors, filePath: filePath,
      function: function, sourceLocation: sourceLocation)
  }
  // A scenario that cannot run was reported by its golden run just above.
  expectRepeatable(scenarios, reportingRunFailures: false, sourceLocation: sourceLocation)
}

/// Runs each of `scenarios` twice in a row and records an issue for each whose second run's
/// timeline (its moments with their bars, and its checks' outcomes, as ``GoldenTimeline``
/// writes them) differs from the first's, naming the first line that differs: a scenario must
/// not depend on what ran before it. A run that cannot start (its plugin does not install) is an
/// issue too.
@MainActor
public func expectScenariosRepeatable(
  _ scenarios: [Scenario], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  expectRepeatable(scenarios, reportingRunFailures: true, sourceLocation: sourceLocation)
}

@MainActor
private func expectRepeatable(
  _ scenarios: [Scenario], reportingRunFailures: Bool, sourceLocation: Testing.SourceLocation
) {
  for scenario in scenarios {
    let once: String
    let again: String
    do {
      once = GoldenTimeline.timeline(try scenario.check(options: ScenarioOptions()))
      again = GoldenTimeline.timeline(try scenario.check(options: ScenarioOptions()))
    } catch {
      if reportingRunFailures {
        TestReporter.fail("\(scenario.name) did not run: \(error)", at: sourceLocation)
      }
      continue
    }
    guard let difference = GoldenTimeline.firstDifference(once, again) else { continue }
    TestReporter.fail(
      "\(scenario.name) ran otherwise the second time, from line \(difference.line):"
        + " \(difference.expected) the first time, \(difference.seen) the second; a scenario"
        + " must not depend on what ran before it",
      at: sourceLocation)
  }
}
