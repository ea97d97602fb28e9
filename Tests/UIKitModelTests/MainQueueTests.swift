// Deferred UI work: Dispatch's main queue, held while a model test runs, lets its work through
// at the end of each turn of the model's run loop, never beside the model (issue #31: the same
// work raced the model and crashed 3 runs in 12 when the process's main thread drained the
// queue whenever it liked).
import Foundation
import SwizzleKitTesting
import Testing
import UIKit

/// A model object carried into main-queue work. The model's classes are not `Sendable` (they are
/// not main-actor isolated yet, as UIKit's are), so Swift 6 code names the fact: the work runs
/// while the model waits for it.
private struct WhileTheModelWaits<Value>: @unchecked Sendable {
  let value: Value
}

/// A page that defers what it does to its bar, as UI code does in `viewDidLoad`.
private final class DeferringPage: UIViewController {
  let log = RuntimeLock<[String]>([])

  override func viewDidLoad() {
    super.viewDidLoad()
    let page = WhileTheModelWaits(value: self)
    DispatchQueue.main.async {
      page.value.navigationController?.navigationBar.barTintColor = .red
      page.value.log.withLock { $0.append("async at \(VirtualRunLoop.main.currentTime)") }
    }
    Task { @MainActor in
      page.value.log.withLock { $0.append("task at \(VirtualRunLoop.main.currentTime)") }
    }
  }
}

extension UIKitModelTests {
  @Suite("The main queue")
  struct MainQueueTests {
    @Test("work a page defers in viewDidLoad runs at the end of the turn, not at once")
    func deferredWorkRunsAtTheEndOfATurn() {
      let page = DeferringPage()
      let navigation = UINavigationController(rootViewController: UIViewController())
      let session = NavigationSession(navigationController: navigation)
      navigation.pushViewController(page, animated: true)
      #expect(page.log.withLock { $0 }.isEmpty, "sent, not run: the turn has not ended")
      #expect(navigation.navigationBar.barTintColor == nil)
      session.advance(frames: 1)
      let first = "\(VirtualRunLoop.frameDuration)"
      #expect(page.log.withLock { $0 } == ["async at \(first)", "task at \(first)"])
      #expect(navigation.navigationBar.barTintColor == .red)
    }

    @Test("work that the main queue's work sends waits for the next turn")
    func workSentByWorkWaits() {
      let turns = RuntimeLock<[Int]>([])
      DispatchQueue.main.async {
        turns.withLock { $0.append(VirtualRunLoop.main.frameCount) }
        DispatchQueue.main.async { turns.withLock { $0.append(VirtualRunLoop.main.frameCount) } }
      }
      VirtualRunLoop.main.advance(frames: 1)
      #expect(turns.withLock { $0 } == [1])
      VirtualRunLoop.main.advance(frames: 1)
      #expect(turns.withLock { $0 } == [1, 2])
    }

    @Test("work sent from other threads runs in order, at a turn's end, while the model waits")
    func otherThreads() async {
      let ran = RuntimeLock<[Int]>([])
      await withTaskGroup(of: Void.self) { group in
        for sender in 0..<4 {
          group.addTask {
            for index in 0..<50 {
              DispatchQueue.main.async { ran.withLock { $0.append(sender * 100 + index) } }
            }
          }
        }
      }
      #expect(ran.withLock { $0 }.isEmpty, "nothing ran before the model's turn ended")
      VirtualRunLoop.main.advance(frames: 1)
      let order = ran.withLock { $0 }
      #expect(order.count == 200)
      for sender in 0..<4 {
        let sent = order.filter { $0 / 100 == sender }
        #expect(sent == sent.sorted(), "each sender's work ran in the order it was sent")
      }
    }

