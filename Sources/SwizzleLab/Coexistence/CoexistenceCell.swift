// One cell of the coexistence matrix, run in this process: two techniques installed on one
// method, the method called, then each technique reverted and the method called again. What it
// prints is what the matrix reads from each child process: one line per step, the runtime's events
// under it, indented.
import Foundation
import Hooks
import ObjCRuntime

/// The methods the matrix can pair techniques on: setters of a class the lab makes, so that
/// key-value observing has a key to watch.
enum CoexistenceMethod: String, CaseIterable, Sendable {
  /// `-[Label setTag:]`, an integer.
  case setTag = "setTag:"
  /// `-[Label setText:]`, an object.
  case setText = "setText:"

  var selector: Selector { Selector(rawValue) }
  var types: String { self == .setTag ? "v@:q" : "v@:@" }
  var getter: Selector { self == .setTag ? "tag" : "text" }
  var getterTypes: String { self == .setTag ? "q@:" : "@@:" }
}

/// One cell: which techniques, where, and in which order they are reverted.
struct CoexistenceCell: Hashable, Sendable {
  /// The technique installed first.
  let first: String
  /// The technique installed second.
  let second: String
  /// Whether the first goes on a class and the second on its subclass (else both on one class).
  let subclass: Bool
  /// Whether the second technique is reverted first (else the first is).
  let revertsSecondFirst: Bool

  /// The labels the two layers record: the technique's names, or `Base.` and `Sub.` before them
  /// on a class and its subclass.
  var labels: (first: String, second: String) {
    subclass ? ("Base.\(first)", "Sub.\(second)") : (first, second)
  }

  /// The command line that runs this cell (after `swizzle-lab`).
  func arguments(method: CoexistenceMethod) -> [String] {
    ["coexist", method.rawValue, "--cell", "\(first),\(second)"]
      + (subclass ? ["--subclass"] : []) + (revertsSecondFirst ? ["--revert", "second"] : [])
  }
}

/// Runs cells in this process.
enum CoexistenceRunner {
  /// Runs `cell` on `method`, writing each step as it ends (so that a crash loses nothing that
  /// ran before it).
  ///
  /// The classes are `Label`, or `Base` and `Sub`, with `prefix` before their names: a process
  /// runs one cell under each prefix (tests run several with different ones).
  static func run(
    _ cell: CoexistenceCell, method: CoexistenceMethod, prefix: String = "",
    write: (String) -> Void
  ) throws {
    guard let first = Technique.named(cell.first), let second = Technique.named(cell.second)
    else { throw TechniqueRefusal(description: "no technique \(cell.first) or \(cell.second)") }
    let log = LessonLog(showsFlushes: false)
    Tracing.install(log, tracingSends: [])
    defer { Tracing.remove(log) }
    var seen = 0
    func step(_ line: String) {
      let entries = log.recorded
      write(line)
      for case .event(let verb, let detail) in entries.dropFirst(seen) {
        write("  \(verb) \(detail)")
      }
      seen = entries.count
    }

    let (base, sub) = try makeClasses(method, subclass: cell.subclass, prefix: prefix)
    step(
      "setup: "
        + (sub.map { "\($0.name) inherits -[\(base.name) \(method.rawValue)]" }
          ?? "-[\(base.name) \(method.rawValue)]"))
    let object = new(sub ?? base)
    let baseObject = sub == nil ? nil : new(base)
    _ = LayerLog.take()

    var installs: [(Technique, String, TechniqueInstall)] = []
    for (technique, label, cls) in [
      (first, cell.labels.first, base), (second, cell.labels.second, sub ?? base),
    ] {
      let site = CoexistenceSite(
        cls: cls, object: object, selector: method.selector, types: method.types, label: label)
      do {
        installs.append((technique, label, try technique.install(site)))
        step("install \(label): ok")
      } catch {
        step("install \(label): refused: \(error)")
      }
    }
    func call() {
      step("call: \(record(object, method))")
      if let baseObject { step("call base: \(record(baseObject, method))") }
    }
    call()
    let order = cell.revertsSecondFirst ? installs.reversed() : installs
    for (technique, label, install) in order {
      guard let revert = install.revert else {
        step("revert \(label): none (\(technique.noRevert ?? "no way back"))")
        call()
        continue
      }
      do {
        try revert()
        step("revert \(label): ok")
      } catch {
        step("revert \(label): error: \(error)")
      }
      call()
    }
  }

  /// Calls the method on `object` (with 7, or a new object) and renders what ran: the layers in
  /// order, each with the `_cmd` it received in brackets when that was not the method's selector.
  static func record(_ object: ObjCObject, _ method: CoexistenceMethod) -> String {
    var error: String?
    do {
      switch method {
      case .setTag: try objc_msgSend(object, method.selector, 7) as Void
      case .setText: try objc_msgSend(object, method.selector, ObjCObject() as ObjCObject?) as Void
      }
    } catch let thrown {
      error = "\(thrown)"
    }
    let entries = LayerLog.take()
    var parts = entries.map { entry -> String in
      guard let cmd = entry.cmd, cmd != method.selector else { return entry.layer }
      return "\(entry.layer)[\(cmd)]"
    }
    if entries.count >= LayerLog.limit {
      // A loop repeats itself: its first turns say which layers go round.
      parts = Array(parts.prefix(6)) + ["…", "(loop)"]
    }
    if parts.isEmpty { parts.append("(nothing ran)") }
    if let error { parts.append("! \(error)") }
    return parts.joined(separator: " > ")
  }

  /// `Label`, or `Base` and `Sub` (which inherits the method), with the setter and its getter.
  private static func makeClasses(_ method: CoexistenceMethod, subclass: Bool, prefix: String)
    throws -> (Class, Class?)
  {
    let root = ObjCObject.runtimeClass
    guard let base = objc_allocateClassPair(root, prefix + (subclass ? "Base" : "Label"), 0) else {
      throw TechniqueRefusal(description: "the cell's class exists: run one cell per process")
    }
    let value: Selector = "coexistValue"
    let setter = try LayerLog.layer(types: method.types) { call in
      guard LayerLog.enter("original", call.selector) else { return }
      let stored: Any? =
        method == .setTag
        ? call.argument(at: 2, as: Int.self) : call.argument(at: 2, as: ObjCObject?.self) ?? nil
      objc_setAssociatedObject(call.receiver, value, stored, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    }
    let getter = try LayerLog.layer(types: method.getterTypes) { call in
      let stored = objc_getAssociatedObject(call.receiver, value)
      if method == .setTag {
        _ = call.setReturnValue(stored as? Int ?? 0)
      } else {
        _ = call.setReturnValue(stored as? ObjCObject)
      }
    }
    class_addMethod(base, method.selector, setter, method.types)
    class_addMethod(base, method.getter, getter, method.getterTypes)
    objc_registerClassPair(base)
    guard subclass else { return (base, nil) }
    guard let sub = objc_allocateClassPair(base, prefix + "Sub", 0) else {
      throw TechniqueRefusal(description: "the cell's class exists: run one cell per process")
    }
    objc_registerClassPair(sub)
    return (base, sub)
  }

  /// A new object of class `cls`.
  private static func new(_ cls: Class) -> ObjCObject {
    let object = ObjCObject()
    object_setClass(object, cls)
    return object
  }
}
