// The model's rule about threads, one at a time, checked in builds with the internal checks.
import Foundation
import ObjCRuntime
import SwizzleKitTesting
import Testing
import UIKitModel

@Suite("ModelThread")
struct ModelThreadTests {
  @Test(
    "advancing the model on a second thread while the first is inside stops a checked build",
    .enabled(if: InternalChecks.isEnabled))
  func twoThreadsAtOnce() async {
    await #expect(processExitsWith: .failure) {
      // The first thread runs a timer that waits; the second advances meanwhile. Both tell the
      // compiler they are on the main actor, as an IMP or a hook's closure called from another
      // thread would: the check at run time is what stops them.
      let inside = DispatchSemaphore(value: 0)
      MainThread.assumeIsolated {
        VirtualRunLoop.main.perform(after: 0) {
          inside.signal()
          Thread.sleep(forTimeInterval: 10)
        }
      }
      Thread.detachNewThread {
        MainThread.assumeIsolated { VirtualRunLoop.main.advance(frames: 1) }
      }
      inside.wait()
      MainThread.assumeIsolated { VirtualRunLoop.main.advance(frames: 1) }
    }
  }

  @MainActor
  @Test("a nested advance on the main thread, a timer's that advances, keeps the rule")
  func nestedAdvance() async {
    await ModelGate.shared.holding {
      VirtualRunLoop.main.reset()
      let nested = RuntimeLock<Int?>(nil)
      VirtualRunLoop.main.perform(after: 0) {
        VirtualRunLoop.main.advance(frames: 1)
        nested.withLock { $0 = VirtualRunLoop.main.frameCount }
      }
      VirtualRunLoop.main.advance(frames: 2)
      #expect(nested.withLock { $0 } == 1, "the timer's advance ran its frame")
      #expect(VirtualRunLoop.main.frameCount == 2, "then the outer advance ran to its own end")
      VirtualRunLoop.main.reset()
    }
  }
}
