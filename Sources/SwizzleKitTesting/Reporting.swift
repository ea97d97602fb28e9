// One way for the testing library's expectations to fail a test, whichever library runs it:
// `Issue.record` under Swift Testing, the current test case's failure under XCTest.
import Foundation
import Synchronization
// The expectations take their caller's place through Swift Testing's `#_sourceLocation`, a
// macro a default argument expands in the caller's file: an XCTest file that imports only this
// module must see it too, so the module brings Swift Testing along.
@_exported public import Testing
public import UIKitModel
public import XCTest

/// Where the expectations' failures go: Swift Testing's issue when a Swift Testing test is
/// running (`Test.current`), else the running XCTest case's failure.
enum TestReporter {
  /// Fails the running test with `message` at `location`.
  static func fail(_ message: String, at location: Testing.SourceLocation) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: location)
    } else if let testCase = SwizzleKitTestCase.running.withLock({ $0 }) {
      testCase.recordFailure(
        withDescription: message, inFile: location.filePath, atLine: location.line,
        expected: true)
    } else {
      // An XCTestCase that is not a SwizzleKitTestCase: XCTest finds the running case itself,
      // and the message carries the caller's place.
      XCTFail("\(location.fileID):\(location.line): \(message)")
    }
  }
}

/// The XCTest form of the `.uiKitModel` trait: each test starts on a freshly reset model (on
/// ``device`` running ``systemVersion``), and the testing library's expectations
/// (`expectBar`, `expectScenario`, `expectSnapshot`, `GoldenTimeline.check`) fail the test at
/// the caller's line.
///
/// ```swift
/// final class BarTests: SwizzleKitTestCase {
///   override var systemVersion: String { "15.0" }
///   func testPush() {
///     let session = NavigationSession(root: UIViewController())
///     expectBar(session.navigationController.navigationBar, ExpectedBar(hidden: false))
///   }
/// }
/// ```
///
/// XCTest runs its tests one at a time on the main thread, so no gate is needed against the
/// Swift Testing tests of the same binary (`swift test` runs the two libraries one after the
/// other). XCTest's `main` is synchronous: main-queue work sent through the model runs at the end
/// of the model's next frame on the main thread, and `asyncAfter` keeps the real clock
/// (`MainThread`).
open class SwizzleKitTestCase: XCTestCase, @unchecked Sendable {
  // @unchecked Sendable: XCTestCase is not Sendable; XCTest creates and runs each case on one
  // thread, and this class adds no stored state.

  /// The test case running now, for the expectations' failures (nil between tests).
  static let running = Mutex<SwizzleKitTestCase?>(nil)

  /// The device each test's model is reset to (an iPhone 8 unless overridden).
  open var device: DeviceProfile { .iPhone8 }
  /// The system version each test's model is reset to ("13.0" unless overridden).
  open var systemVersion: String { "13.0" }
  /// The SDK the application is taken to be built with (nil: the system version's).
  open var sdkVersion: String? { nil }

  /// Resets the model, then runs the test with this case as the place failures go.
  override open func invokeTest() {
    // XCTest runs its tests on the main thread, where the model runs.
    let (device, systemVersion, sdkVersion) = (device, systemVersion, sdkVersion)
    MainThread.assumeIsolated {
      UIApplication.resetModel(device: device, systemVersion: systemVersion)
      UIDevice.current.linkedSDKVersion = sdkVersion
    }
    SwizzleKitTestCase.running.withLock { $0 = self }
    defer { SwizzleKitTestCase.running.withLock { $0 = nil } }
    ReferenceFiles.$counters.withValue(ReferenceFiles.Counters()) { super.invokeTest() }
  }
}
