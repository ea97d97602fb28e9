// The matrix of `coexist`: every ordered pair of techniques on one class, and every pair of
// class-wide techniques on a class and its subclass, each cell run twice (reverted in either
// order) in child processes, read into verdicts, and printed as two tables and the cells' steps.
import Foundation
import ObjCRuntime

struct Matrix {
  let method: CoexistenceMethod
  let techniques: [Technique]
  /// The class-wide techniques: the ones the class-and-subclass table pairs.
  let classWide: [Technique]
  /// Every run, by cell.
  let runs: [CoexistenceCell: CellRun]

  init(method: CoexistenceMethod, techniques: [Technique], executable: String) {
    self.method = method
    self.techniques = techniques
    classWide = techniques.filter { !$0.isPerObject }
    var cells: [CoexistenceCell] = []
    for subclass in [false, true] {
      let chosen = subclass ? classWide : techniques
      for first in chosen {
        for second in chosen where subclass || first.name != second.name {
          for reverse in [false, true] {
            cells.append(
              CoexistenceCell(
                first: first.name, second: second.name, subclass: subclass,
                revertsSecondFirst: reverse))
          }
        }
      }
    }
    let results = RuntimeLock<[CoexistenceCell: CellRun]>([:])
    let list = cells
    DispatchQueue.concurrentPerform(iterations: list.count) { index in
      let run = Matrix.runChild(list[index], method: method, executable: executable)
      results.withLock { $0[list[index]] = run }
    }
    runs = results.withLock { $0 }
  }

  /// How long a cell may run before the lab stops it (a cell takes a few milliseconds).
  static let cellPatience: Double = 30

