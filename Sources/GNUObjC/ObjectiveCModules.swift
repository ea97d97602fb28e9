// The public face of the GNU Objective-C loader: start it, read what each compiled file brought,
// and take the failures of sends made from Objective-C.
import Glibc
import ObjCRuntime
import Synchronization

/// Objective-C compiled by gcc for the GNU runtime (`-fgnu-runtime`, module ABI version 8),
/// running on SwizzleKit's runtime.
///
/// gcc's code registers each compiled file with `__objc_exec_class` from a constructor and
/// sends with `objc_msg_lookup`; this module answers those entry points and the runtime's C
/// functions the code calls by their usual names (`class_getInstanceMethod`,
/// `method_exchangeImplementations`, `objc_setAssociatedObject`...). Call ``start()`` before
/// loading a library built from `.m` files (`dlopen`); files registered earlier (linked into the
/// executable) wait and load then. See `Docs/ObjectiveC.md`.
public enum ObjectiveCModules {
  /// Installs the loader (once; later calls do nothing) and loads every file registered before.
  public static func start() {
    Loader.start()
  }

  /// Every file loaded so far, in load order, with what it brought and what went wrong.
  public static var loaded: [ObjectiveCModule] {
    Loader.state.withLock { $0.modules }
  }

  /// The categories still waiting for their class, as `Class (Category)` with their file.
  public static var waitingCategories: [String] {
    Loader.state.withLock { state in
      state.waiting.map { "\($0.className) (\($0.name)) in \($0.file)" }
    }
  }

  /// Records which source file each module of the library at `library` comes from, by the
  /// module record's offset in the library (gcc leaves the module's own name empty); call it
  /// before loading the library. ``ObjectiveCCompiler`` does.
  public static func recordSourceFiles(_ files: [UInt: String], forLibrary library: String) {
    Origins.sourceFiles.withLock { $0[library] = files }
  }

  /// Releases the objects Objective-C code autoreleased (`-autorelease`) since the last drain, on
  /// every thread. The loader releases what each `+load` autoreleased when it returns; a host
  /// that runs Objective-C code later drains when it sees fit, as an autorelease pool's end
  /// would.
  public static func drainAutoreleasePool() {
    Foundation.drainPool()
  }

  /// The sends from Objective-C that failed since the last call (a selector nothing implements,
  /// oldest first; the newest 1,000 are kept), and empties the list. Each also printed a warning
  /// when it happened; the send returned zero (nil, false), as a message to nil does. A `+load`'s
  /// own failures are taken by the loader, into its module's problems.
  public static func takeFailures() -> [ObjCRuntimeError] {
    Failures.takeAll()
  }
}

/// One compiled file (gcc's module) as the loader saw it.
public struct ObjectiveCModule: Sendable, CustomStringConvertible {
  /// The source file, as its compiler recorded it (see
  /// ``ObjectiveCModules/recordSourceFiles(_:forLibrary:)``), else the library's path.
  public let file: String
  /// The path of the library (or executable) the file was linked into.
  public let library: String
  /// The classes the file defines, made as class pairs under their SwizzleKit superclass.
  public internal(set) var classes: [String] = []
  /// The categories attached, as `Class (Category)`.
  public internal(set) var categories: [String] = []
  /// The `+load` methods run, in the order they ran, as `+[Class(Category) load]`.
  public internal(set) var loads: [String] = []
  /// Methods a category defines that an earlier category already defined on the same class: the
  /// later one wins, as in objc4.
  public internal(set) var replacements: [String] = []
  /// What could not be loaded, and why.
  public internal(set) var problems: [ObjectiveCLoadError] = []

  init(file: String, library: String) {
    self.file = file
    self.library = library
  }

  /// The file and what it brought, one line.
  public var description: String {
    var parts: [String] = []
    if !classes.isEmpty { parts.append("classes " + classes.joined(separator: ", ")) }
    if !categories.isEmpty { parts.append("categories " + categories.joined(separator: ", ")) }
    if !loads.isEmpty { parts.append("ran " + loads.joined(separator: ", ")) }
    return "\(file): " + (parts.isEmpty ? "nothing" : parts.joined(separator: "; "))
  }
}

