// The GNU Objective-C runtime as a peer: the same runtime cases in Objective-C (`Peer/peer.m`),
// built by `Peer/build-peer.sh` with gcc against GNU libobjc, measured in the same run.
import Foundation

enum GNUPeer {
  /// The cases the peer implements, by the benchmark's names.
  static let cases: Set<String> = [
    "direct-call", "cached-send", "send-after-exchange", "exchange-0-classes",
    "exchange-10-classes",
    "exchange-1000-classes", "exchange-10000-classes", "add-method", "replace-method",
  ]

  /// The peer's executable, built on first use; nil when it cannot be built here (the script
  /// has said why on standard error).
  static let executable: String? = {
    let script = Measure.sourceFolder.appendingPathComponent("Peer/build-peer.sh").path
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("swizzle-bench-gnu-peer-\(ProcessInfo.processInfo.processIdentifier)")
      .path
    return Measure.outputLines(of: script, [output]) == nil ? nil : output
  }()

  /// The peer's figure for `bench` in `mode`, or nil when it has no such case or is not built.
  static func figure(_ bench: BenchCase, options: Options) -> Figure? {
    guard cases.contains(bench.name), let executable else { return nil }
    switch options.mode {
    case .callgrind: return Measure.callgrind(bench, program: executable)
    case .clock: return Measure.clock(bench, program: executable, runs: options.runs)
    case .quick: return nil
    }
  }

  /// Removes the built peer.
  static func cleanUp() {
    if let executable { try? FileManager.default.removeItem(atPath: executable) }
  }
}
