// `run`: a scenario's timeline, and running a scenario for any command.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import UIKitModel

/// `run`: the timeline of a scenario.
enum RunCommand {
  @MainActor static func run(_ options: Options, output: LabOutput, environment: [String: String])
    throws(LabError) -> LabExit
  {
    guard let scenario = ScenarioCatalog.named(options.scenario ?? "tour") else {
      throw .usage("no scenario", topic: "run")
    }
    let color = output.isTerminal && !options.noColor && environment["NO_COLOR"] == nil
    let plugins = scenario.plugins(for: options.scenarioOptions)
    output.out(
      Lab.wrap("\(scenario.name): \(scenario.summary)", width: 79).joined(separator: "\n") + "\n"
        + "\(options.device.rawValue), iOS \(options.systemVersion),"
        + (options.sdkVersion.map { " iOS \($0) SDK," } ?? "")
        + " plugin\(plugins.count > 1 ? "s" : "")"
        + " \(plugins.isEmpty ? "none" : plugins.joined(separator: ", "))\n\n")
    let report = try runScenarioReport(scenario, options.scenarioOptions)
    let moments = report.moments
    func printLog(before moment: Int) {
      for line in logLines(report, before: moment) { output.out(line + "\n") }
    }
    let title =
      (UIApplication.shared.keyWindow?.rootViewController as? UINavigationController)?
      .topViewController?.title ?? ""
    for (index, moment) in moments.enumerated() {
      printLog(before: index)
      let bar = moment.seenBar
      output.out("  \(Format.time(moment.time))  \(moment.name)\n")
      output.out(
        "    \(Format.strip(bar, title: title, color: color))"
          + " bg \(Format.hex(bar.backgroundColor)) \(Format.number(bar.backgroundOpacity))"
          + "  tint \(Format.hex(bar.tintColor))  title \(Format.hex(bar.titleColor))"
          + (bar.largeTitleColor.map { "  large \(Format.hex($0))" } ?? "")
          + (bar.showsSearchBar ? "  search" : "")
          + "  \(Format.status(bar.statusBarStyle))  y \(Format.number(bar.translationY, digits: 0))"
          + Format.exceptions(bar) + "\n")
      if let tabBar = moment.seenTabBar { output.out("    \(tabBar)\n") }
      if options.speed > 0 { usleep(useconds_t(options.speed * 1_000_000)) }
    }
    printLog(before: moments.count)
    if let last = moments.last {
      let summary =
        "\(moments.count) steps over \(Format.time(last.time)) of virtual time; the bar ends"
        + " \(Format.hex(last.seenBar.backgroundColor)) at opacity"
        + " \(Format.number(last.seenBar.backgroundOpacity)), status bar"
        + " \(Format.status(last.seenBar.statusBarStyle))."
      output.out("\n" + Lab.wrap(summary, width: 79).joined(separator: "\n") + "\n")
    }
    return .ok
  }

  /// The plugins' log lines written before moment `moment` of `report` (after the last one
  /// when it is their count), as the timeline prints them: `  0.517  [plugin] message`.
  static func logLines(_ report: ScenarioReport, before moment: Int) -> [String] {
    report.log.filter { $0.moment == moment }.map { "  \(Format.time($0.time))  \($0)" }
  }
}

/// Runs `scenario` with its checks and the plugins' log, turning a plugin that fails to install
/// into a failure of the command.
@MainActor func runScenarioReport(_ scenario: Scenario, _ options: ScenarioOptions) throws(LabError)
  -> ScenarioReport
{
  do {
    return try scenario.check(options: options)
  } catch {
    throw .failure(error.description)
  }
}

/// Runs `scenario`, turning a plugin that fails to install into a failure of the command.
@MainActor func runScenario(_ scenario: Scenario, _ options: ScenarioOptions) throws(LabError)
  -> [ScenarioMoment]
{
  do {
    return try scenario.run(options: options)
  } catch {
    throw .failure(error.description)
  }
}
