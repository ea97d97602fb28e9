// Running the benchmark's own cases under valgrind's callgrind and reading the totals.
import Foundation

enum Callgrind {
  static func valgrindPath() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/valgrind"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// The executable valgrind runs: a copy of this one without debug information when `objcopy`
  /// is there. valgrind 3.19 cannot read the DWARF 5 that clang emits for the C target and gives
  /// up on the whole binary; the symbol table, which names the functions, stays.
  static let measuredExecutable: String = {
    let copy = FileManager.default.temporaryDirectory
      .appendingPathComponent("swizzle-bench-\(ProcessInfo.processInfo.processIdentifier)").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["objcopy", "--strip-debug", selfPath(), copy]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return selfPath() }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? copy : selfPath()
  }()

  /// Removes the stripped copy.
  static func cleanUp() {
    if measuredExecutable != selfPath() {
      try? FileManager.default.removeItem(atPath: measuredExecutable)
    }
  }

  /// (instructions at the large count - at the small count) / (large - small), for the case run
  /// by `executable` (this benchmark by default, or the GNU peer).
  static func instructionsPerOperation(
    _ bench: BenchCase, valgrind: String, executable: String = measuredExecutable
  ) -> Double? {
    guard
      let small = instructions(
        bench.name, bench.iterations.small, valgrind: valgrind, executable: executable),
      let large = instructions(
        bench.name, bench.iterations.large, valgrind: valgrind, executable: executable)
    else { return nil }
    return Double(large - small) / Double(bench.iterations.large - bench.iterations.small)
  }

  /// The total instruction count of one run of a case.
  static func instructions(
    _ name: String, _ count: Int, valgrind: String, executable: String = measuredExecutable
  ) -> Int? {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent(
        "swizzle-bench-\(ProcessInfo.processInfo.processIdentifier)-\(name)-\(count).out")
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    process.arguments = [
      "--tool=callgrind", "--callgrind-out-file=\(output.path)", executable, "--run", name,
      String(count),
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    var environment = ProcessInfo.processInfo.environment
    environment["SWIZZLEKIT_QUIET"] = "1"
    // Swift seeds its hashing per process; a fixed seed makes two runs execute the same code.
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    process.environment = environment
    do {
      try process.run()
    } catch {
      return nil
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let text = try? String(contentsOf: output, encoding: .utf8)
    else { return nil }
    for line in text.split(separator: "\n")
    where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
      if let value = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
        return value
      }
    }
    return nil
  }

  /// A direct (non-callgrind) case's figure, measured by a fresh run of this executable.
  static func measureInFreshProcess(_ name: String) -> Double? {
    let process = Process()
    let pipe = Pipe()
    process.executableURL = URL(fileURLWithPath: selfPath())
    process.arguments = ["--measure", name]
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
      .split(separator: "\n").last.flatMap { Double($0) }
  }

  private static func selfPath() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
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
