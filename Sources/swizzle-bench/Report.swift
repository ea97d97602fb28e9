// The benchmark's results: rows judged against their targets, printed as a table and written as
// JSON.
import Foundation

/// One case's results.
struct Row: Codable {
  /// The case's name.
  var name: String
  /// Its target, as the issue states it.
  var target: String
  /// Our figure; nil when the case failed.
  var ours: Figure?
  /// GNU libobjc's figure for the same operation, when the peer has it.
  var gnu: Figure?
  /// ours / GNU.
  var ratioToGNU: Double?
  /// The limit in the figure's unit, when this run can judge the target.
  var limit: Double?
  /// `met`, `MISSED`, `failed`, `-` (no target), or `callgrind` (a target stated in instructions,
  /// judged by `--callgrind`).
  var verdict: String
}

/// Where the figures were taken.
struct Machine: Codable {
  var processor: String
  var cores: Int
  var memoryGiB: Int
  var system: String
  var swift: String

  static func current() -> Machine {
    func firstLine(_ path: String, prefix: String) -> String? {
      (try? String(contentsOfFile: path, encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix(prefix) }
        .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) }
    }
    let processor =
      firstLine("/proc/cpuinfo", prefix: "model name")
      .map { $0.drop { $0 == ":" || $0 == " " } }.map(String.init) ?? "unknown"
    let system =
      firstLine("/etc/os-release", prefix: "PRETTY_NAME=")?
      .trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "Linux"
    let swift =
      Measure.outputLines(of: "/usr/bin/env", ["swift", "--version"])?
      .first { $0.contains("Swift version") }.map(String.init) ?? "unknown"
    return Machine(
      processor: processor, cores: ProcessInfo.processInfo.activeProcessorCount,
      memoryGiB: Int(ProcessInfo.processInfo.physicalMemory >> 30), system: system, swift: swift)
  }

  var summary: String {
    "\(processor), \(cores) cores, \(memoryGiB) GiB; \(system); \(swift)"
  }
}

/// A whole run.
struct Report: Codable {
  var date: String
  var mode: Options.Mode
  var runsPerFigure: Int
  var machine: Machine
  var cases: [Row]
  /// The hook libraries' table, when `--hook-libraries` asked for it.
  var libraries: [LibraryRow] = []
  /// How the scaling cases measured in this run grow, family by family.
  var scaling: [ScalingRow] = []

  /// The table, readable at 120 columns.
  func printTable() {
    let what =
      mode == .callgrind
      ? "instructions per operation (valgrind's callgrind: the same from run to run)"
      : "time per operation, median of \(runsPerFigure) fresh processes (±: the farther run)"
    print("swizzle-bench \(date): \(what)")
    print("machine: \(machine.summary)\n")
    let rows = cases.map { row in
      [
        row.name, row.target, row.ours?.valueText ?? "failed", row.ours?.spreadText ?? "-",
        row.gnu?.valueText ?? "-", row.ratioToGNU.map(Report.ratioText) ?? "-", row.verdict,
      ]
    }
    Table.print(
      header: ["case", "target", "ours", "spread", "GNU libobjc", "ours/GNU", "target"],
      rows: rows)
    printScaling()
    printLibraries()
    let missed =
      cases.filter { $0.verdict == "MISSED" }.map(\.name)
      + scaling.filter(\.isRegression).map { "\($0.operation) by \($0.counting)" }
    print("")
    print(
      missed.isEmpty
        ? "Every target this run can judge is met."
        : "MISSED: \(missed.joined(separator: ", ")) (Docs/Performance.md says where the cost goes)"
    )
    if mode == .clock, cases.contains(where: { $0.verdict == "callgrind" }) {
      print("Targets stated in instructions are judged by --callgrind (\"callgrind\" above).")
    }
  }

  /// Each scaling family: its figures by N and its verdict.
  private func printScaling() {
    guard !scaling.isEmpty else { return }
    let unit = mode == .callgrind ? "instructions" : "time"
    print("\nHow costs grow (\(unit) per operation at each N):\n")
    Table.print(
      header: ["operation", "N counts", "figures by N", "verdict"],
      rows: scaling.map { row in
        [
          row.operation, row.counting,
          row.points.map { "\($0.n.formatted): \(Int($0.value.rounded()).formatted)" }
            .joined(separator: ", "),
          row.verdict,
        ]
      })
  }

  /// The hook libraries' table: each shape against the unhooked call, in time and in
  /// instructions, beside the published ratios.
  private func printLibraries() {
    guard !libraries.isEmpty else { return }
    print(
      "\nThe hook libraries' benchmark: an empty method, hooked with empty bodies, against the"
        + " same calls unhooked\n(ours: 1,000,000 calls, median of \(runsPerFigure) fresh"
        + " processes; instructions by callgrind):\n")
    func ratio(_ value: Double?) -> String { value.map { String(format: "%.1fx", $0) } ?? "-" }
    Table.print(
      header: ["hook", "time", "instructions", "ns a call", "published"],
      rows: libraries.map { row in
        [
          row.shape, ratio(row.timeRatio), ratio(row.instructionRatio),
          row.nanoseconds.map { String(format: "%.1f", $0) } ?? "-", row.published,
        ]
      })
    print("")
    for source in HookLibraryCases.sources { print(source) }
  }

  static func ratioText(_ ratio: Double) -> String {
    ratio < 0.1 ? String(format: "1/%.0f", 1 / ratio) : String(format: "%.2fx", ratio)
  }

  /// Writes the report as JSON; false (having said why) when it cannot.
  func write(to path: String) -> Bool {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      try encoder.encode(self).write(to: URL(fileURLWithPath: path))
      return true
    } catch {
      FileHandle.standardError.write(Data("swizzle-bench: cannot write \(path): \(error)\n".utf8))
      return false
    }
  }
}

enum Table {
  static func print(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
        .joined(separator: "  ")
    }
    Swift.print(line(header))
    Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    for row in rows { Swift.print(line(row)) }
  }
}
