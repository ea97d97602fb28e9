// swizzle-lab compile: Objective-C compiled with gcc, loaded, and what it brought; bad input.
// The files here swizzle classes of their own: an exchange on a model class would stay for the
// rest of the test process (CI runs the lab on Examples/ObjectiveC in a process of its own).
import Foundation
import GNUObjC
import SwizzleKitTesting
import Testing

@testable import SwizzleLab

/// Writes `source` as `name` in a fresh directory; returns its path.
private func write(_ source: String, as name: String) throws -> String {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("lab-compile-\(getpid())-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let path = directory.appendingPathComponent(name).path
  try source.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

@MainActor private func lab(_ arguments: [String]) -> (LabExit, CapturedOutput) {
  let output = CapturedOutput()
  return (Lab.main(arguments, output: output, environment: [:]), output)
}

@MainActor
@Suite(
  "swizzle-lab compile", .uiKitModel,
  .enabled(
    if: ObjectiveCCompiler.isAvailable,
    "gcc's Objective-C is not installed: \(ObjectiveCCompiler.installCommand)"))
struct CompileCommandTests {
  @Test("lists the file's classes, the +load it ran and the exchange that +load made")
  func compiles() throws {
    let file = try write(
      """
      #import <Foundation/Foundation.h>
      @interface LabProbe : NSObject @end
      @implementation LabProbe
      + (void)load {
        method_exchangeImplementations(class_getInstanceMethod(self, @selector(first)),
                                       class_getInstanceMethod(self, @selector(second)));
      }
      - (long)first { return 1; }
      - (long)second { return 2; }
      @end
      """, as: "LabProbe.m")
    let (code, output) = lab(["compile", file])
    #expect(code == .ok, "\(output.standardError)")
    let lines = output.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("compiled \(file) into ") == true)
    #expect(
      Array(lines.dropFirst()) == [
        "LabProbe.m: classes LabProbe; ran +[LabProbe load]",
        "  exchanged -[LabProbe first] <-> -[LabProbe second]",
      ])
  }

  @Test("a file gcc refuses: its diagnostics on standard error, exit 1")
  func compileError() throws {
    let file = try write("int broken = ;\n", as: "Broken.m")
    let (code, output) = lab(["compile", file])
    #expect(code == .failure)
    #expect(output.standardError.hasPrefix("error: gcc could not compile \(file):"))
    #expect(output.standardError.contains("expected expression"))
  }

  @Test("no file, a missing file, an option: refused with what is wrong")
  func badArguments() {
    #expect(lab(["compile"]).0 == .usage)
    #expect(lab(["compile", "--plugin", "x"]).0 == .usage)
    let (code, output) = lab(["compile", "/nonexistent/Nothing.m"])
    #expect(code == .failure)
    #expect(
      output.standardError == "error: /nonexistent/Nothing.m does not exist or cannot be read\n")
  }
}
