// `coexist`: every swizzling technique against every other on one method, in both orders, each
// cell in a child process of its own (so that a crash is a cell, not the end of the run); the
// table of what ran, what `_cmd` each layer got, and what the reverts left.
import Foundation
import ObjCRuntime

/// What one child process printed, and how it ended.
struct CellRun: Sendable {
  /// The cell.
  let cell: CoexistenceCell
  /// Its lines: steps, and the runtime's events (indented) under them.
  var lines: [String]
  /// How it died, when it did not end normally.
  var crash: String?

  /// The step lines (not the events), with the crash as a last step.
  var steps: [String] {
    lines.filter { !$0.hasPrefix(" ") } + (crash.map { ["crash: \($0)"] } ?? [])
  }
}

/// The verdicts of one ordered pair, from its two runs (reverted in either order).
struct PairVerdict: Sendable {
  /// What the call with both installed showed: `both`, `_cmd`, `leak`, `twice`, `lost`,
  /// `error`, `loop`, `crash` or `refused`.
  let call: String
  /// What the reverts showed: `ok`, `undoes`, `stays`, `lost`, `loop`, `error` or `crash`;
  /// `-` when nothing was installed to revert.
  let revert: String

  var isClean: Bool { call == "both" && revert == "ok" }

  /// Reads the two runs of a pair.
  init(_ runs: [CellRun]) {
    let first = runs[0]
    let labels = [first.cell.labels.first, first.cell.labels.second]
    let steps = first.steps
    if steps.contains(where: { $0.hasPrefix("install ") && $0.contains(": refused") }) {
      call = "refused"
    } else if let index = steps.firstIndex(where: { $0.hasPrefix("call") }) {
      let calls = steps[index...].prefix { $0.hasPrefix("call") || $0.hasPrefix("crash") }
      call =
        calls.map { line in
          if line.hasPrefix("crash") { return "crash" }
          let expected = line.hasPrefix("call base") ? [labels[0]] : labels
          return PairVerdict.callVerdict(PairVerdict.record(line), expected: expected)
        }.max { PairVerdict.callRank($0) < PairVerdict.callRank($1) } ?? "crash"
    } else {
      call = "crash"
    }
    let reverts = runs.map(PairVerdict.revertVerdict)
    revert = reverts.max { PairVerdict.revertRank($0) < PairVerdict.revertRank($1) } ?? "-"
  }

  /// The layer names of a call line, in order, `(loop)` and `! …` kept.
  static func record(_ line: String) -> [String] {
    guard let colon = line.range(of: ": ") else { return [] }
    return line[colon.upperBound...].components(separatedBy: " > ")
  }

  static func name(_ token: String) -> String {
    String(token.prefix { $0 != "[" })
  }

  static func callVerdict(_ tokens: [String], expected: [String]) -> String {
    if tokens.contains("(loop)") { return "loop" }
    if tokens.contains(where: { $0.hasPrefix("!") }) { return "error" }
    let names = tokens.map(name)
    for label in expected + ["original"] {
      let count = names.filter { $0 == label }.count
      if count == 0 { return "lost" }
      if count > 1 { return "twice" }
    }
    if names.contains(where: { !expected.contains($0) && $0 != "original" }) { return "leak" }
    return tokens.contains { $0.contains("[") } ? "_cmd" : "both"
  }

  static func callRank(_ verdict: String) -> Int {
    ["both", "_cmd", "leak", "twice", "lost", "error", "loop", "crash", "refused"].firstIndex(
      of: verdict)
      ?? 0
  }

  static func revertRank(_ verdict: String) -> Int {
    ["-", "ok", "error", "lost", "stays", "undoes", "loop", "crash"].firstIndex(of: verdict) ?? 0
  }

  /// What the reverts of one run did, judged against the call before each: a layer that ran
  /// before a revert of another and not after was undone; a reverted layer that still runs
  /// stays; an original that stopped running is lost.
  static func revertVerdict(_ run: CellRun) -> String {
    let steps = run.steps
    guard !steps.contains(where: { $0.hasPrefix("install ") && $0.contains(": refused") }),
      let start = steps.firstIndex(where: { $0.hasPrefix("revert ") })
    else { return steps.contains { $0.hasPrefix("crash") } ? "crash" : "-" }
    var worst = "ok"
    func note(_ verdict: String) {
      if revertRank(verdict) > revertRank(worst) { worst = verdict }
    }
    var before: [String: [String]] = [:]
    for line in steps[..<start] where line.hasPrefix("call") {
      before[String(line.prefix { $0 != ":" })] = record(line).map(name)
    }
    var reverted: Set<String> = []
    for line in steps[start...] {
      if line.hasPrefix("crash") {
        note("crash")
      } else if line.hasPrefix("revert ") {
        let label = String(line.dropFirst("revert ".count).prefix { $0 != ":" })
        if line.contains(": ok") { reverted.insert(label) }
        if line.contains(": error") { note("error") }
      } else if line.hasPrefix("call") {
        let which = String(line.prefix { $0 != ":" })
        let tokens = record(line)
        let names = tokens.map(name)
        if tokens.contains("(loop)") { note("loop") }
        for layer in before[which] ?? [] where !names.contains(layer) {
          note(reverted.contains(layer) ? "ok" : layer == "original" ? "lost" : "undoes")
        }
        if names.contains(where: reverted.contains) { note("stays") }
        before[which] = names
      }
    }
    return worst
  }
}

