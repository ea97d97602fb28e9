// `matrix`: every scenario of the chosen plugins on every device and iOS profile, against the
// checks the scenarios make, as a table; `--out` writes it as an HTML page with a report per
// cell.
import Foundation
import ObjCRuntime
import Scenarios
import UIKitModel

enum MatrixCommand {
  /// One cell: a scenario on a device and a profile, how it came out, and (with `--out`) the
  /// report's data of that same run.
  struct Cell {
    let scenario: Scenario
    let device: DeviceProfile
    let profile: IOSProfile
    let outcome: Outcome
    let data: ReportData?

    /// The cell's folder name: `scenario-device-ios15` (`-ios15-sdk14` for an SDK variant).
    var folder: String {
      "\(scenario.name)-\(device.rawValue.replacingOccurrences(of: " ", with: ""))"
        + "-ios\(profile.name.replacingOccurrences(of: "/", with: "-"))"
    }
  }

  /// The key of a cell in the matrix.
  struct Key: Hashable {
    let scenario: String
    let device: DeviceProfile
    let profile: String
  }

  /// How a cell came out.
  enum Outcome {
    /// Every check held (or the scenario makes none).
    case ok
    /// Every check came out as expected, some failing where the technique is known to break.
    case knownFailure
    /// A check did not come out as expected: the first, described.
    case failed(String)
    /// The scenario could not run (a plugin that does not install).
    case error(String)

    var mark: String {
      switch self {
      case .ok: "ok"
      case .knownFailure: "xfail"
      case .failed: "FAIL"
      case .error: "ERROR"
      }
    }

    var isFailure: Bool {
      switch self {
      case .ok, .knownFailure: false
      case .failed, .error: true
      }
    }
  }

  @MainActor static func run(_ options: Options, output: LabOutput) throws(LabError) -> LabExit {
    let scenarios = try chosenScenarios(options)
    let devices = options.devices.isEmpty ? DeviceProfile.matrix : options.devices
    let total = scenarios.count * devices.count * IOSProfile.matrix.count
    let progress = isatty(STDERR_FILENO) != 0
    var cells: [Key: Cell] = [:]
    for scenario in scenarios {
      for device in devices {
        for profile in IOSProfile.matrix {
          if progress {
            output.err(
              "\r[\(cells.count + 1)/\(total)] \(scenario.name) on \(device.rawValue),"
                + " iOS \(profile.name)\u{1B}[K")
          }
          let cell = run(
            scenario, device: device, profile: profile, options,
            sampling: options.outDirectory != nil)
          cells[Key(scenario: scenario.name, device: device, profile: profile.name)] = cell
        }
      }
    }
    if progress { output.err("\r\u{1B}[K") }
    output.out(table(cells, scenarios: scenarios, devices: devices))
    if let directory = options.outDirectory {
      try writeHTML(cells, scenarios: scenarios, devices: devices, to: directory)
      output.out("wrote \(directory)/matrix.html and a report per cell\n")
    }
    let failed = cells.values.filter { $0.outcome.isFailure }.count
    guard failed == 0 else {
      output.err("error: \(failed) of \(cells.count) runs were not as expected (see the table)\n")
      return .failure
    }
    return .ok
  }

  /// The scenarios named with `--scenario`, else those of the plugins named with `--plugin`,
  /// else every scenario.
  @MainActor static func chosenScenarios(_ options: Options) throws(LabError) -> [Scenario] {
    let all = ScenarioCatalog.all()
    if !options.scenarios.isEmpty {
      return try options.scenarios.map { name throws(LabError) in
        guard let scenario = all.first(where: { $0.name == name }) else {
          throw .usage(
            "no scenario '\(name)'; scenarios: \(all.map(\.name).joined(separator: ", "))",
            topic: "matrix")
        }
        return scenario
      }
    }
    let plugins = options.plugins.filter { $0 != "none" }
    guard !plugins.isEmpty else { return all }
    return all.filter { scenario in scenario.plugin.map(plugins.contains) ?? false }
  }

  /// Runs one cell: the scenario's checks, sampled for a report when `sampling` (one run
  /// either way).
  @MainActor static func run(
    _ scenario: Scenario, device: DeviceProfile, profile: IOSProfile, _ options: Options,
    sampling: Bool
  ) -> Cell {
    var scenarioOptions = ScenarioOptions(device: device, profile: profile)
    let plugins = options.plugins.filter { $0 != "none" }
    if !options.scenarios.isEmpty, !plugins.isEmpty { scenarioOptions.plugins = plugins }
    func cell(_ outcome: Outcome, _ data: ReportData?) -> Cell {
      Cell(scenario: scenario, device: device, profile: profile, outcome: outcome, data: data)
    }
    do {
      let (data, report): (ReportData?, ScenarioReport) =
        sampling
        ? try RenderCommand.collect(scenario, scenarioOptions)
        : (nil, try scenario.check(options: scenarioOptions))
      if let surprise = report.firstSurprise { return cell(.failed(surprise), data) }
      return cell(report.hasKnownFailures ? .knownFailure : .ok, data)
    } catch {
      return cell(.error(error.description), nil)
    }
  }

