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
    var found: [ShadowedMethod] = []
    for path in paths {
      let source: String
      do {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes[.size] as? Int, size > maximumBytes {
          throw LabError.failure("\(path): larger than \(maximumBytes / 1_000_000) MB")
        }
        source = try String(contentsOfFile: path, encoding: .utf8)
      } catch let error as LabError {
        throw error
      } catch {
        throw .failure("cannot read \(path): \(error.localizedDescription)")
      }
      found += ShadowedMethods.find(inSource: source, file: path)
    }
    for method in found { output.out(method.description + "\n") }
    let files = paths.count == 1 ? "1 file" : "\(paths.count) files"
    if found.isEmpty {
      output.out("no Swift method of \(files) shadows a method of the runtime's tables\n")
      return .ok
    }
    output.out(
      "\(found.count) Swift method\(found.count == 1 ? "" : "s") of \(files) never run\n")
    return .failure
  }
}
