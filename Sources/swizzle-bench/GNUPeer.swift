// The GNU Objective-C runtime as a peer: the same cases in Objective-C (`Peer/GNUObjC/peer.m`),
// built with gcc when Debian's gobjc is installed, measured in the same run.
import Foundation

enum GNUPeer {
  /// The cases the peer implements, by the benchmark's names.
  static let cases: Set<String> = [
    "cached-send", "send-after-exchange", "exchange-10-classes", "exchange-1000-classes",
    "exchange-10000-classes", "add-method",
  ]

  /// The peer's executable, built on first use; nil when gcc cannot build Objective-C here
  /// (install Debian's `gobjc` for the peer column).
  static let executable: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let source = root.appendingPathComponent("Peer/GNUObjC/peer.m").path
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("swizzle-bench-gnu-peer-\(ProcessInfo.processInfo.processIdentifier)")
      .path
    guard FileManager.default.fileExists(atPath: source) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gcc", "-std=gnu11", "-O2", source, "-lobjc", "-o", output]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? output : nil
  }()

  /// The peer's instructions per operation for `bench`, or nil when it has no such case or
  /// could not be built.
  static func figure(_ bench: BenchCase, valgrind: String) -> Double? {
    guard cases.contains(bench.name), let executable else { return nil }
    return Callgrind.instructionsPerOperation(bench, valgrind: valgrind, executable: executable)
  }

  /// Removes the built peer.
  static func cleanUp() {
    if let executable { try? FileManager.default.removeItem(atPath: executable) }
  }
}