    @Test("asyncAfter on the main queue waits for virtual time, whatever the real clock says")
    func asyncAfterIsVirtual() async throws {
      let ranAt = RuntimeLock<TimeInterval?>(nil)
      DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) {
        ranAt.withLock { $0 = VirtualRunLoop.main.currentTime }
      }
      try await Task.sleep(for: .milliseconds(600))
      VirtualRunLoop.main.advance(frames: 1)
      #expect(ranAt.withLock { $0 } == nil, "0.6 s passed on the real clock, one frame here")
      VirtualRunLoop.main.advance(by: 0.6)
      let time = try #require(ranAt.withLock { $0 })
      // Counted from the end of the frame it was sent in, run at the end of a frame.
      #expect(abs(time - 0.5) <= 2 * VirtualRunLoop.frameDuration + 1e-9, "ran at \(time)")
    }

    @Test("asyncAfter sent from another thread is scheduled at the end of the model's frame")
    func asyncAfterFromAnotherThread() {
      let ranAt = RuntimeLock<TimeInterval?>(nil)
      let sent = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) {
          ranAt.withLock { $0 = VirtualRunLoop.main.currentTime }
        }
        sent.signal()
      }
      sent.wait()
      VirtualRunLoop.main.advance(by: 0.05)
      #expect(ranAt.withLock { $0 } == nil)
      VirtualRunLoop.main.advance(by: 0.2)
      let time = ranAt.withLock { $0 }
      // Scheduled at the end of the first frame (1/60 s), run a tenth of a second later.
      #expect(time.map { abs($0 - (0.1 + VirtualRunLoop.frameDuration)) <= 0.034 } == true)
    }

    @Test("idle waits wait for an asyncAfter of up to 1.5 s, as EarlGrey does, not a longer one")
    func idleWaitsForShortDelays() {
      let ran = RuntimeLock<[String]>([])
      DispatchQueue.main.asyncAfter(deadline: .now() + 1.0) { ran.withLock { $0.append("1 s") } }
      DispatchQueue.main.asyncAfter(deadline: .now() + 3.0) { ran.withLock { $0.append("3 s") } }
      #expect(VirtualRunLoop.main.busyWork() == ["asyncAfter work for the next frame"])
      VirtualRunLoop.main.advance(frames: 1)
      #expect(VirtualRunLoop.main.busyWork() == ["1 timer"])
      #expect(VirtualRunLoop.main.runUntilIdle(limit: 10))
      // The 1 s work reached the queue in the last frame; one more lets it through.
      VirtualRunLoop.main.advance(frames: 1)
      #expect(ran.withLock { $0 } == ["1 s"])
      #expect(VirtualRunLoop.main.currentTime < 1.5, "the 3 s work was not waited for")
      VirtualRunLoop.main.advance(by: 2)
      #expect(ran.withLock { $0 } == ["1 s", "3 s"])
    }

    @Test("the same deferred work, run 12 times, gives the same timeline every time")
    func deterministic() {
      var traces: Set<[String]> = []
      for _ in 1...12 {
        UIApplication.resetModel()
        let page = DeferringPage()
        let session = NavigationSession(root: UIViewController())
        session.push(page).swipeBack(to: 0.3).swipeBack(to: 0.8)
        #expect(page.log.withLock { $0 }.count == 2)
        traces.insert(session.trace + page.log.withLock { $0 })
      }
      #expect(traces.count == 1)
    }
  }
}

/// The hold itself, outside the trait (which holds the queue for each model test).
@Suite("MainQueueHold")
struct MainQueueHoldTests {
  @Test("asyncAfter on another queue, or without a hold, keeps Dispatch's real clock")
  func asyncAfterWithoutAHold() async {
    // The gate keeps the model's tests, and their holds, away meanwhile.
    await ModelGate.shared.holding {
      let done = DispatchSemaphore(value: 0)
      let start = DispatchTime.now()
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { done.signal() }
      #expect(done.wait(timeout: .now() + 10) == .success)
      #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 50_000_000)
      // No hold: the main queue's work is Dispatch's to run, on the real clock.
      DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { done.signal() }
      #expect(done.wait(timeout: .now() + 10) == .success)
    }
  }

