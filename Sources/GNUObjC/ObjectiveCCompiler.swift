// Compiling `.m` files with gcc's Objective-C front end into a library the loader runs: the
// flags, the headers, and the class-name symbols gcc's code references.
internal import CObjCGNU
import Foundation

/// Compiles Objective-C files with gcc (Debian's `gobjc`) for SwizzleKit's runtime.
///
/// Each file is compiled for the GNU runtime (`-fgnu-runtime`, `-std=gnu11`) against the headers
/// of ``ObjectiveCHeaders`` (`<objc/runtime.h>`, `<Foundation/Foundation.h>`,
/// `<UIKit/UIKit.h>`), and the objects are linked into one shared library without GNU libobjc:
/// the runtime's entry points come from the process that loads it. gcc's code references a
/// symbol `__objc_class_name_X` for every class it names; the link defines the ones no file
/// defines. Nothing is installed: without gcc's Objective-C the compile fails with the command
/// that installs it.
public struct ObjectiveCCompiler: Sendable {
  /// The command that installs gcc's Objective-C front end on Debian.
  public static let installCommand = "apt-get install -y gobjc"

  /// Whether gcc here compiles Objective-C.
  public static var isAvailable: Bool {
    (try? run(["gcc", "-x", "objective-c", "-fsyntax-only", "/dev/null"]))?.status == 0
  }

  /// Where the headers and the products go.
  public let directory: URL

  /// A compiler that writes into `directory` (made if missing), a new temporary directory when
  /// nil.
  public init(directory: URL? = nil) {
    self.directory =
      directory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "swizzlekit-objc-\(getpid())-\(UUID().uuidString.prefix(8))")
  }

  /// Compiles `files` and links them into `lib<NAME>.so`, NAME being the first file's name
  /// without its extension; returns the library's path.
  ///
  /// - Throws: ``ObjectiveCCompileError``: no file, a file that does not exist or is not a `.m`
  ///   file, gcc's Objective-C missing, gcc's errors, a failed link.
  public func compile(_ files: [String]) throws(ObjectiveCCompileError) -> String {
    guard let first = files.first else { throw .noFiles }
    for file in files {
      guard file.hasSuffix(".m") else { throw .notObjectiveC(file) }
      guard FileManager.default.isReadableFile(atPath: file) else { throw .missing(file) }
    }
    guard ObjectiveCCompiler.isAvailable else { throw .compilerMissing }
    let headers = directory.appendingPathComponent("include")
    do {
      try ObjectiveCHeaders.write(to: headers)
    } catch {
      throw .cannotWrite(headers.path, "\(error)")
    }
    var objects: [String] = []
    for (index, file) in files.enumerated() {
      let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
      let object = directory.appendingPathComponent("\(index)-\(stem).o").path
      let result = try ObjectiveCCompiler.tool(
        ["gcc", "-c", "-std=gnu11", "-fgnu-runtime", "-fPIC", "-O1", "-g"]
          + ObjectiveCHeaders.compilerFlags + ["-I", headers.path, file, "-o", object])
      guard result.status == 0 else { throw .compileFailed(file: file, diagnostics: result.output) }
      objects.append(object)
    }
    let defined = try classNameSymbols(in: objects, defined: true)
    let needed = try classNameSymbols(in: objects, defined: false).subtracting(defined)
    let name = URL(fileURLWithPath: first).deletingPathExtension().lastPathComponent
    let library = directory.appendingPathComponent("lib\(name).so").path
    let link = try ObjectiveCCompiler.tool(
      ["gcc", "-shared", "-o", library] + objects
        + needed.sorted().map { "-Wl,--defsym,\($0)=0" })
    guard link.status == 0 else { throw .linkFailed(diagnostics: link.output) }
    try recordModules(of: library, files: files)
    return library
  }

  /// Tells the loader which file each module of `library` comes from: the linker lays the
  /// objects out in command-line order, so the modules' records (gcc's local `_OBJC_Module`)
  /// sorted by address follow the files.
  private func recordModules(of library: String, files: [String]) throws(ObjectiveCCompileError) {
    let result = try ObjectiveCCompiler.tool(["nm", "--defined-only", library])
    guard result.status == 0 else { throw .linkFailed(diagnostics: result.output) }
    let offsets = result.output.split(separator: "\n").compactMap { line -> UInt? in
      let fields = line.split(separator: " ")
      guard fields.count == 3, fields[2] == "_OBJC_Module" else { return nil }
      return UInt(fields[0], radix: 16)
    }.sorted()
    guard offsets.count == files.count else { return }
    let path = URL(fileURLWithPath: library).standardizedFileURL.path
    ObjectiveCModules.recordSourceFiles(
      Dictionary(uniqueKeysWithValues: zip(offsets, files.map(Self.displayName))),
      forLibrary: path)
  }

  /// A file as the lab shows it: its name, without the directories.
  private static func displayName(_ file: String) -> String {
    URL(fileURLWithPath: file).lastPathComponent
  }

  /// The `__objc_class_name_X` symbols the objects define (or need).
  private func classNameSymbols(in objects: [String], defined: Bool) throws(ObjectiveCCompileError)
    -> Set<String>
  {
    let result = try ObjectiveCCompiler.tool(
      ["nm", defined ? "--defined-only" : "--undefined-only"] + objects)
    guard result.status == 0 else { throw .linkFailed(diagnostics: result.output) }
    return Set(
      result.output.split(separator: "\n").compactMap { line in
        line.split(separator: " ").last.map(String.init)
      }.filter { $0.hasPrefix("__objc_class_name_") })
  }

  private static func tool(_ arguments: [String]) throws(ObjectiveCCompileError) -> (
    status: Int32, output: String
  ) {
    do {
      return try run(arguments)
    } catch {
      throw .cannotRun(arguments[0], "\(error)")
    }
  }

  private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    var pointers = arguments.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    pointers.append(nil)
    var output: UnsafeMutablePointer<CChar>?
    var status: Int32 = 0
    let failure = swk_gnu_run(&pointers, &output, &status)
    defer { free(output) }
    guard failure == 0 else {
      throw ObjectiveCCompileError.cannotRun(arguments[0], String(cString: strerror(failure)))
    }
    return (status, output.map { String(cString: $0) } ?? "")
  }

}

/// Why Objective-C files could not be compiled.
public enum ObjectiveCCompileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No file was given.
  case noFiles
  /// A file does not end in `.m`.
  case notObjectiveC(String)
  /// A file does not exist or cannot be read.
  case missing(String)
  /// gcc here does not compile Objective-C.
  case compilerMissing
  /// The headers could not be written.
  case cannotWrite(String, String)
  /// A tool (gcc, nm) could not be started.
  case cannotRun(String, String)
  /// gcc refused a file; its diagnostics.
  case compileFailed(file: String, diagnostics: String)
  /// The link failed; its diagnostics.
  case linkFailed(diagnostics: String)

  /// What went wrong and what to do.
  public var description: String {
    switch self {
    case .noFiles: return "no Objective-C file given"
    case .notObjectiveC(let file): return "\(file) is not an Objective-C file (.m)"
    case .missing(let file): return "\(file) does not exist or cannot be read"
    case .compilerMissing:
      return "gcc's Objective-C front end is not installed; install it with: "
        + ObjectiveCCompiler.installCommand
    case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
    case .cannotRun(let tool, let reason): return "cannot run \(tool): \(reason)"
    case .compileFailed(let file, let diagnostics):
      return "gcc could not compile \(file):\n\(diagnostics)"
    case .linkFailed(let diagnostics): return "the link failed:\n\(diagnostics)"
    }
  }
}