  /// The width of `profile`'s column: 8, or its header and two spaces when longer.
  static func column(_ profile: IOSProfile) -> Int { max(8, "iOS \(profile.name)".count + 2) }

  /// The table: a row per scenario and device, a column per profile, then the failures.
  static func table(_ cells: [Key: Cell], scenarios: [Scenario], devices: [DeviceProfile])
    -> String
  {
    let rows = scenarios.flatMap { scenario in devices.map { (scenario, $0) } }
    let labels = rows.map { "\($0.0.name) (\($0.1.rawValue))" }
    let width = max(20, labels.map(\.count).max() ?? 0) + 2
    var lines = [
      "matrix: \(scenarios.count) scenarios x \(devices.count) devices x"
        + " \(IOSProfile.matrix.count) iOS profiles = \(cells.count) runs", "",
      "".padding(toLength: width, withPad: " ", startingAt: 0)
        + IOSProfile.matrix.map {
          "iOS \($0.name)".padding(toLength: column($0), withPad: " ", startingAt: 0)
        }
        .joined(),
    ]
    for (index, row) in rows.enumerated() {
      let marks = IOSProfile.matrix.map { profile in
        (cells[Key(scenario: row.0.name, device: row.1, profile: profile.name)]?.outcome.mark
          ?? "-").padding(toLength: column(profile), withPad: " ", startingAt: 0)
      }
      lines.append(
        labels[index].padding(toLength: width, withPad: " ", startingAt: 0) + marks.joined())
    }
    // In the table's order: row by row, profile by profile.
    let ordered = rows.flatMap { row in
      IOSProfile.matrix.compactMap {
        cells[Key(scenario: row.0.name, device: row.1, profile: $0.name)]
      }
    }
    let failures = ordered.filter(\.outcome.isFailure)
    let known = ordered.filter { if case .knownFailure = $0.outcome { true } else { false } }
    lines.append("")
    if !known.isEmpty {
      lines.append("xfail: the technique breaks there, as the scenario says it does.")
    }
    for cell in failures {
      let detail: String =
        switch cell.outcome {
        case .failed(let text), .error(let text): text
        default: ""
        }
      lines.append(
        "\(cell.outcome.mark) \(cell.scenario.name) (\(cell.device.rawValue)) iOS"
          + " \(cell.profile.name): \(detail)")
    }
    lines.append(
      "\(cells.count) runs: \(cells.count - failures.count) as expected"
        + " (\(known.count) known failures), \(failures.count) not")
    return lines.map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n") + "\n"
  }

  /// `matrix.html` in `directory`, each cell linking to its own report (the data its run
  /// sampled).
  static func writeHTML(
    _ cells: [Key: Cell], scenarios: [Scenario], devices: [DeviceProfile], to directory: String
  ) throws(LabError) {
    let root = URL(fileURLWithPath: directory)
    let escape = RenderCommand.escape
    var rows: [String] = []
    for scenario in scenarios {
      for device in devices {
        var row = "<tr><th>\(escape(scenario.name)) (\(device.rawValue))</th>"
        for profile in IOSProfile.matrix {
          guard
            let cell = cells[Key(scenario: scenario.name, device: device, profile: profile.name)]
          else { continue }
          if let data = cell.data {
            let cellFolder = root.appendingPathComponent("cells").appendingPathComponent(
              cell.folder)
            do {
              try FileManager.default.createDirectory(
                at: cellFolder, withIntermediateDirectories: true)
              try RenderCommand.html(data, scrubber: false).write(
                to: cellFolder.appendingPathComponent("report.html"), atomically: true,
                encoding: .utf8)
            } catch {
              throw .failure("could not write the report to \(cellFolder.path): \(error)")
            }
          }
          let title: String =
            switch cell.outcome {
            case .failed(let text), .error(let text): escape(text)
            default: cell.outcome.mark
            }
          row +=
            "<td class=\"\(cell.outcome.mark.lowercased())\" title=\"\(title)\"><a href=\"cells/"
            + "\(cell.folder)/report.html\">\(cell.outcome.mark)</a></td>"
        }
        rows.append(row + "</tr>")
      }
    }
    let header = IOSProfile.matrix.map { "<th>iOS \($0.name)</th>" }.joined()
    let page = """
      <!DOCTYPE html>
      <html><head><meta charset="utf-8"><title>SwizzleKit matrix</title><style>
      body { font-family: sans-serif; } td, th { padding: 4px 10px; text-align: left; }
      td.ok { background: #d8f0d8; } td.xfail { background: #f3ead0; }
      td.fail, td.error { background: #f4cccc; }
      </style></head><body>
      <h1>Scenarios across devices and iOS versions</h1>
      <p>ok: every check held. xfail: the technique breaks there, as the scenario says.
      FAIL: a check did not come out as expected (hover for the first). Each cell links to its
      report.</p>
      <table><tr><th></th>\(header)</tr>
      \(rows.joined(separator: "\n"))
      </table></body></html>
      """
    do {
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      try page.write(
        to: root.appendingPathComponent("matrix.html"), atomically: true, encoding: .utf8)
    } catch {
      throw .failure("could not write \(directory)/matrix.html: \(error)")
    }
  }
}