  @Test("asyncAfter work still waiting for a frame when the hold ends goes to the real clock")
  func delayedWorkOutlivesTheHold() async {
    await ModelGate.shared.holding {
      let done = DispatchSemaphore(value: 0)
      await MainQueueHold.holding {
        // Sent, and no frame ends before the hold does.
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { done.signal() }
        #expect(VirtualRunLoop.main.busyWork().contains("asyncAfter work for the next frame"))
      }
      #expect(done.wait(timeout: .now() + 10) == .success, "handed to Dispatch, not dropped")
    }
  }

  @Test("something that waits for the held queue makes the hold give up, saying why")
  func givesUp() async {
    let reasons = RuntimeLock<[String]>([])
    await ModelGate.shared.holding {
      await MainQueueHold.holding(patience: 0.2) {
        // The model's thread waits for the queue, which waits for the model: after the
        // patience, the block lets the queue go and the work runs.
        let ran = DispatchQueue.main.sync { true }
        #expect(ran)
        VirtualRunLoop.main.advance(frames: 1)
      } givenUp: { reason in
        reasons.withLock { $0.append(reason) }
      }
    }
    let said = reasons.withLock { $0 }
    #expect(said.count == 1)
    #expect(said.first?.hasPrefix("the main queue was held 0.2 s without a frame ending") == true)
  }

  @Test("work that runs longer than the patience gives the hold up; the next hold works again")
  func slowWorkThenRecovery() async throws {
    let reasons = RuntimeLock<[String]>([])
    let ran = RuntimeLock(false)
    try await ModelGate.shared.holding {
      await MainQueueHold.holding(patience: 0.2) {
        DispatchQueue.main.async { usleep(400_000) }
        VirtualRunLoop.main.advance(frames: 1)
      } givenUp: { reason in
        reasons.withLock { $0.append(reason) }
      }
      try await Task.sleep(for: .milliseconds(600))
      await MainQueueHold.holding(patience: 0.2) {
        DispatchQueue.main.async { ran.withLock { $0 = true } }
        VirtualRunLoop.main.advance(frames: 1)
      } givenUp: { reason in
        reasons.withLock { $0.append(reason) }
      }
    }
    let said = reasons.withLock { $0 }
    #expect(said.count == 1)
    #expect(said.first?.hasPrefix("work on the main queue did not finish within 0.2 s") == true)
    #expect(ran.withLock { $0 }, "the queue came free, and the next hold held it")
  }

  @Test("SWIZZLEKIT_MAIN_QUEUE_PATIENCE: a positive number of seconds up to a day, else 10")
  func patienceFromTheEnvironment() {
    #expect(MainQueueHold.patience(fromEnvironment: "60") == 60)
    #expect(MainQueueHold.patience(fromEnvironment: "0.5") == 0.5)
    for refused in [nil, "", "ten", "0", "-5", "nan", "inf", "1e9", " 60"] {
      #expect(MainQueueHold.patience(fromEnvironment: refused) == 10, "\(refused ?? "nil")")
    }
  }

  @Test("a hold inside a hold, or beside one, runs its body alone; odd patience is clamped")
  func nestedAndClamped() async {
    let reasons = RuntimeLock<[String]>([])
    await ModelGate.shared.holding {
      await MainQueueHold.holding(patience: .infinity) {
        await MainQueueHold.holding(patience: .nan) {
          DispatchQueue.main.async { reasons.withLock { $0.append("ran") } }
          VirtualRunLoop.main.advance(frames: 1)
        } givenUp: { reason in
          reasons.withLock { $0.append(reason) }
        }
      } givenUp: { reason in
        reasons.withLock { $0.append(reason) }
      }
    }
    #expect(reasons.withLock { $0 } == ["ran"])
  }
}
