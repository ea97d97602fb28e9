// Deferred UI work: the main queue's and the main actor's, run on the main thread with the model,
// at the end of each frame of its run loop or when the test awaits, never beside the model
// (issue #31: the same work raced the model and crashed 3 runs in 12 when a worker thread drained
// the queue whenever it liked).
import Foundation
import SwizzleKitTesting
import Testing
import UIKit

/// A model object carried into main-queue work. The model's classes are not `Sendable` (they are
/// not main-actor isolated yet, as UIKit's are), so Swift 6 code names the fact: the work runs on
/// the main thread, with the model.
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
  @MainActor
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

    @Test("work sent from other threads runs in order, on the main thread, at a turn's end")
    func otherThreads() {
      let ran = RuntimeLock<[Int]>([])
      let onMain = RuntimeLock(true)
      // The main thread waits for the senders, as a test that does not await: nothing runs.
      DispatchQueue.concurrentPerform(iterations: 4) { sender in
        for index in 0..<50 {
          DispatchQueue.main.async {
            onMain.withLock { $0 = $0 && Thread.isMainThread }
            ran.withLock { $0.append(sender * 100 + index) }
          }
        }
      }
      #expect(ran.withLock { $0 }.isEmpty, "nothing ran before the model's turn ended")
      VirtualRunLoop.main.advance(frames: 1)
      let order = ran.withLock { $0 }
      #expect(order.count == 200)
      #expect(onMain.withLock { $0 })
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

extension UIKitModelTests.MainQueueTests {
  @Test("a test isolated to the main actor runs on the process's main thread, as UIKit code does")
  func testsRunOnTheMainThread() {
    #expect(Thread.isMainThread)
    #expect(MainThread.isCurrent)
    #expect(MainThread.runsModelLoop, "swift test's async main handed its drain to the model")
    MainActor.assertIsolated()
  }

  @Test("main-queue blocks and main-actor tasks run in the order they were sent, in one queue")
  func oneOrderForBothKinds() {
    let ran = RuntimeLock<[String]>([])
    DispatchQueue.main.async { ran.withLock { $0.append("async 1") } }
    Task { @MainActor in ran.withLock { $0.append("task 1") } }
    DispatchQueue.main.async { ran.withLock { $0.append("async 2") } }
    Task { @MainActor in ran.withLock { $0.append("task 2") } }
    VirtualRunLoop.main.advance(frames: 1)
    #expect(ran.withLock { $0 } == ["async 1", "task 1", "async 2", "task 2"])
  }

  @Test("a test that awaits lets the work sent before it run first, as the main run loop would")
  func awaitingRunsTheQueue() async {
    let ran = RuntimeLock<[String]>([])
    DispatchQueue.main.async { ran.withLock { $0.append("async") } }
    await Task.yield()
    ran.withLock { $0.append("test") }
    #expect(ran.withLock { $0 } == ["async", "test"])
  }

  @Test("Dispatch's own main-queue work runs while main-queue work keeps sending more")
  func dispatchQueueIsNotStarved() async {
    let done = RuntimeLock(false)
    let rounds = RuntimeLock(0)
    // With `qos:`, Dispatch's own method: the work goes to Dispatch's queue, not the model's.
    DispatchQueue.main.async(qos: .default) { done.withLock { $0 = true } }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // Work on the model's queue that sends more until Dispatch's work ran, or 100,000 rounds.
      @Sendable func again() {
        DispatchQueue.main.async {
          let round = rounds.withLock { count in
            count += 1
            return count
          }
          if done.withLock({ $0 }) || round == 100_000 { continuation.resume() } else { again() }
        }
      }
      again()
    }
    #expect(done.withLock { $0 }, "a turn of the main thread drains both queues")
    #expect(rounds.withLock { $0 } <= 3)
  }

  @Test("Dispatch's own main-queue work is the main actor's, on the main thread")
  func dispatchWorkIsIsolated() async {
    let onMain = RuntimeLock<Bool?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async(qos: .default) {
        // Outside any job: the runtime asks the executor, which checks the thread.
        MainActor.assumeIsolated { onMain.withLock { $0 = Thread.isMainThread } }
        continuation.resume()
      }
    }
    #expect(onMain.withLock { $0 } == true)
  }

  @Test("idle waits count the main thread's queue, and run what waits there")
  func idleWaitsCountTheQueue() {
    let ran = RuntimeLock<[Int]>([])
    DispatchQueue.main.async {
      ran.withLock { $0.append(VirtualRunLoop.main.frameCount) }
      // Sent in the first frame's drain: it waits for the next frame, and keeps the loop busy.
      DispatchQueue.main.async { ran.withLock { $0.append(VirtualRunLoop.main.frameCount) } }
    }
    #expect(VirtualRunLoop.main.busyWork() == ["main-queue work for the next frame"])
    #expect(!VirtualRunLoop.main.isIdle)
    #expect(VirtualRunLoop.main.runUntilIdle(limit: 1))
    #expect(ran.withLock { $0 } == [1, 2], "two frames: the work, then the work it sent")
    #expect(VirtualRunLoop.main.busyWork().isEmpty)
  }

  @Test("work that advances the model runs its frames nested, on the main thread")
  func workThatAdvances() {
    let frames = RuntimeLock<[Int]>([])
    DispatchQueue.main.async {
      VirtualRunLoop.main.advance(frames: 1)
      frames.withLock { $0.append(VirtualRunLoop.main.frameCount) }
    }
    VirtualRunLoop.main.advance(frames: 1)
    #expect(frames.withLock { $0 } == [2], "the work's frame came after the one that ran it")
    #expect(VirtualRunLoop.main.frameCount == 2)
  }
}