enum CoexistCommand {
  /// The options of `coexist`.
  struct Options {
    var method = CoexistenceMethod.setTag
    var techniques = Technique.all
    var html: String?
    var cell: (first: String, second: String)?
    var subclass = false
    var revertsSecondFirst = false
  }

  static func run(_ arguments: [String], output: LabOutput, environment: [String: String])
    throws(LabError) -> LabExit
  {
    let options = try parse(arguments)
    if let (first, second) = options.cell {
      let cell = CoexistenceCell(
        first: first, second: second, subclass: options.subclass,
        revertsSecondFirst: options.revertsSecondFirst)
      do {
        try CoexistenceRunner.run(cell, method: options.method) { output.out($0 + "\n") }
      } catch {
        throw .failure("\(error)")
      }
      return .ok
    }
    guard let executable = labExecutable(environment) else {
      throw .failure(
        "coexist runs each cell in a child process of swizzle-lab: run it from the "
          + "swizzle-lab executable, or name it in SWIZZLEKIT_LAB_EXECUTABLE")
    }
    let matrix = Matrix(
      method: options.method, techniques: options.techniques, executable: executable)
    output.out(matrix.text())
    if let html = options.html {
      do {
        try matrix.page().write(
          to: URL(fileURLWithPath: html), atomically: true, encoding: .utf8)
      } catch {
        throw .failure("could not write \(html): \(error)")
      }
      output.out("wrote \(html)\n")
    }
    return .ok
  }

  /// The lab's executable, for the child processes: `SWIZZLEKIT_LAB_EXECUTABLE`, or this
  /// process's own when it is swizzle-lab (not a test runner that called the lab in-process).
  static func labExecutable(_ environment: [String: String]) -> String? {
    if let named = environment["SWIZZLEKIT_LAB_EXECUTABLE"], !named.isEmpty { return named }
    let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return own.lastPathComponent == "swizzle-lab" ? own.path : nil
  }

  static func parse(_ arguments: [String]) throws(LabError) -> Options {
    var options = Options()
    var rest = arguments
    if let word = rest.first, !word.hasPrefix("-") {
      rest.removeFirst()
      guard let method = CoexistenceMethod(rawValue: word) else {
        throw .usage(
          "no method '\(word)'; methods: "
            + CoexistenceMethod.allCases.map(\.rawValue).joined(separator: ", "),
          topic: "coexist")
      }
      options.method = method
    }
    func value(_ flag: String) throws(LabError) -> String {
      guard !rest.isEmpty, !rest[0].hasPrefix("-"),
        !rest[0].trimmingCharacters(in: .whitespaces).isEmpty
      else { throw .usage("\(flag) takes a value", topic: "coexist") }
      return rest.removeFirst()
    }
    func techniques(_ list: String) throws(LabError) -> [String] {
      let names = list.split(separator: ",").map(String.init)
      for name in names where Technique.named(name) == nil {
        throw .usage(
          "no technique '\(name)'; techniques: "
            + Technique.all.map(\.name).joined(separator: ", "), topic: "coexist")
      }
      return names
    }
    var chosen: [String] = []
    var revertGiven = false
    while !rest.isEmpty {
      let flag = rest.removeFirst()
      switch flag {
      case "--technique": chosen += try techniques(try value(flag))
      case "--html": options.html = try value(flag)
      case "--cell":
        let pair = try techniques(try value(flag))
        guard pair.count == 2 else {
          throw .usage("--cell takes two techniques, FIRST,SECOND", topic: "coexist")
        }
        options.cell = (pair[0], pair[1])
      case "--subclass": options.subclass = true
      case "--revert":
        revertGiven = true
        switch try value(flag) {
        case "first": options.revertsSecondFirst = false
        case "second": options.revertsSecondFirst = true
        default: throw .usage("--revert takes first or second", topic: "coexist")
        }
      default:
        throw .usage("unknown option '\(flag)'", topic: "coexist")
      }
    }
    if !chosen.isEmpty {
      guard Set(chosen).count >= 2 else {
        throw .usage("--technique names at least two techniques to pair", topic: "coexist")
      }
      options.techniques = Technique.all.filter { chosen.contains($0.name) }
    }
    if options.cell == nil, options.subclass || revertGiven {
      throw .usage("--subclass and --revert go with --cell", topic: "coexist")
    }
    if let cell = options.cell, options.html != nil || !chosen.isEmpty {
      throw .usage(
        "--cell \(cell.first),\(cell.second) runs one cell; --html and --technique are for "
          + "the matrix", topic: "coexist")
    }
    if let cell = options.cell, !options.subclass, cell.first == cell.second {
      throw .usage(
        "--cell pairs two techniques on one class; \(cell.first) with itself needs --subclass "
          + "(one on Base, one on Sub)", topic: "coexist")
    }
    if let cell = options.cell, options.subclass,
      [cell.first, cell.second].contains(where: { Technique.named($0)?.isPerObject == true })
    {
      throw .usage(
        "--subclass puts techniques on a class and its subclass: \(cell.first) and "
          + "\(cell.second) must both be class-wide", topic: "coexist")
    }
    return options
  }
}
