// Taking one figure: in a fresh process of this benchmark (or of the GNU peer), by the clock or by
// callgrind through `callgrind.sh`.
import Foundation

/// One measured figure: the median of its runs and their extremes.
struct Figure: Codable {
  /// The median.
  var value: Double
  /// The smallest and the largest run.
  var low: Double
  var high: Double
  /// How many runs the median is of.
  var runs: Int
  /// The unit, short: `instr` and `ns` (per operation), `ms`, `B/association` ...
  var unit: String

  /// The median of `samples` (nil when there are none).
  init?(_ samples: [Double], unit: String) {
    guard !samples.isEmpty else { return nil }
    let sorted = samples.sorted()
    value = sorted[sorted.count / 2]
    low = sorted[0]
    high = sorted[sorted.count - 1]
    runs = sorted.count
    self.unit = unit
  }

  /// The spread as "±N%": the farther extreme from the median; "-" for a single run.
  var spreadText: String {
    guard runs > 1, value > 0 else { return "-" }
    let spread = max(high - value, value - low) / value * 100
    return spread < 1 ? "±<1%" : String(format: "±%.0f%%", spread)
  }

  /// The median with its unit: one decimal below 1,000, grouped thousands above.
  var valueText: String {
    let number =
      value >= 1_000
      ? Int(value.rounded()).formatted(
        .number.grouping(.automatic).locale(Locale(identifier: "en_US")))
      : String(format: value >= 1 ? "%.1f" : "%.2f", value)
    return "\(number) \(unit)"
  }
}

enum Measure {
  /// The `--run`, `--time` and `--measure` modes, which the parent runs in fresh processes of
  /// this executable; returns false when `arguments` is not one of them.
  @MainActor static func runChildMode(_ arguments: [String]) -> Bool {
    guard let mode = arguments.first, ["--run", "--time", "--measure"].contains(mode),
      arguments.count >= 2, let bench = Cases.all.first(where: { $0.name == arguments[1] })
    else { return false }
    switch mode {
    case "--measure":
      guard let direct = bench.direct else { return false }
      print(direct())
    default:
      guard arguments.count == 3, let count = Int(arguments[2]) else { return false }
      let start = ContinuousClock.now
      print("checksum \(bench.body(count))")
      if mode == "--time" {
        // The loop's time when the case timed it, else the whole body's.
        let loop = Stopwatch.lastLoop.load(ordering: .relaxed)
        print(loop >= 0 ? loop : (ContinuousClock.now - start).nanoseconds)
      }
    }
    return true
  }

  /// The folder of the benchmark's sources, where its scripts and the peer live.
  static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  /// This executable.
  static let executable: String =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]

  /// Runs `program` with `arguments` in a fresh process; the lines of its standard output, or
  /// nil when it failed. Standard error passes through (the scripts say there what they install).
  static func outputLines(of program: String, _ arguments: [String]) -> [Substring]? {
    let process = Process()
    let pipe = Pipe()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = pipe
    var environment = ProcessInfo.processInfo.environment
    environment["SWIZZLEKIT_QUIET"] = "1"
    process.environment = environment
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).split(separator: "\n")
  }

  /// The number on the last line of `program`'s output.
  static func lastNumber(of program: String, _ arguments: [String]) -> Double? {
    outputLines(of: program, arguments)?.last.flatMap { Double($0) }
  }

  /// A direct case's figure: the median of `runs` fresh processes for a time, one for memory.
  static func direct(_ bench: BenchCase, runs: Int) -> Figure? {
    let repeats = ["ms", "us", "us/frame"].contains(bench.unit) ? runs : 1
    let samples = (0..<repeats).compactMap { _ in
      lastNumber(of: executable, ["--measure", bench.name])
    }
    return Figure(samples, unit: bench.unit)
  }

  /// Nanoseconds per operation of `program --time CASE N`: the median of `runs` fresh processes.
  static func clock(_ bench: BenchCase, program: String = executable, runs: Int) -> Figure? {
    let count = bench.timedIterations
    let samples = (0..<runs).compactMap { _ in
      lastNumber(of: program, ["--time", bench.name, String(count)])
        .map { $0 / Double(max(count, 1)) }
    }
    return Figure(samples, unit: "ns")
  }

  /// Instructions per operation of `program`'s case, from `callgrind.sh` (its first line); with
  /// `annotate`, the profile the script prints after it is passed on.
  static func callgrind(
    _ bench: BenchCase, program: String = executable, annotate: Bool = false
  ) -> Figure? {
    let script = sourceFolder.appendingPathComponent("callgrind.sh").path
    let arguments =
      (annotate ? ["--annotate"] : [])
      + [program, bench.name, String(bench.iterations.small), String(bench.iterations.large)]
    guard let lines = outputLines(of: script, arguments), let first = lines.first,
      let value = Double(first)
    else { return nil }
    if annotate { print(lines.dropFirst().joined(separator: "\n")) }
    return Figure([value], unit: "instr")
  }
}
