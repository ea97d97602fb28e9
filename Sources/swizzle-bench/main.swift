// swizzle-bench: SwizzleKit's performance suite, beside GCC's Objective-C runtime.
import Foundation
import ObjCRuntime

let arguments = Array(CommandLine.arguments.dropFirst())

// A fresh process the parent started to measure one case.
if Measure.runChildMode(arguments) { exit(0) }

guard let options = Options.parse(arguments) else { exit(64) }
if options.scaling && options.hookLibraries {
  FileHandle.standardError.write(
    Data("swizzle-bench: --scaling and --hook-libraries select different cases; pick one\n".utf8))
  exit(64)
}
let scalingNames = Set(ScalingFamily.all.flatMap { $0.points.map(\.name) })
let libraryNames = Set(HookLibraryCases.all.map(\.name))
let selected = Cases.all.filter { bench in
  (options.filter.map(bench.name.contains) ?? true)
    && (!options.scaling || scalingNames.contains(bench.name))
    && (!options.hookLibraries || libraryNames.contains(bench.name))
}
if selected.isEmpty {
  let names = Cases.all.map { "  \($0.name)\n" }.joined()
  let message = "swizzle-bench: no case matches '\(options.filter ?? "")'; the cases are:\n\(names)"
  FileHandle.standardError.write(Data(message.utf8))
  exit(64)
}

if options.mode == .quick {
  for bench in selected {
    if let direct = bench.direct {
      print("\(bench.name): \(String(format: "%.1f", direct())) \(bench.unit)")
    } else {
      print("\(bench.name): checksum \(bench.body(bench.iterations.small + 1))")
    }
  }
  exit(0)
}

/// Our figure for `bench` in this run's mode.
@MainActor
func measure(_ bench: BenchCase) -> Figure? {
  if bench.isDirect { return Measure.direct(bench, runs: options.runs) }
  switch options.mode {
  case .callgrind: return Measure.callgrind(bench, annotate: options.annotate)
  case .clock, .quick: return Measure.clock(bench, runs: options.runs)
  }
}

var figures: [String: Figure] = [:]

/// The figure of another case this run's relative targets refer to, measured if the filter left
/// it out: ratios are taken within one run.
@MainActor
func baseline(_ name: String) -> Figure? {
  if let figure = figures[name] { return figure }
  let figure = Cases.all.first { $0.name == name }.flatMap { measure($0) }
  figures[name] = figure
  return figure
}

/// What a case's target comes to in this run.
enum Judgement {
  /// The limit, in the figure's unit.
  case limit(Double)
  /// Why this run cannot judge it: `-` (no target), `callgrind` (stated in instructions, judged by
  /// `--callgrind`) or `failed` (the case it is relative to failed).
  case unjudged(String)
}

/// The limit this run can judge `bench` by, in its figure's unit.
@MainActor
func judgement(of bench: BenchCase) -> Judgement {
  guard let stated = bench.limit else { return .unjudged("-") }
  // Targets are stated in instructions, ratios included ("15x the send" is 15x its
  // instructions), unless the case measures itself (memory, or a time it takes itself).
  guard bench.isDirect || options.mode == .callgrind else { return .unjudged("callgrind") }
  guard let base = bench.relativeTo else { return .limit(stated) }
  guard let baseline = baseline(base)?.value else { return .unjudged("failed") }
  return .limit(bench.relativeFactor ? baseline * stated : baseline + stated)
}

// The scripts the benchmark runs (callgrind.sh, Peer/build-peer.sh) install what they miss only
// when asked; they read the permission from the environment they inherit.
if options.installPeers { setenv("SWIZZLEKIT_BENCH_INSTALL", "1", 1) }

if options.mode == .callgrind,
  Measure.outputLines(of: "/usr/bin/env", ["which", "valgrind"]) == nil
{
  // Say so once rather than fail every case.
  if options.installPeers {
    _ = Measure.callgrind(selected[0])
  }
  if Measure.outputLines(of: "/usr/bin/env", ["which", "valgrind"]) == nil {
    let message = """
      swizzle-bench: --callgrind needs valgrind, which is missing. Install it with
        apt-get install -y valgrind
      or run again with --install-peers; or measure times: run without --callgrind.

      """
    FileHandle.standardError.write(Data(message.utf8))
    exit(1)
  }
}

// Built before the progress line shows, so that what its script says stays on lines of its own.
if options.mode != .quick { _ = GNUPeer.executable }
var progress = Progress(total: selected.count, enabled: !options.annotate)
var rows: [Row] = []
for bench in selected {
  progress.show(bench.name)
  if options.annotate { print("== \(bench.name)") }
  let ours = measure(bench)
  figures[bench.name] = ours
  let gnu = GNUPeer.figure(bench, options: options)
  var row = Row(name: bench.name, target: bench.target, ours: ours, gnu: gnu, verdict: "-")
  if let ours, let gnu, gnu.value > 0 { row.ratioToGNU = ours.value / gnu.value }
  switch judgement(of: bench) {
  case .limit(let limit):
    row.limit = limit
    row.verdict = ours.map { $0.value <= limit ? "met" : "MISSED" } ?? "failed"
  case .unjudged(let why):
    row.verdict = ours == nil ? "failed" : why
  }
  rows.append(row)
}
progress.finish()
GNUPeer.cleanUp()

// The hook libraries' table takes both figures: the other mode's are measured now.
var libraryRows: [LibraryRow] = []
if options.hookLibraries, options.mode != .quick {
  var clock: [String: Figure] = [:]
  var instructions: [String: Figure] = [:]
  let hasValgrind = Measure.outputLines(of: "/usr/bin/env", ["which", "valgrind"]) != nil
  // The baseline, even when the filter left it out: every ratio needs it.
  var libraryCases = selected
  if !libraryCases.contains(where: { $0.name == HookLibraryCases.unhookedName }),
    let unhooked = Cases.all.first(where: { $0.name == HookLibraryCases.unhookedName })
  {
    libraryCases.append(unhooked)
    figures[unhooked.name] = measure(unhooked)
  }
  for bench in libraryCases {
    switch options.mode {
    case .clock:
      clock[bench.name] = figures[bench.name]
      if hasValgrind { instructions[bench.name] = Measure.callgrind(bench, annotate: false) }
    case .callgrind, .quick:
      instructions[bench.name] = figures[bench.name]
      clock[bench.name] = Measure.clock(bench, runs: options.runs)
    }
  }
  libraryRows = LibraryRow.rows(clock: clock, instructions: instructions)
}

let formatter = DateFormatter()
formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
formatter.timeZone = TimeZone(identifier: "UTC")
let report = Report(
  date: formatter.string(from: Date()), mode: options.mode, runsPerFigure: options.runs,
  machine: .current(), cases: rows,
  libraries: libraryRows,
  scaling: ScalingFamily.all.compactMap { family in
    // Only the families this run set out to measure: a filter can leave out part of one.
    family.points.allSatisfy { point in selected.contains { $0.name == point.name } }
      ? family.row(figures, mode: options.mode) : nil
  })
report.printTable()
if GNUPeer.executable == nil {
  print(
    "(the GNU libobjc column needs gcc's Objective-C: apt-get install -y gobjc,"
      + " or run again with --install-peers)")
}
if let path = options.jsonPath {
  guard report.write(to: path) else { exit(1) }
  print("JSON: \(path)")
}
