// Docs/ObjectiveC.md tells the truth: its Objective-C blocks compile with gcc against the lab's
// headers, and the copy of the headers in Docs/ObjectiveC/include is what the generator writes.
import Foundation
import GNUObjC
import SwizzleKitTesting
import Testing

// The model's turn: gcc's processes and a model test do not compete for the two cores.
@Suite("Objective-C docs", .uiKitModel)
struct ObjectiveCDocsTests {
  @Test("Docs/ObjectiveC/include holds the headers the lab compiles against, as generated now")
  func headers() throws {
    let directory = packageRoot.appendingPathComponent("Docs/ObjectiveC/include")
    let generated = ObjectiveCHeaders.generate()
    if ProcessInfo.processInfo.environment["SWIZZLEKIT_UPDATE_DOCS"] == "1" {
      try ObjectiveCHeaders.write(to: directory)
      return
    }
    for (path, text) in generated.sorted(by: { $0.key < $1.key }) {
      let committed = try? String(
        contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
      #expect(
        committed == text,
        "Docs/ObjectiveC/include/\(path) is not what ObjectiveCHeaders writes; SWIZZLEKIT_UPDATE_DOCS=1 rewrites it"
      )
    }
  }

  @Test(
    "every Objective-C block of Docs/ObjectiveC.md compiles",
    .enabled(
      if: ObjectiveCCompiler.isAvailable,
      "gcc's Objective-C is not installed: \(ObjectiveCCompiler.installCommand)"))
  func blocksCompile() throws {
    let text = try read("Docs/ObjectiveC.md")
    let blocks = text.components(separatedBy: "```objc\n").dropFirst().map {
      $0.components(separatedBy: "```").first ?? ""
    }
    #expect(!blocks.isEmpty)
    let compiler = ObjectiveCCompiler()
    try FileManager.default.createDirectory(
      at: compiler.directory, withIntermediateDirectories: true)
    for (index, block) in blocks.enumerated() {
      let file = compiler.directory.appendingPathComponent("Block\(index).m").path
      try block.write(toFile: file, atomically: true, encoding: .utf8)
      #expect(throws: Never.self, "block \(index) of Docs/ObjectiveC.md") {
        _ = try compiler.compile([file])
      }
    }
  }
}