/// Virtual deadlines outside the trait (which gives each model test its own scope).
@Suite("MainThread")
struct MainThreadTests {
  /// What an IMP does: a C function pointer, nonisolated, entering the main actor.
  private static let viewAlphaIMP: @convention(c) (id, SEL, Double) -> Double = { me, _, alpha in
    MainThread.assumeIsolated(with: me, alpha) { me, alpha in
      let view = me.receiver(as: UIView.self)
      view.alpha = alpha
      return view.alpha
    }
  }

  private struct Refused: Error, Equatable {}

  @MainActor
  @Test("assumeIsolated runs its body there and then, with the values given, and passes its error")
  func assumeIsolated() {
    let view = UIView()
    let set = MainThreadTests.viewAlphaIMP(view.passUnretained(), Selector("setAlpha:").sel, 0.25)
    #expect(set == 0.25 && view.alpha == 0.25)
    #expect(MainThread.assumeIsolated { Thread.isMainThread })
    #expect(
      MainThread.assumeIsolated(with: 1, 2, 3, 4, 5) { a, b, c, d, e in [a, b, c, d, e] }
        == [1, 2, 3, 4, 5])
    #expect(throws: Refused()) {
      try MainThread.assumeIsolated(with: view) { (_: UIView) throws(Refused) in throw Refused() }
    }
  }

  @Test("asyncAfter on another queue, or outside a scope, keeps Dispatch's real clock")
  func asyncAfterOutsideAScope() async {
    // The gate keeps the model's tests, and their scopes, away meanwhile.
    await ModelGate.shared.holding {
      let done = DispatchSemaphore(value: 0)
      let start = DispatchTime.now()
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { done.signal() }
      #expect(done.wait(timeout: .now() + 10) == .success)
      #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 50_000_000)
      // No scope: the main queue's work runs on the real clock, on the main thread's loop.
      DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { done.signal() }
      #expect(done.wait(timeout: .now() + 10) == .success)
    }
  }

  @Test("asyncAfter work still waiting for a frame when the scope ends goes to the real clock")
  func delayedWorkOutlivesTheScope() async {
    await ModelGate.shared.holding {
      let done = DispatchSemaphore(value: 0)
      await MainThread.withVirtualDeadlines {
        // Sent, and no frame ends before the scope does.
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { done.signal() }
        #expect(await VirtualRunLoop.main.busyWork().contains("asyncAfter work for the next frame"))
      }
      #expect(done.wait(timeout: .now() + 10) == .success, "handed to Dispatch, not dropped")
    }
  }

  @Test("a scope inside a scope runs its body alone, and the outer one's end is the end")
  func nestedScopes() async {
    await ModelGate.shared.holding {
      let done = DispatchSemaphore(value: 0)
      await MainThread.withVirtualDeadlines {
        await MainThread.withVirtualDeadlines {
          DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { done.signal() }
        }
        #expect(
          await VirtualRunLoop.main.busyWork().contains("asyncAfter work for the next frame"),
          "still virtual after the inner scope")
      }
      #expect(done.wait(timeout: .now() + 10) == .success)
    }
  }

  @Test("the model advanced off the main thread is reported, once an advance, and runs no work")
  func offTheMainThread() async {
    // Outside the trait, which would record the advance as an issue of the test: this test
    // stands for one that forgot @MainActor.
    await ModelGate.shared.holding {
      let ranOnMain = RuntimeLock<Bool?>(nil)
      let before = MainThread.offMainThreadAdvances
      UIKitModelIssues.removeAll()
      await Task.detached {
        DispatchQueue.main.async { ranOnMain.withLock { $0 = Thread.isMainThread } }
        // The compiler refuses an advance from off the main actor; code that tells it the
        // thread is the main one when it is not (an IMP or a hook's closure called from another
        // thread) reaches the model here all the same.
        MainThread.assumeIsolated { VirtualRunLoop.main.advance(frames: 2) }
      }.value
      #expect(MainThread.offMainThreadAdvances == before + 1)
      #expect(
        UIKitModelIssues.all.contains {
          if case .offMainThread = $0 { true } else { false }
        })
      // This task resumed after the work, sent before it, ran: on the main thread, not in the
      // worker's frames.
      await MainActor.run {}
      #expect(ranOnMain.withLock { $0 } == true)
      await VirtualRunLoop.main.reset()
    }
  }

  @Test("a scope beside a scope, from another task, runs its body alone; the first one ends it")
  func scopeBesideAScope() async {
    await ModelGate.shared.holding {
      let done = DispatchSemaphore(value: 0)
      await MainThread.withVirtualDeadlines {
        await Task.detached {
          // No task-local scope here: the compare-and-exchange finds deadlines virtual already.
          await MainThread.withVirtualDeadlines {
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { done.signal() }
          }
        }.value
        #expect(
          await VirtualRunLoop.main.busyWork().contains("asyncAfter work for the next frame"),
          "the second scope's end left deadlines virtual and its work waiting")
      }
      #expect(done.wait(timeout: .now() + 10) == .success, "handed to Dispatch by the first")
    }
  }

  @Test("main-queue work sent from a worker while no test runs the model runs on the main thread")
  func workWithoutAModel() async {
    // The gate keeps model tests away: their idle waits count the model's queue.
    await ModelGate.shared.holding {
      let onMain = RuntimeLock<Bool?>(nil)
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async {
          onMain.withLock { $0 = Thread.isMainThread }
          continuation.resume()
        }
      }
      #expect(onMain.withLock { $0 } == true)
    }
  }
}
