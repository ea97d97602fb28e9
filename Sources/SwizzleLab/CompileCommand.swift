// `compile`: Objective-C files compiled with gcc, loaded on the runtime, and what they brought.
import Foundation
import GNUObjC
import Hooks
import ObjCRuntime

/// `compile FILE.m...` and `--objc FILE.m`.
enum CompileCommand {
  static func run(files: [String], output: LabOutput) -> LabExit {
    do {
      try load(files, output: output, reportingTo: output.out)
      return .ok
    } catch {
      output.err("error: \(error.message)\n")
      return .failure
    }
  }

  /// Compiles `files` into one library, loads it and says what each file brought (to `report`:
  /// standard output for `compile`, standard error for `--objc`): its classes and categories,
  /// the `+load` methods run and the exchanges and implementations they made, methods a later
  /// category replaced, and what could not be loaded.
  static func load(_ files: [String], output: LabOutput, reportingTo report: (String) -> Void)
    throws(LabError)
  {
    ObjectiveCModules.start()
    let library: String
    do {
      library = try ObjectiveCCompiler().compile(files)
    } catch {
      throw .failure(error.description)
    }
    let recorder = TableChanges()
    Tracing.install(recorder)
    do {
      // Through the plugin registry, whose change log then records the files' exchanges for the
      // hook map (a library of Objective-C may bring Swift plugins too).
      _ = try PluginRegistry.shared.loadLibrary(at: library)
      Tracing.remove(recorder)
    } catch {
      Tracing.remove(recorder)
      throw .failure(error.description)
    }
    let modules = ObjectiveCModules.loaded.filter { $0.library == library }
    report("compiled \(files.joined(separator: ", ")) into \(library)\n")
    for module in modules {
      report("\(module)\n")
      for line in recorder.lines(from: module.file) { report("  \(line)\n") }
      for replacement in module.replacements { report("  replaced \(replacement)\n") }
      for problem in module.problems { output.err("warning: \(problem)\n") }
    }
    // A library of several files: a change is named by the library (which file's code made it is
    // not known), and listed once.
    let libraryName = URL(fileURLWithPath: library).lastPathComponent
    if modules.count > 1 {
      for line in recorder.lines(from: libraryName) { report("  \(libraryName): \(line)\n") }
    }
    for waiting in ObjectiveCModules.waitingCategories {
      output.err("warning: category \(waiting) waits for its class\n")
    }
  }
}

/// The method-table changes made while a library loaded, by the file that made them.
private final class TableChanges: RuntimeTracer, @unchecked Sendable {
  // @unchecked Sendable: a tracer is process-wide; the lines are guarded by the lock.
  private let lock = NSLock()
  private var changes: [(file: String, line: String)] = []

  func runtime(_ event: RuntimeEvent) {
    let change: (String, String)?
    switch event {
    case .implementationsExchanged(let first, let second, let location):
      change = (location.fileID, "exchanged \(first) <-> \(second)")
    case .implementationSet(let method, _, _, let location):
      change = (location.fileID, "set \(method)")
    default:
      change = nil
    }
    guard let change else { return }
    lock.withLock { changes.append(change) }
  }

  func lines(from file: String) -> [String] {
    lock.withLock { changes.filter { $0.file == file }.map(\.line) }
  }
}