  /// Runs `cell` in a child process of the lab.
  static func runChild(_ cell: CoexistenceCell, method: CoexistenceMethod, executable: String)
    -> CellRun
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = cell.arguments(method: method)
    var environment = ProcessInfo.processInfo.environment
    environment["SWIZZLEKIT_QUIET"] = "1"
    // A crash is an expected result here: no half-second backtrace per crashing cell.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    // Standard error goes to a file, so that a child that writes much there never blocks on a
    // pipe nobody reads while the lab reads its standard output.
    let errorFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("swizzle-lab-coexist-\(getpid())-\(UUID().uuidString).err")
    guard FileManager.default.createFile(atPath: errorFile.path, contents: nil),
      let errors = try? FileHandle(forWritingTo: errorFile)
    else {
      return CellRun(cell: cell, lines: [], crash: "could not write \(errorFile.path)")
    }
    defer {
      try? errors.close()
      try? FileManager.default.removeItem(at: errorFile)
    }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = errors
    do {
      try process.run()
    } catch {
      return CellRun(cell: cell, lines: [], crash: "could not start \(executable): \(error)")
    }
    // A cell that hangs is stopped, and is a cell's result like a crash.
    let timedOut = RuntimeLock(false)
    let watchdog = DispatchWorkItem {
      guard process.isRunning else { return }
      timedOut.withLock { $0 = true }
      process.terminate()
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + cellPatience, execute: watchdog)
    let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    watchdog.cancel()
    let complaints = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    var run = CellRun(
      cell: cell, lines: printed.split(separator: "\n").map(String.init), crash: nil)
    if timedOut.withLock({ $0 }) {
      run.crash = "timeout: stopped after \(Int(cellPatience)) seconds"
    } else if process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
      let fatal = complaints.split(separator: "\n").last { $0.contains("Fatal error: ") }
      // The message's first sentence: what went wrong, not the advice after it.
      let message = fatal.map { line in
        let text = line[line.range(of: "Fatal error: ")!.upperBound...]
        let end = text.range(of: ". ")?.lowerBound ?? text.endIndex
        let sentence = String(text[..<end])
        return sentence.hasSuffix(".") ? sentence : sentence + "."
      }
      // Swift traps with SIGILL on x86-64 and SIGTRAP on arm64: both are a trap.
      let signal = process.terminationStatus
      let how =
        process.terminationReason != .uncaughtSignal
        ? "exit \(signal)" : signal == SIGILL || signal == SIGTRAP ? "trap" : "signal \(signal)"
      run.crash = message.map { "\($0) (\(how))" } ?? how
    }
    return run
  }

  /// One ordered pair the matrix ran: its techniques, where, its two runs and its verdicts.
  struct Pair {
    let first: Technique
    let second: Technique
    let subclass: Bool
    let runs: [CellRun]
    let verdict: PairVerdict
  }

  /// Every pair that ran, in the tables' order: one class, then a class and its subclass.
  var pairs: [Pair] {
    [false, true].flatMap { subclass in
      let chosen = subclass ? classWide : techniques
      return chosen.flatMap { first in
        chosen.compactMap { second -> Pair? in
          guard subclass || first.name != second.name else { return nil }
          let runs = pair(first, second, subclass: subclass)
          guard runs.count == 2 else { return nil }
          return Pair(
            first: first, second: second, subclass: subclass, runs: runs,
            verdict: PairVerdict(runs))
        }
      }
    }
  }

  /// The two runs of a pair, reverted first-first then second-first.
  func pair(_ first: Technique, _ second: Technique, subclass: Bool) -> [CellRun] {
    [false, true].compactMap { reverse in
      runs[
        CoexistenceCell(
          first: first.name, second: second.name, subclass: subclass,
          revertsSecondFirst: reverse)]
    }
  }

  // MARK: Text

  func text() -> String {
    var lines = [
      "Coexistence of swizzling techniques on -[Label \(method.rawValue)]",
      "",
    ]
    lines += Lab.wrap(
      "Each cell installs the row's technique, then the column's, on one method, calls it, and "
        + "then reverts each, in both orders, in a child process of its own (swizzle-lab "
        + "coexist \(method.rawValue) --cell ROW,COLUMN runs one here).", width: 79)
    lines += ["", "TECHNIQUES"]
    for (index, technique) in techniques.enumerated() {
      lines.append(
        "  \(index + 1) " + technique.name.padding(toLength: 12, withPad: " ", startingAt: 0)
          + technique.summary)
    }
    lines += [""]
    lines += table(
      "ONE CLASS: the call with both installed (row first, column second)", techniques,
      subclass: false, \.call)
    lines += table("ONE CLASS: the reverts, in both orders", techniques, subclass: false, \.revert)
    lines += table(
      "CLASS AND SUBCLASS: the call (row on Base, column on Sub; a Sub and a Base called)",
      classWide, subclass: true, \.call)
    lines += table(
      "CLASS AND SUBCLASS: the reverts, in both orders", classWide, subclass: true, \.revert)
    lines += Lab.wrap(
      "Call: both = each layer and the original ran once, each with the method's _cmd; "
        + "_cmd = a layer or the original was called under another selector (shown in "
        + "brackets below); leak = a layer ran for an object it was not installed for (the "
        + "subclass's, on a Base); twice = one ran twice; lost = a layer or the original did not run; "
        + "error = the send threw; loop = the call went round until the lab stopped it at "
        + "\(LayerLog.limit) layers; crash = the process died; refused = the second install "
        + "was refused.", width: 79)
    lines.append("")
    lines += Lab.wrap(
      "Reverts: ok = each revert took out its own layer and left the rest as it ran before; "
        + "undoes = a revert took out the other layer too; stays = a reverted layer still runs; "
        + "lost = the original stopped running; error, loop, crash as above. (lookup is "
        + "never reverted: RSSwizzle offers no unswizzle.)", width: 79)
    lines.append("")
    lines.append("THE CELLS THAT ARE NOT both AND ok")
    for pair in pairs where !pair.verdict.isClean {
      let (first, second, runs, verdict) = (pair.first, pair.second, pair.runs, pair.verdict)
      lines.append("")
      let place =
        pair.subclass
        ? "Base.\(first.name), Sub.\(second.name)" : "\(first.name), then \(second.name)"
      lines.append("\(place): call \(verdict.call), reverts \(verdict.revert)")
      lines += runs[0].steps.filter { !$0.hasPrefix("setup") }.map { "  " + $0 }
      if let start = runs[1].steps.firstIndex(where: { $0.hasPrefix("revert ") }) {
        lines.append("  reverted the other way:")
        lines += runs[1].steps[start...].map { "  " + $0 }
      } else if let crash = runs[1].crash, runs[0].crash == nil {
        lines.append("  reverted the other way: crash: \(crash)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// One table: a row per first technique, a column per second, each cell a verdict.
  private func table(
    _ title: String, _ chosen: [Technique], subclass: Bool, _ verdict: KeyPath<PairVerdict, String>
  ) -> [String] {
    var lines = [title]
    let indexes = Dictionary(
      uniqueKeysWithValues: techniques.enumerated().map { ($1.name, $0 + 1) })
    let head = chosen.map {
      "\(indexes[$0.name]!)".padding(toLength: 8, withPad: " ", startingAt: 0)
    }
    lines.append(String(repeating: " ", count: 17) + head.joined().trimmingTrailingSpaces())
    for first in chosen {
      var row =
        "  \(indexes[first.name]!) "
        + first.name.padding(
          toLength: 12, withPad: " ", startingAt: 0)
      for second in chosen {
        let runs = pair(first, second, subclass: subclass)
        let cell = runs.count == 2 ? PairVerdict(runs)[keyPath: verdict] : "."
        row += cell.padding(toLength: 8, withPad: " ", startingAt: 0)
      }
      lines.append(row.trimmingTrailingSpaces())
    }
    lines.append("")
    return lines
  }

  // MARK: Page

  func page() -> String {
    let escape = RenderCommand.escape
    func grid(_ title: String, _ chosen: [Technique], subclass: Bool) -> String {
      var rows = "<tr><th></th>" + chosen.map { "<th>\(escape($0.name))</th>" }.joined() + "</tr>"
      for first in chosen {
        rows += "<tr><th>\(escape(first.name))</th>"
        for second in chosen {
          let runs = pair(first, second, subclass: subclass)
          guard runs.count == 2 else {
            rows += "<td></td>"
            continue
          }
          let verdict = PairVerdict(runs)
          let kind =
            verdict.isClean
            ? "clean" : [verdict.call, verdict.revert].contains("crash") ? "crash" : "issue"
          rows +=
            "<td class=\"\(kind)\"><a href=\"#\(anchor(first, second, subclass))\">"
            + "\(escape(verdict.call))<br>\(escape(verdict.revert))</a></td>"
        }
        rows += "</tr>\n"
      }
      return "<h2>\(escape(title))</h2>\n<table>\n\(rows)</table>"
    }
    var sections = ""
    for pair in pairs {
      let (first, second, runs, verdict) = (pair.first, pair.second, pair.runs, pair.verdict)
      let place =
        pair.subclass
        ? "\(first.name) on Base, \(second.name) on Sub" : "\(first.name), then \(second.name)"
      sections +=
        "<section id=\"\(anchor(first, second, pair.subclass))\"><h3>\(escape(place)): "
        + "call \(escape(verdict.call)), reverts \(escape(verdict.revert))</h3>\n"
      for run in runs {
        let order = run.cell.revertsSecondFirst ? "second reverted first" : "first reverted first"
        var text = run.lines
        if let crash = run.crash { text.append("crash: \(crash)") }
        sections +=
          "<p>\(escape(order)): <code>swizzle-lab coexist "
          + "\(escape(run.cell.arguments(method: method).dropFirst().joined(separator: " ")))"
          + "</code></p>\n<pre>\(text.map(escape).joined(separator: "\n"))</pre>\n"
      }
      sections += "</section>\n"
    }
    let legend = techniques.map {
      "<li><b>\(escape($0.name))</b>: \(escape($0.summary))</li>"
    }.joined(separator: "\n")
    return """
      <!doctype html>
      <html><head><meta charset="utf-8"><title>Coexistence on -[Label \(escape(method.rawValue))]</title><style>
      body { font-family: sans-serif; max-width: 70em; margin: 2em auto; line-height: 1.4; }
      table { border-collapse: collapse; }
      th, td { border: 1px solid #ccc; padding: 0.3em 0.5em; text-align: center; }
      td a { color: inherit; text-decoration: none; font-family: monospace; }
      td.clean { background: #e6f4e6; } td.issue { background: #fff3d6; }
      td.crash { background: #f8d7d7; }
      pre { background: #f4f4f4; padding: 0.8em; overflow-x: auto; }
      </style></head><body>
      <h1>Coexistence of swizzling techniques on <code>-[Label \(escape(method.rawValue))]</code></h1>
      <p>Each cell: the row's technique installed first, the column's second; the call with both
      installed, then the reverts in both orders (each cell links to its steps and the runtime's
      events). Made by <code>swizzle-lab coexist --html</code>.</p>
      <ul>\(legend)</ul>
      \(grid("One class: call / reverts", techniques, subclass: false))
      \(grid("A class and its subclass (row on Base, column on Sub)", classWide, subclass: true))
      <h2>The cells</h2>
      \(sections)
      </body></html>

      """
  }

  private func anchor(_ first: Technique, _ second: Technique, _ subclass: Bool) -> String {
    "\(subclass ? "sub" : "one")-\(first.name)-\(second.name)"
  }
}

extension String {
  /// The string without the spaces at its end.
  fileprivate func trimmingTrailingSpaces() -> String {
    String(reversed().drop { $0 == " " }.reversed())
  }
}
