// `shadows`: the Swift methods of a file's extensions that never run, because a method of the
// runtime's tables has their name (Docs/Porting.md, section 7).
import Foundation
import Hooks

/// `shadows FILE...`: what a file written for iOS declares in extensions that UIKit would have
/// called on iOS and the model never calls here.
enum ShadowsCommand {
  /// At most this many files, and this many bytes per file: a check of source files, not of a
  /// disk.
  static let maximumFiles = 1_000
  static let maximumBytes = 4_000_000

  static func run(paths: [String], output: LabOutput) throws(LabError) -> LabExit {
    guard !paths.isEmpty else {
      throw .usage("shadows takes one or more Swift FILEs", topic: "shadows")
    }
    guard paths.count <= maximumFiles else {
      throw .usage("shadows takes at most \(maximumFiles) files", topic: "shadows")
    }
    var sources: [(source: String, file: String)] = []
    var unreadable = 0
    for path in paths {
      do {
        sources.append((try read(path), path))
      } catch {
        output.err("error: \(error.message)\n")
        unreadable += 1
      }
    }
    let found = ShadowedMethods.find(inSources: sources)
    for method in found { output.out(method.description + "\n") }
    let files = sources.count == 1 ? "1 file" : "\(sources.count) files"
    if found.isEmpty {
      output.out("no Swift method of \(files) shadows a method of the runtime's tables\n")
    } else {
      let methods = found.count == 1 ? "1 Swift method" : "\(found.count) Swift methods"
      output.out("\(methods) of \(files) never run\(found.count == 1 ? "s" : "")\n")
    }
    return found.isEmpty && unreadable == 0 ? .ok : .failure
  }

  /// The text of a regular file of at most ``maximumBytes``.
  private static func read(_ path: String) throws(LabError) -> String {
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: path)
    } catch {
      throw .failure("cannot read \(path): no such file")
    }
    // A FIFO or a device reports no size and may never end.
    guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
      throw .failure("cannot read \(path): not a regular file")
    }
    let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    guard size <= maximumBytes else {
      throw .failure("cannot read \(path): larger than \(maximumBytes / 1_000_000) MB")
    }
    do {
      return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw .failure("cannot read \(path): not UTF-8 text")
    }
  }
}
