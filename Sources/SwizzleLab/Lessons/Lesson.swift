// `learn`: lessons that run. Each lesson is a few lines of narration, the code it runs (shown from
// the source that runs it: `LessonSources.generated.swift` is made from the lesson files by
// Scripts/generate-lesson-sources.py, and CI checks it is current), the runtime's trace of what
// happened, and what the code printed.
import Foundation
import GNUObjC
import Hooks
import ObjCRuntime

/// A lesson: what it teaches, and code that shows it.
struct Lesson: Sendable {
  /// The name `swizzle-lab learn NAME` takes.
  let name: String
  /// One line.
  let title: String
  /// Paragraphs of narration, before the code.
  let narration: [String]
  /// The code the lesson runs, as its source file holds it.
  let code: String
  /// The file the code is in, from the package's root.
  let file: String
  /// The selectors whose sends the trace shows (a traced selector is never cached: a lesson
  /// about caches traces none).
  let traced: Set<Selector>
  /// Whether the trace shows cache flushes. Only the lesson about caches does: whether a
  /// class's cache holds anything when a flush comes depends on what else ran (an object's
  /// `dealloc`, another tracer's install), and the other lessons are about something else.
  var showsFlushes = false
  /// What to remember, after the run.
  let moral: [String]
  /// Runs the code; ``Lessons/say(_:)`` writes a line of the result.
  let body: @Sendable () throws -> Void

  /// Whether the code is an Objective-C file, which gcc compiles when the lesson runs.
  var isObjectiveC: Bool { file.hasSuffix(".m") }
}

/// What a lesson's run wrote, in order: the runtime's events and the code's own lines.
final class LessonLog: RuntimeTracer {
  /// One entry of the run.
  enum Entry: Equatable {
    /// A runtime event, as a verb and a detail (`exchange`, `-[A x] <-> -[B y]`).
    case event(String, String)
    /// A line the code printed.
    case said(String)
  }

  private let entries = RuntimeLock<[Entry]>([])
  private let showsFlushes: Bool
  /// The thread that runs the lesson: a tracer hears every thread, and a lesson that starts
  /// threads says what they did itself.
  private let owner = pthread_self()

  init(showsFlushes: Bool) {
    self.showsFlushes = showsFlushes
  }

  /// Everything recorded so far.
  var recorded: [Entry] { entries.withLock { $0 } }

  /// Writes `line` to the lesson's result.
  func say(_ line: String) {
    entries.withLock { $0.append(.said(line)) }
  }

  func runtime(_ event: RuntimeEvent) {
    guard pthread_equal(pthread_self(), owner) != 0, let entry = LessonLog.entry(for: event)
    else { return }
    if case .cacheFlushed = event, !showsFlushes { return }
    entries.withLock { $0.append(entry) }
  }

  /// The event without what differs from run to run (addresses, source lines), or nil for the
  /// events a lesson does not show (classes realized on first use).
  private static func entry(for event: RuntimeEvent) -> Entry? {
    switch event {
    case .classRealized:
      return nil
    case .methodAdded(let method, _):
      return .event("add", "\(method)")
    case .implementationSet(let method, _, _, _):
      return .event("set", "\(method)")
    case .implementationsExchanged(let first, let second, _):
      return .event("exchange", "\(first) <-> \(second)")
    case .classSet(_, let from, let to, _):
      // ``Lessons/new(_:)`` sets the class of a fresh root object: that is making an object,
      // not isa-swizzling, and the lesson's code says so.
      guard from !== ObjCObject.runtimeClass else { return nil }
      return .event("isa", "an object's class: \(from.name) -> \(to.name)")
    case .classDisposed(let cls, _):
      return .event("dispose", cls.name)
    case .cacheFlushed(let cls, let reason):
      return .event("flush", "\(cls.isMetaClass ? "+" : "")\(cls.name) (\(reason))")
    case .messageSent(_, _, let method?) where method.isSwiftEntry:
      // The root's Swift bridge of a forwarding step, which sends the same message on through
      // the tables: the next event shows that send.
      return nil
    case .messageSent(let cls, let selector, let method):
      let sent = "\(cls.isMetaClass ? "+" : "-")[\(cls.name) \(selector)]"
      guard let method else { return .event("send", "\(sent), no method") }
      let found = "\(method)"
      return .event("send", found == sent ? sent : "\(sent) finds \(found)")
    }
  }
}

