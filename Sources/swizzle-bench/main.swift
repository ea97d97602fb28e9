// swizzle-bench: counts the instructions of the runtime's operations with callgrind.
import Foundation
import ObjCRuntime

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--measure", arguments.count == 2,
  let direct = Cases.all.first(where: { $0.name == arguments[1] })?.direct
{
  print(direct())
  exit(0)
}

if arguments.first == "--run", arguments.count == 3, let count = Int(arguments[2]),
  let bench = Cases.all.first(where: { $0.name == arguments[1] })
{
  print("checksum \(bench.body(count))")
  exit(0)
}

if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    USAGE: swizzle-bench [--filter NAME] [--quick]

    Counts instructions per operation with valgrind's callgrind: each case runs twice under
    callgrind with two iteration counts, and the difference is divided by the difference in
    iterations, so that setup and process start-up cancel out.

    OPTIONS:
      --filter NAME   Run only the cases whose name contains NAME.
      --quick         Run each case once without callgrind (a smoke test; prints no counts).
      -h, --help      Show this help.
    """)
  exit(0)
}

var filter: String?
if let index = arguments.firstIndex(of: "--filter"), index + 1 < arguments.count {
  filter = arguments[index + 1]
}
let selected = Cases.all.filter { filter == nil || $0.name.contains(filter!) }

if arguments.contains("--quick") {
  for bench in selected {
    if let direct = bench.direct {
      print("\(bench.name): \(String(format: "%.1f", direct())) \(bench.unit)")
    } else {
      print("\(bench.name): checksum \(bench.body(bench.iterations.small + 1))")
    }
  }
  exit(0)
}

guard let valgrind = Callgrind.valgrindPath() else {
  print(
    "swizzle-bench: valgrind was not found; install it (apt-get install -y valgrind) or use --quick"
  )
  exit(1)
}
print("SwizzleKit runtime and hooks, instructions per operation (callgrind, release build)")
print("")
// Direct measurements (memory) each run in a fresh process, on a heap nothing has churned.
var directFigures: [String: Double] = [:]
for bench in selected where bench.direct != nil {
  // Times are noisy here: the median of five fresh processes. Memory is measured once.
  let runs = ["ms", "us", "us/frame"].contains(bench.unit) ? 5 : 1
  let figures = (0..<runs).compactMap { _ in Callgrind.measureInFreshProcess(bench.name) }.sorted()
  directFigures[bench.name] = figures.isEmpty ? nil : figures[figures.count / 2]
}
var figures: [String: Double] = [:]
let rows = selected.map { bench -> [String] in
  let measured =
    directFigures[bench.name] ?? Callgrind.instructionsPerOperation(bench, valgrind: valgrind)
  figures[bench.name] = measured
  var limit = bench.limit
  if let base = bench.relativeTo {
    // A target relative to another case is judged against that case measured in this run, even
    // when the filter left it out of the table.
    let baseline =
      figures[base]
      ?? Cases.all.first { $0.name == base }
      .flatMap { Callgrind.instructionsPerOperation($0, valgrind: valgrind) }
    figures[base] = baseline
    limit = baseline.map {
      bench.relativeFactor ? $0 * (bench.limit ?? 1) : $0 + (bench.limit ?? 0)
    }
  }
  let figure = measured.map { String(format: "%.1f", $0) } ?? "failed"
  let verdict: String
  switch (measured, limit) {
  case (let value?, let limit?): verdict = value <= limit ? "met" : "MISSED"
  case (nil, _): verdict = "failed"
  default: verdict = "-"
  }
  // The GNU Objective-C runtime, measured the same way in the same run, where it has the case.
  let peer = GNUPeer.figure(bench, valgrind: valgrind)
  let peerText = peer.map { String(format: "%.1f", $0) } ?? "-"
  let ratio =
    zip2(measured, peer).map { ours, gnu in
      ours / gnu < 0.1 ? String(format: "1/%.0f", gnu / ours) : String(format: "%.2fx", ours / gnu)
    } ?? "-"
  return [bench.name, bench.target, "\(figure) \(bench.unit)", peerText, ratio, verdict]
}
Callgrind.cleanUp()
GNUPeer.cleanUp()
Table.print(
  header: ["case", "target", "measured", "GNU libobjc", "ours / GNU", "target met"], rows: rows)
if GNUPeer.executable == nil {
  print("\n(the GNU libobjc column needs gcc's Objective-C: apt-get install -y gobjc)")
}

/// Both values, or nil.
func zip2(_ first: Double?, _ second: Double?) -> (Double, Double)? {
  guard let first, let second, second > 0 else { return nil }
  return (first, second)
}
