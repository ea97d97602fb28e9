// Swift methods that never run, as a test: a plugin's or a port's files, read and checked for
// methods of extensions named as methods of the runtime's tables (Docs/Porting.md, section 7).
import Foundation
import Hooks
public import Testing

/// Records an issue for each method of the extensions in `paths` that never runs because a
/// method of the runtime's tables has its name (`navigationBar(_:shouldPop:)` in an extension
/// of `UINavigationController`), and for each file that cannot be read.
///
/// ```swift
/// @Test func nothingShadowed() {
///   let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
///     .appendingPathComponent("../../Sources/MyPlugin")
///   expectNoShadowedMethods(inFiles: [sources.appendingPathComponent("MyPlugin.swift").path])
/// }
/// ```
public func expectNoShadowedMethods(
  inFiles paths: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  var sources: [(source: String, file: String)] = []
  for path in paths {
    guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
      TestReporter.fail("cannot read \(path)", at: sourceLocation)
      continue
    }
    sources.append((source, path))
  }
  // Read together: a selector one file exposes or hooks is dealt with for all of them.
  for method in ShadowedMethods.find(inSources: sources) {
    TestReporter.fail(method.description, at: sourceLocation)
  }
}
