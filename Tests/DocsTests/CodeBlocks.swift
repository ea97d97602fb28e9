// Every Swift code block of Docs/, the README and the plugins' and examples' READMEs is compiled
// (type-checked) against this build's modules. A block is one program; a block whose fence says
// `swift continued` goes on from the block before it, one that says `swift no-compile` is not
// meant to compile (an excerpt) and says so, and one that says `swift file=PATH` shows a file of
// the package, which it must equal (CI builds and tests that file where it is).
import Foundation
import ObjCRuntime
import Testing

/// One program made of code blocks.
struct CodeUnit: CustomTestStringConvertible, Sendable {
  let file: String
  /// The line of its first block.
  let line: Int
  var code: String
  /// The file of the package the block shows, for a `file=` block.
  var shows: String?

  var testDescription: String { "\(file):\(line)" }
}

/// The code units of the documents, in order.
func codeUnits() throws -> [CodeUnit] {
  let manager = FileManager.default
  var files = ["README.md"]
  for directory in ["Docs", "Plugins", "Examples"] {
    let url = packageRoot.appendingPathComponent(directory)
    guard let walker = manager.enumerator(atPath: url.path) else { continue }
    for case let path as String in walker
    where path.hasSuffix(".md") && !path.contains(".build/") {
      files.append("\(directory)/\(path)")
    }
  }
  var units: [CodeUnit] = []
  for file in files.sorted() {
    let lines = try read(file).split(separator: "\n", omittingEmptySubsequences: false)
    var index = 0
    while index < lines.count {
      let fence = lines[index].trimmingCharacters(in: .whitespaces)
      index += 1
      guard fence.hasPrefix("```swift") else { continue }
      let words = fence.dropFirst(3).split(separator: " ")
      let start = index
      var code: [Substring] = []
      while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```")
      {
        code.append(lines[index])
        index += 1
      }
      index += 1
      if words.contains("no-compile") { continue }
      let text = code.joined(separator: "\n") + "\n"
      if let shown = words.first(where: { $0.hasPrefix("file=") }) {
        units.append(
          CodeUnit(file: file, line: start, code: text, shows: String(shown.dropFirst(5))))
      } else if words.contains("continued"), let last = units.last, last.file == file,
        last.shows == nil
      {
        units[units.count - 1].code += text
      } else {
        units.append(CodeUnit(file: file, line: start, code: text))
      }
    }
  }
  return units
}

/// Type-checks `unit` with swiftc against the modules of this build; returns the compiler's
/// complaints, or nil when it is happy.
func typecheck(_ unit: CodeUnit) throws -> String? {
  let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  let build = URL(fileURLWithPath: executable).deletingLastPathComponent()
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("swizzlekit-docs-\(getpid())")
    .appendingPathComponent("\(unit.file.replacingOccurrences(of: "/", with: "_"))-\(unit.line)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let source = directory.appendingPathComponent("main.swift")
  try unit.code.write(to: source, atomically: true, encoding: .utf8)
  var arguments = [
    "swiftc", "-typecheck", "-swift-version", "6", "-I",
    build.appendingPathComponent("Modules").path,
  ]
  for module in ["CObjCTypes", "CObjCRuntime", "CSwiftMetadata", "CMainThread"] {
    arguments += [
      "-Xcc",
      "-fmodule-map-file=" + build.appendingPathComponent("\(module).build/module.modulemap").path,
      "-Xcc", "-I" + packageRoot.appendingPathComponent("Sources/\(module)/include").path,
    ]
  }
  for system in ["CFFI", "CPNG"] {
    arguments += [
      "-Xcc",
      "-fmodule-map-file="
        + packageRoot.appendingPathComponent("Sources/\(system)/module.modulemap").path,
    ]
  }
  arguments.append(source.path)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  let pipe = Pipe()
  process.standardError = pipe
  process.standardOutput = pipe
  try process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus != 0 else { return nil }
  return String(decoding: output, as: UTF8.self)
    .split(separator: "\n").filter { $0.contains("error:") }.prefix(5).joined(separator: "\n")
}

@Suite("Code blocks")
struct CodeBlockTests {
  @Test("every Swift code block of the docs compiles", arguments: try codeUnits())
  func compiles(unit: CodeUnit) throws {
    if let shown = unit.shows {
      #expect(
        try read(shown) == unit.code,
        "\(unit.file), the block at line \(unit.line), is not \(shown) as it is now")
      return
    }
    if let errors = try typecheck(unit) {
      Issue.record("\(unit.file), the block at line \(unit.line), does not compile:\n\(errors)")
    }
  }
}