/// Every lesson, in the order of `Docs/Swizzling.md`.
enum Lessons {
  static let all: [Lesson] = [
    lookupAndCaches, inheritedMethod, cmdAfterExchange, swizzleTwice, isaSwizzlingAndKVO,
    forwarding, initializeAndLoad, hooksVersusExchange, methodForSelector, classMethods,
    twoCategories, associatedObjects, dangers, cmdChecker, hookNeverFires,
    objcCategorySwizzle, objcCmdAfterExchange, objcAssociatedObjects,
  ]

  /// The lesson named `name`.
  static func named(_ name: String) -> Lesson? {
    all.first { $0.name == name }
  }

  /// The log of the lesson running, which ``say(_:)`` writes to.
  private static let current = RuntimeLock<LessonLog?>(nil)
  /// The classes the running lesson made, disposed of after it, newest first.
  private static let made = RuntimeLock<[Class]>([])

  /// Makes and registers a class named `name`, a subclass of `superclass` (the root class when
  /// nil), for the running lesson; it is disposed of after the lesson, so that the next run
  /// starts from the same classes.
  static func makeClass(_ name: String, superclass: Class? = nil) throws -> Class {
    let superclass = superclass ?? ObjCObject.runtimeClass
    guard let cls = objc_allocateClassPair(superclass, name, 0) else {
      throw ObjCRuntimeError.invalidDeclaration(
        className: name, reason: "a class of this name exists; a lesson makes its own")
    }
    objc_registerClassPair(cls)
    made.withLock { $0.insert(cls, at: 0) }
    return cls
  }

  /// Disposes of `cls` after the running lesson, with the classes the lesson made: a class the
  /// lesson's Objective-C file defined.
  static func disposeAfterRun(_ cls: Class) {
    made.withLock { $0.insert(cls, at: 0) }
  }

  /// A new object of class `cls` (an `ObjCObject` whose isa is set to `cls`).
  static func new(_ cls: Class) -> ObjCObject {
    let object = ObjCObject()
    object_setClass(object, cls)
    return object
  }

  /// Writes `line` to the result of the lesson running (from any thread).
  static func say(_ line: String) {
    current.withLock { $0 }?.say(line)
  }

  /// Runs `lesson` with a tracer installed and returns what it recorded; an error the code
  /// throws ends the run and is said as its last line.
  static func run(_ lesson: Lesson) -> [LessonLog.Entry] {
    let log = LessonLog(showsFlushes: lesson.showsFlushes)
    // The registry records every method change from its creation on, for the hook map a lesson
    // may print: create it before the lesson changes anything.
    _ = PluginRegistry.shared
    // An Objective-C lesson's loader adds NSObject's methods to the root class the first time:
    // before the trace, so that every run shows the same.
    if lesson.isObjectiveC { ObjectiveCModules.start() }
    // The root class is initialized in any program that sent one message: make it so here too,
    // so that a lesson's trace does not depend on what the process did before.
    _ = try? objc_msgSend(ObjCObject(), "hash") as UInt
    current.withLock { $0 = log }
    Tracing.install(log, tracingSends: lesson.traced)
    do {
      try lesson.body()
    } catch {
      log.say("error: \(error)")
    }
    Tracing.remove(log)
    current.withLock { $0 = nil }
    // The objects the body made are gone with it; its classes go now, subclasses first, with
    // the classes the runtime made below them (key-value observing's, the hooks' per-object
    // ones), deepest first.
    let classes = made.withLock { classes in
      defer { classes = [] }
      return classes
    }
    if !classes.isEmpty {
      func depth(_ cls: Class) -> Int {
        var depth = 0
        var current = cls.superclass
        while let next = current {
          depth += 1
          current = next.superclass
        }
        return depth
      }
      func descends(_ cls: Class) -> Bool {
        var current = cls.superclass
        while let next = current {
          if classes.contains(where: { $0 === next }) { return true }
          current = next.superclass
        }
        return false
      }
      let below = objc_copyClassList().filter { cls in
        cls.isRuntimeMade && !classes.contains { $0 === cls } && descends(cls)
      }.sorted { depth($0) > depth($1) }
      for cls in below { objc_disposeClassPair(cls) }
    }
    for cls in classes { objc_disposeClassPair(cls) }
    return log.recorded
  }
}
