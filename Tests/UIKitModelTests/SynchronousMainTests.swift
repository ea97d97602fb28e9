// The main queue where `main` is synchronous (XCTest here, the lab and the benchmark elsewhere):
// no loop of the model's runs on the main thread, and the run loop drains Dispatch's main queue
// at the end of its frames.
import Foundation
import ObjCRuntime
import SwizzleKitTesting
import UIKitModel
import XCTest

/// Under XCTest's synchronous `main`, on the main thread.
final class SynchronousMainTests: SwizzleKitTestCase, @unchecked Sendable {
  // @unchecked Sendable: as its superclass; XCTest runs each case on one thread.

  func testTheMainThreadRunsNoLoopOfTheModels() {
    XCTAssertTrue(Thread.isMainThread)
    XCTAssertTrue(MainThread.isCurrent)
    XCTAssertFalse(MainThread.runsModelLoop)
  }

  func testAsyncWorkRunsAtTheEndOfTheNextFrameInOrder() {
    // XCTest runs its tests on the main thread.
    MainThread.assumeIsolated {
      let ran = RuntimeLock<[Int]>([])
      for index in 0..<3 { DispatchQueue.main.async { ran.withLock { $0.append(index) } } }
      XCTAssertEqual(ran.withLock { $0 }, [])
      VirtualRunLoop.main.advance(frames: 1)
      XCTAssertEqual(ran.withLock { $0 }, [0, 1, 2])
    }
  }

  func testRealClockAsyncAfterRunsAtTheFirstFrameAfterItsDeadline() {
    // XCTest runs its tests on the main thread.
    MainThread.assumeIsolated {
      let ran = RuntimeLock(false)
      DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { ran.withLock { $0 = true } }
      // Due on the real clock (no trait scope here): once it is, the next frame runs it.
      let due = Date().addingTimeInterval(10)
      while !ran.withLock({ $0 }), Date() < due {
        Thread.sleep(forTimeInterval: 0.02)
        VirtualRunLoop.main.advance(frames: 1)
      }
      XCTAssertTrue(ran.withLock { $0 })
    }
  }

  func testMainActorTasksRunAtAFramesEnd() {
    // XCTest runs its tests on the main thread.
    MainThread.assumeIsolated {
      let ran = RuntimeLock(false)
      Task { @MainActor in ran.withLock { $0 = true } }
      let due = Date().addingTimeInterval(10)
      while !ran.withLock({ $0 }), Date() < due {
        VirtualRunLoop.main.advance(frames: 1)
        if !ran.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
      }
      XCTAssertTrue(ran.withLock { $0 })
    }
  }
}
