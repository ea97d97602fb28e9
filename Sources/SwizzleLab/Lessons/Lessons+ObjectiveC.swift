// Lessons in Objective-C: the classic snippets as people read them, compiled with gcc and run on
// SwizzleKit's runtime (the GNUObjC module). The code shown is the `.m` file in ObjectiveC/.
import Foundation
import GNUObjC
import ObjCRuntime

extension Lessons {
  static let objcCategorySwizzle = Lesson(
    name: "objc-category-swizzle", title: "The category swizzle in +load, in Objective-C",
    narration: [
      "The swizzle every article shows, as it is written for Apple platforms: a category whose "
        + "+load exchanges a method with its own. +load runs once, as the file is loaded, "
        + "before any message: the runtime calls each class's and each category's +load "
        + "function directly, so a category's does not replace its class's.",
      "The category's method calls itself to reach the original: after the exchange, the "
        + "name logging_greet holds -greet's implementation. This file is compiled by gcc "
        + "for the GNU runtime and loaded on SwizzleKit's (swizzle-lab compile does the same).",
    ],
    code: LessonSources.objcCategorySwizzle,
    file: "Sources/SwizzleLab/Lessons/ObjectiveC/CategorySwizzle.m",
    traced: ["greet", "logging_greet"],
    moral: [
      "Exchange in +load, once, and call the swizzled name to reach the original. The same "
        + "code runs from Swift or from Objective-C: both send through one method table."
    ]
  ) {
    try ObjectiveCLesson.run(LessonSources.objcCategorySwizzle, named: "CategorySwizzle")
  }

  static let objcCmdAfterExchange = Lesson(
    name: "objc-cmd-after-exchange", title: "_cmd after an exchange, in Objective-C",
    narration: [
      "The lesson cmd-after-exchange in the language it happens in: a getter that keys its "
        + "associated object by _cmd, and a setter that stores under @selector(tag), the same "
        + "selector. The getter prints the _cmd it received.",
      "After the exchange, -tag's code runs when logging_tag is sent, so its _cmd is "
        + "logging_tag, the key it reads under, and the value seems gone.",
    ],
    code: LessonSources.objcCmdAfterExchange,
    file: "Sources/SwizzleLab/Lessons/ObjectiveC/CmdAfterExchange.m",
    traced: ["tag", "logging_tag"],
    moral: [
      "_cmd is the selector the message was sent with, not the name the code was written "
        + "under. Key associations by a constant: a static variable's address, or a selector "
        + "written out."
    ]
  ) {
    try ObjectiveCLesson.run(LessonSources.objcCmdAfterExchange, named: "CmdAfterExchange")
  }

  static let objcAssociatedObjects = Lesson(
    name: "objc-associated-objects", title: "A category's state in associated objects",
    narration: [
      "A category cannot add instance variables, so categories keep state in associated "
        + "objects: accessors over objc_getAssociatedObject and objc_setAssociatedObject, "
        + "under a key whose address is unique, a static variable's.",
      "Each object has its own values. A selector is a key too, and @selector(text) and "
        + "sel_registerName(\"text\") are the same selector, so they are the same key.",
    ],
    code: LessonSources.objcAssociatedObjects,
    file: "Sources/SwizzleLab/Lessons/ObjectiveC/AssociatedObjects.m",
    traced: [],
    moral: [
      "Use a static variable's address as the key (or a selector written out), the retain "
        + "policy for objects, and accessors, so that callers never see the key."
    ]
  ) {
    try ObjectiveCLesson.run(LessonSources.objcAssociatedObjects, named: "AssociatedObjects")
  }
}

/// Runs a lesson written in Objective-C: compiles its file once per process, loads a fresh copy
/// of the library for each run (its classes and `+load` anew, as in a new process), calls its
/// `lesson_main` and leaves its classes to be disposed of with the lesson's.
enum ObjectiveCLesson {
  /// The libraries compiled, by lesson file name.
  private static let compiled = RuntimeLock<[String: String]>([:])
  /// How many copies were loaded, for their names.
  private static let copies = RuntimeLock(0)

  static func run(_ source: String, named name: String) throws {
    ObjectiveCModules.start()
    let library = try compile(source, named: name)
    let number = copies.withLock { count -> Int in
      count += 1
      return count
    }
    let copy = URL(fileURLWithPath: library).deletingLastPathComponent()
      .appendingPathComponent("lib\(name)-\(number).so").path
    try FileManager.default.copyItem(atPath: library, toPath: copy)
    guard let handle = dlopen(copy, RTLD_NOW | RTLD_LOCAL) else {
      throw LessonError.failed("could not load \(copy): \(String(cString: dlerror()))")
    }
    let modules = ObjectiveCModules.loaded.filter { $0.library == copy }
    for cls in modules.flatMap(\.classes).reversed() {
      if let made = objc_getClass(cls) { Lessons.disposeAfterRun(made) }
    }
    if let problem = modules.flatMap(\.problems).first {
      throw LessonError.failed("\(problem)")
    }
    guard let symbol = dlsym(handle, "lesson_main") else {
      throw LessonError.failed("\(name).m has no lesson_main")
    }
    typealias Main = @convention(c) () -> Void
    unsafeBitCast(symbol, to: Main.self)()
    ObjectiveCModules.drainAutoreleasePool()
  }

  private static func compile(_ source: String, named name: String) throws -> String {
    if let known = compiled.withLock({ $0[name] }) { return known }
    let compiler = ObjectiveCCompiler()
    try FileManager.default.createDirectory(
      at: compiler.directory, withIntermediateDirectories: true)
    let file = compiler.directory.appendingPathComponent("\(name).m").path
    try source.write(toFile: file, atomically: true, encoding: .utf8)
    do {
      let library = try compiler.compile([file])
      compiled.withLock { $0[name] = library }
      return library
    } catch {
      throw LessonError.failed(error.description)
    }
  }

  enum LessonError: Error, CustomStringConvertible {
    case failed(String)

    var description: String {
      switch self {
      case .failed(let message): message
      }
    }
  }
}

/// `lesson_say(line)`: what an Objective-C lesson calls to write a line of its result.
@_cdecl("lesson_say")
func lessonSay(_ line: UnsafePointer<CChar>?) {
  Lessons.say(line.map { String(cString: $0) } ?? "(null)")
}
