// `learn`: lists the lessons, runs one and prints it in 80 columns, or writes it as a page.
import Foundation

extension Lab {
  /// The names of the lessons `swizzle-lab learn` runs, in the order of `Docs/Swizzling.md`.
  public static var lessonNames: [String] { Lessons.all.map(\.name) }
}

enum LearnCommand {
  /// The widest line the lab prints for a lesson.
  static let width = 80

  static func run(name: String?, html: String?, output: LabOutput) throws(LabError) -> LabExit {
    guard let name else {
      if html != nil { throw .usage("--html writes one lesson: name it", topic: "learn") }
      output.out(list())
      return .ok
    }
    guard let lesson = Lessons.named(name) else {
      throw .usage(
        "no lesson '\(name)'; lessons: \(Lessons.all.map(\.name).joined(separator: ", "))",
        topic: "learn")
    }
    let entries = Lessons.run(lesson)
    guard let html else {
      output.out(text(lesson, entries))
      return .ok
    }
    let url = URL(fileURLWithPath: html)
    do {
      try page(lesson, entries).write(to: url, atomically: true, encoding: .utf8)
    } catch {
      throw .failure("could not write \(html): \(error)")
    }
    output.out("wrote \(html)\n")
    return .ok
  }

  /// The lessons, one line each, in the order of `Docs/Swizzling.md`.
  static func list() -> String {
    let names = Lessons.all.map(\.name)
    let column = (names.map(\.count).max() ?? 0) + 2
    var lines = ["Lessons (swizzle-lab learn NAME runs one; Docs/Swizzling.md tells the story):"]
    for lesson in Lessons.all {
      let name = lesson.name.padding(toLength: column, withPad: " ", startingAt: 0)
      lines.append("  \(name)\(lesson.title)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The lesson as the terminal shows it: narration, code, what happened, what to remember.
  static func text(_ lesson: Lesson, _ entries: [LessonLog.Entry]) -> String {
    var lines = ["\(lesson.name): \(lesson.title)", ""]
    for paragraph in lesson.narration {
      lines += Lab.wrap(paragraph, width: width)
      lines.append("")
    }
    lines.append("The code (\(lesson.file)):")
    lines.append("")
    lines += codeLines(lesson).map { $0.isEmpty ? "" : "    " + $0 }
    lines.append("")
    lines.append("What happened (runtime events; > lines are what the code printed):")
    lines.append("")
    lines += entries.flatMap(entryLines)
    lines.append("")
    lines.append("Remember:")
    for paragraph in lesson.moral {
      lines += Lab.wrap(paragraph, width: width - 2).map { "  " + $0 }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The code's lines, without the final newline.
  static func codeLines(_ lesson: Lesson) -> [String] {
    var lines = lesson.code.components(separatedBy: "\n")
    while lines.last == "" { lines.removeLast() }
    return lines
  }

  /// One entry in the terminal: an event's verb in a column, then its detail, wrapped; a line
  /// the code printed after `> `.
  static func entryLines(_ entry: LessonLog.Entry) -> [String] {
    switch entry {
    case .said(let line):
      // The code's own indentation kept, continuation lines two further in.
      let indent = String(line.prefix { $0 == " " })
      let room = width - "  > ".count - indent.count - 2
      return Lab.wrap(String(line.dropFirst(indent.count)), width: room).enumerated().map {
        index, part in "  > " + indent + (index == 0 ? "" : "  ") + part
      }
    case .event(let verb, let detail):
      let head = "  " + verb.padding(toLength: 10, withPad: " ", startingAt: 0)
      return Lab.wrap(detail, width: width - head.count).enumerated().map { index, part in
        (index == 0 ? head : String(repeating: " ", count: head.count + 2)) + part
      }
    }
  }

  /// The lesson as a page: the same sections, the events and the printed lines told apart.
  static func page(_ lesson: Lesson, _ entries: [LessonLog.Entry]) -> String {
    let escape = RenderCommand.escape
    let narration = lesson.narration.map { "<p>\(escape($0))</p>" }.joined(separator: "\n")
    let code = codeLines(lesson).map(escape).joined(separator: "\n")
    let happened = entries.map { entry -> String in
      switch entry {
      case .said(let line):
        return "<li class=\"said\"><code>\(escape(line))</code></li>"
      case .event(let verb, let detail):
        return "<li class=\"event\"><b>\(escape(verb))</b> <code>\(escape(detail))</code></li>"
      }
    }.joined(separator: "\n")
    let moral = lesson.moral.map { "<p>\(escape($0))</p>" }.joined(separator: "\n")
    return """
      <!doctype html>
      <html><head><meta charset="utf-8"><title>\(escape(lesson.title))</title><style>
      body { font-family: sans-serif; max-width: 52em; margin: 2em auto; line-height: 1.45; }
      pre { background: #f4f4f4; padding: 1em; overflow-x: auto; }
      ul.happened { list-style: none; padding-left: 0; font-family: monospace; }
      li.event b { display: inline-block; width: 6em; color: #555; }
      li.said { color: #064; }
      li.said code::before { content: "> "; }
      .moral { border-left: 4px solid #6a6; padding-left: 1em; }
      </style></head><body>
      <h1>\(escape(lesson.title))</h1>
      <p><code>swizzle-lab learn \(escape(lesson.name))</code></p>
      \(narration)
      <h2>The code</h2>
      <p><code>\(escape(lesson.file))</code></p>
      <pre><code>\(code)</code></pre>
      <h2>What happened</h2>
      <ul class="happened">
      \(happened)
      </ul>
      <h2>Remember</h2>
      <div class="moral">\(moral)</div>
      </body></html>

      """
  }
}
