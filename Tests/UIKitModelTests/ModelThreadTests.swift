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
      // The first thread runs a timer that waits; the second advances meanwhile.
      let inside = DispatchSemaphore(value: 0)
      VirtualRunLoop.main.perform(after: 0) {
        inside.signal()
        Thread.sleep(forTimeInterval: 10)
      }
      Thread.detachNewThread { VirtualRunLoop.main.advance(frames: 1) }
      inside.wait()
      VirtualRunLoop.main.advance(frames: 1)
    }
  }

  @Test("main-queue work that advances the model while the model's thread waits keeps the rule")
  func mainQueueWorkAdvances() async {
    await ModelGate.shared.holding {
      let frames = RuntimeLock<[Int]>([])
      VirtualRunLoop.main.reset()
      await MainQueueHold.holding {
        DispatchQueue.main.async {
          VirtualRunLoop.main.advance(frames: 1)
          frames.withLock { $0.append(VirtualRunLoop.main.frameCount) }
        }
        VirtualRunLoop.main.advance(frames: 1)
        VirtualRunLoop.main.reset()
      }
      #expect(frames.withLock { $0 } == [2], "the work's frame came after the model's")
    }
  }

  @Test("one thread after another, and a nested advance on one thread, are the rule kept")
  func oneAtATime() async {
    await ModelGate.shared.holding {
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        VirtualRunLoop.main.perform(after: 0) { VirtualRunLoop.main.advance(frames: 1) }
        VirtualRunLoop.main.advance(frames: 2)
        done.signal()
      }
      done.wait()
      VirtualRunLoop.main.advance(frames: 1)
      VirtualRunLoop.main.reset()
    }
  }
}
