// Image snapshots: the screen at a moment, drawn by ScreenRendering, compared with a PNG kept
// next to the test in swift-snapshot-testing's layout, under the record modes.
import Foundation
public import ScreenRendering
public import Testing
import UIKitModel

/// Compares the screen `frame` shows, drawn at `scale` pixels a point, with the reference PNG
/// `__Snapshots__/<TestFile>/<test>.<name or n>.<device>-iOS<version>[-SDK<sdk>]@<scale>x.png`
/// next to the test (`<n>` counts the test's unnamed snapshots of one cell: 1, 2...), and
/// fails the test when they differ, leaving the actual image, the reference and a difference
/// image (changed pixels in magenta) in the failure artifacts (``withArtifactsDirectory(_:_:)``)
/// and naming the three paths.
///
/// The renderer is deterministic, so the match is exact by default. `precision` is the share
/// of pixels that must match (0.99 lets 1 % differ); `perceptualPrecision` is how close a
/// pixel's colour must be to count as matching (0.98 lets pass a CIE94 distance of 2, what
/// the eye cannot tell), as swift-snapshot-testing's knobs of those names.
///
/// `record` (else the trait's, else `SWIZZLEKIT_RECORD`'s) says when the reference is written
/// instead (``RecordMode``); every write fails the test and names the file and what changed.
///
/// ```swift
/// @MainActor @Test(.uiKitModel) func pushed() {
///   let session = NavigationSession(root: UIViewController())
///   session.push(UIViewController()).advance(by: 1)
///   expectScreen(named: "pushed")
/// }
/// ```
///
/// - Returns: whether the snapshot matched (false after a write).
@discardableResult
public func expectSnapshot(
  of frame: ScreenFrame, named name: String? = nil, scale: Int = 1, precision: Double = 1,
  perceptualPrecision: Double = 1, record: RecordMode? = nil, filePath: String = #filePath,
  function: String = #function, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Bool {
  func fail(_ message: String) -> Bool {
    TestReporter.fail(message, at: sourceLocation)
    return false
  }
  guard (1...ScreenFrame.maximumScale).contains(scale) else {
    return fail(
      "the snapshot's scale \(scale) is not 1 to \(ScreenFrame.maximumScale) pixels a point")
  }
  guard (0...1).contains(precision), (0...1).contains(perceptualPrecision) else {
    return fail(
      "precision \(precision) and perceptualPrecision \(perceptualPrecision) are shares from 0"
        + " to 1 (1: every pixel, exactly)")
  }
  if let name, SnapshotName.fileComponent(name) != name || name.allSatisfy(\.isNumber) {
    return fail(
      "the snapshot name \"\(name)\" is not a file name: use letters, digits, '-', '_' and '.'"
        + " only, not starting or ending with '-' or '.', and not digits alone (an unnamed"
        + " snapshot's number)")
  }
  let mode: RecordMode
  switch record.map({ .success($0) }) ?? RecordMode.resolved() {
  case .success(let resolved): mode = resolved
  case .failure(let error): return fail(error.description)
  }
  let testFile = URL(fileURLWithPath: filePath)
  let directory = testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
  let test = SnapshotName.fileComponent(function)
  let cell = SnapshotName.cell(of: frame, scale: scale)
  let identifier =
    name ?? String(ReferenceFiles.nextCounter(directory.path + "/" + test + "." + cell))
  let file = SnapshotName.fileName(test: test, identifier: identifier, frame: frame, scale: scale)
  let fileName = String(file.dropLast(4))
  let reference = directory.appendingPathComponent(file)
  let actual = frame.image(scale: scale)

  func writeReference(_ what: String) -> Bool {
    do {
      try ReferenceFiles.prepare(directory)
      try actual.write(to: reference.path)
    } catch let error as ReferenceFileError {
      return fail("\(fileName): \(error)")
    } catch {
      return fail("\(fileName): could not write the reference \(error): check that it is writable")
    }
    return fail(mode.recorded("snapshot", at: reference.path, what))
  }

  if ReferenceFiles.isDirectory(reference.path) {
    return fail(
      "\(fileName): the reference path \(reference.path) is a directory; move it away")
  }
  guard FileManager.default.fileExists(atPath: reference.path) else {
    guard mode.writesMissing else {
      return fail(mode.missing("reference", named: fileName, at: reference.path))
    }
    return writeReference("new, \(actual.width)x\(actual.height)")
  }
  let expected: RGBAImage
  do {
    expected = try RGBAImage.read(reference.path)
  } catch {
    if mode.rewritesUnreadable {
      return writeReference("the old file was not a readable PNG: \(error.reason)")
    }
    return fail(
      "\(fileName): the reference \(reference.path) is not a readable PNG (\(error.reason)); it"
        + " was left as it is: delete it, or run with SWIZZLEKIT_RECORD=failed to write it again")
  }
  let comparison = ImageComparison(actual, expected, perceptualPrecision: perceptualPrecision)
  let matches = comparison?.matches(precision: precision) ?? false
  let what =
    comparison.map { $0.differingPixels.isEmpty ? "unchanged" : $0.summary }
    ?? "the reference is \(expected.width)x\(expected.height) pixels, the screen"
    + " \(actual.width)x\(actual.height) (another device or scale?)"
  switch mode.decision(matches: matches) {
  case .pass: return true
  case .rewrite: return writeReference(what)
  case .fail: break
  }
  // Leave the three images where the team can look at them.
  let artifacts = ReferenceFiles.artifactsDirectory(for: testFile)
  let files = [
    ("actual", actual), ("reference", expected),
    ("difference", comparison?.differenceImage()),
  ]
  var written: [String] = []
  do {
    try ReferenceFiles.prepare(artifacts)
    for case (let role, let image?) in files {
      let path = artifacts.appendingPathComponent("\(fileName).\(role).png").path
      try image.write(to: path)
      written.append("  \(role): \(path)")
    }
  } catch {
    written.append("  (could not write the artifacts: \(error))")
  }
  return fail(
    (["\(fileName) differs from its reference: \(what)"] + written
      + ["(SWIZZLEKIT_RECORD=failed writes the reference again)"]).joined(separator: "\n"))
}

/// Compares the screen of the key window's navigation controller now (its bar over
/// `scenarioBackdrop` of `Scenarios`, the pages under it, on the model's device and version) with
/// its reference, as ``expectSnapshot(of:named:scale:precision:perceptualPrecision:record:filePath:function:sourceLocation:)``
/// does; fails when the key window shows no navigation controller.
@discardableResult
@MainActor
public func expectScreen(
  named name: String? = nil, title: String? = nil, scale: Int = 1, precision: Double = 1,
  perceptualPrecision: Double = 1, record: RecordMode? = nil, filePath: String = #filePath,
  function: String = #function, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Bool {
  guard let frame = ScreenFrame.current(title: title) else {
    TestReporter.fail(
      "no screen to snapshot: the key window shows no navigation controller (start a"
        + " NavigationSession first)", at: sourceLocation)
    return false
  }
  return expectSnapshot(
    of: frame, named: name, scale: scale, precision: precision,
    perceptualPrecision: perceptualPrecision, record: record, filePath: filePath,
    function: function, sourceLocation: sourceLocation)
}