/// Why part of a compiled file could not be loaded. Each names the file and the class.
public enum ObjectiveCLoadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file was compiled for another ABI than gcc's GNU module version 8.
  case unsupportedABI(file: String, version: UInt, size: UInt)
  /// The file's library is linked with GNU libobjc (`-lobjc`): it was built for GNU's runtime,
  /// not for this one. Nothing of it is loaded.
  case linkedWithGNULibobjc(file: String, library: String)
  /// The class declares instance variables, whose fixed offsets would overlap the Swift object
  /// header. Keep state in associated objects behind accessors instead.
  case instanceVariables(file: String, className: String, names: [String])
  /// The class has no superclass, or one the runtime does not know.
  case missingSuperclass(file: String, className: String, superclass: String?)
  /// A class of that name exists already.
  case classExists(file: String, className: String)
  /// A category's class does not exist (it stays waiting in case a later file defines it).
  case missingClass(file: String, category: String, className: String)
  /// The runtime refused a method of the class or category.
  case refused(file: String, className: String, ObjCRuntimeError)
  /// A `+load` method sent a message that failed (a selector nothing implements).
  case failedSend(file: String, during: String, ObjCRuntimeError)
  /// The file has statically allocated instances of a class other than the constant strings
  /// (`@"..."`), which the loader does not make objects of: a send to one answers zero and is
  /// reported.
  case unsupportedStaticInstances(file: String, className: String, count: Int)

  /// What went wrong and what to do, naming the file and the class.
  public var description: String {
    switch self {
    case .unsupportedABI(let file, let version, let size):
      return "\(file): compiled for module ABI version \(version) (size \(size)); SwizzleKit loads"
        + " gcc's GNU runtime ABI version 8: compile with gcc -fgnu-runtime"
    case .linkedWithGNULibobjc(let file, let library):
      return "\(file): \(library) is linked with GNU libobjc (-lobjc), built for GNU's runtime;"
        + " compile it for SwizzleKit with swizzle-lab compile (no -lobjc)"
    case .instanceVariables(let file, let className, let names):
      return
        "\(file): class \(className) declares instance variables (\(names.joined(separator: ", ")))"
        + ", which SwizzleKit cannot lay out; keep state in associated objects behind accessors"
    case .missingSuperclass(let file, let className, let superclass):
      guard let superclass else {
        return "\(file): class \(className) has no superclass; derive it from NSObject"
      }
      return "\(file): class \(className) derives from \(superclass), which the runtime does not"
        + " know; check the name or load the file that defines it first"
    case .classExists(let file, let className):
      return "\(file): a class named \(className) exists already; rename the class"
    case .missingClass(let file, let category, let className):
      return "\(file): category \(className) (\(category)) extends \(className), which the runtime"
        + " does not know; it waits for a file that defines the class"
    case .refused(let file, let className, let error):
      return "\(file): \(className): \(error)"
    case .failedSend(let file, let during, let error):
      return "\(file): \(during): \(error)"
    case .unsupportedStaticInstances(let file, let className, let count):
      return
        "\(file): \(count) static instance(s) of \(className), which only constant strings"
        + " (@\"...\") may be; a send to one answers zero"
    }
  }
}

/// The failures of sends from Objective-C, reported by the runtime's forwarding: each with the
/// thread it happened on, so that a `+load` collects its own and leaves the others'. The list
/// keeps the newest ``limit``.
enum Failures {
  struct Entry {
    let thread: UInt
    let serial: Int
    let error: ObjCRuntimeError
  }

  struct List {
    var entries: [Entry] = []
    var serial = 0
  }

  static let limit = 1_000
  static let list = Mutex(List())

  static func record(_ error: ObjCRuntimeError) {
    Diagnostics.warn("a send from Objective-C failed: \(error); it returned zero")
    let thread = UInt(pthread_self())
    list.withLock { list in
      list.serial += 1
      list.entries.append(Entry(thread: thread, serial: list.serial, error: error))
      if list.entries.count > limit { list.entries.removeFirst(list.entries.count - limit) }
    }
  }

  /// Where the list stands: the failures after it are the ones ``take(since:)`` takes.
  static func mark() -> Int {
    list.withLock { $0.serial }
  }

  /// This thread's failures since `mark`, taken out of the list.
  static func take(since mark: Int) -> [ObjCRuntimeError] {
    let thread = UInt(pthread_self())
    return list.withLock { list in
      let mine = list.entries.filter { $0.thread == thread && $0.serial > mark }
      list.entries.removeAll { $0.thread == thread && $0.serial > mark }
      return mine.map(\.error)
    }
  }

  static func takeAll() -> [ObjCRuntimeError] {
    list.withLock { list in
      defer { list.entries.removeAll() }
      return list.entries.map(\.error)
    }
  }
}
