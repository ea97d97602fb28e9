// The testing library's expectations from XCTest: the same implementation reports through the
// running XCTestCase instead of Swift Testing's issues.
import Foundation
import Scenarios
import ScreenRendering
import SwizzleKitTesting
import UIKitModel
import XCTest

/// A SwizzleKitTestCase that keeps its failures instead of failing, so that the test can look at
/// them (corelibs XCTest has no `XCTExpectFailure`).
final class XCTestReportingTests: SwizzleKitTestCase, @unchecked Sendable {
  // @unchecked Sendable: as its superclass; XCTest runs each case on one thread.
  private var failures: [(message: String, file: String, line: Int)] = []

  override var systemVersion: String { "15.0" }

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    failures.append((description, filePath, lineNumber))
  }

  func testTheModelIsFreshOnTheCaseVersion() {
    // XCTest runs its tests on the main thread.
    MainThread.assumeIsolated {
      XCTAssertEqual(UIDevice.current.systemVersion, "15.0")
      XCTAssertNil(UIApplication.shared.keyWindow)
    }
  }

  func testExpectBarFailsTheCaseAtTheCallersLine() {
    // XCTest runs its tests on the main thread.
    MainThread.assumeIsolated {
      let session = NavigationSession(root: UIViewController())
      expectBar(session.navigationController.navigationBar, ExpectedBar(translationY: 0))
      XCTAssertTrue(failures.isEmpty)
      let line = #line + 1
      expectBar(session.navigationController.navigationBar, ExpectedBar(translationY: -44))
      XCTAssertEqual(failures.count, 1)
      XCTAssertEqual(failures.first?.line, line)
      XCTAssertTrue(failures.first?.file.hasSuffix("XCTestReportingTests.swift") == true)
      XCTAssertTrue(failures.first?.message.contains("offset: expected -44.0, seen 0.0") == true)
    }
  }

  func testSnapshotsAndGoldensRecordThroughXCTest() throws {
    // XCTest runs its tests on the main thread.
    try MainThread.assumeIsolated {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("xctest-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let testFile = directory.appendingPathComponent("FakeTests.swift").path
      _ = NavigationSession(root: UIViewController())
      let frame = try XCTUnwrap(ScreenFrame.current())
      XCTAssertFalse(expectSnapshot(of: frame, named: "x", record: .missing, filePath: testFile))
      XCTAssertTrue(expectSnapshot(of: frame, named: "x", record: .missing, filePath: testFile))
      withRecordMode(.never) {
        _ = GoldenTimeline.check("a\n", named: "g", filePath: testFile)
      }
      XCTAssertEqual(failures.count, 2)
      XCTAssertTrue(failures[0].message.contains("recorded the snapshot"))
      XCTAssertTrue(failures[1].message.contains("the record mode is never"))
    }
  }
}
