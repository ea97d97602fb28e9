// `DispatchQueue.main.async` and `asyncAfter` as iOS code writes them, run by the model's main
// thread in the order they were sent, `asyncAfter` on the virtual clock (MainThread).
public import Dispatch

extension DispatchQueue {
  /// Sends `work` to the queue. For the main queue, in a process whose main thread runs the
  /// model's loop (a test process), the work joins the main actor's jobs in one queue, in the
  /// order both were sent, as on iOS, where the main actor's jobs are main-queue work: it runs
  /// when a test on the main actor awaits, or at the end of the run loop's next frame
  /// (``MainThread``). Every other queue, and the main queue of a process with a synchronous
  /// `main` (the lab), goes to Dispatch, whose main queue the run loop also drains at the end of
  /// a frame on the main thread.
  ///
  /// This method shadows Dispatch's for calls that pass no `group`, `qos` or `flags`, the way
  /// iOS code writes them: Swift prefers the declaration that needs no default arguments.
  public func async(execute work: @escaping @Sendable @convention(block) () -> Void) {
    let main = isMainQueue
    if main, MainThread.executor.send(work) { return }
    async(group: nil, qos: .unspecified, flags: [], execute: work)
    if main { MainThread.noteSentToDispatch() }
  }

  /// Sends `work` to the queue at `deadline`. For the main queue, while the testing library's
  /// traits run a test (``MainThread/withVirtualDeadlines(_:)``), the delay runs on the model's
  /// virtual clock: the work reaches the queue once that much virtual time has passed, and runs
  /// at the end of that frame, as iOS runs it at the turn of the main run loop after its
  /// deadline (Apple's Dispatch documentation: the main queue's work runs on the main thread,
  /// which the main run loop drives; `asyncAfter` submits the work at the deadline, not
  /// before). Idle waits wait for a delay of up to 1.5 s, as EarlGrey waits for
  /// `dispatch_after` (and not for a longer one). Every other queue, and the main queue outside
  /// a test (the lab, the benchmark), keeps Dispatch's real clock.
  ///
  /// The delay is the deadline less `DispatchTime.now()`: write the deadline as iOS code does,
  /// `.now() + 0.3`. It counts from the end of the frame the work was sent in, when the run loop
  /// puts it on the clock, whichever thread sent it, and the work runs at the end of the frame
  /// it falls due in: up to two frames later than on a phone. Work still waiting for that first
  /// frame when the test ends goes to Dispatch's real clock (and is dropped if another test runs
  /// by then); work on the virtual clock goes with the model when the next test resets it, as a
  /// timer does. Passing `qos` or `flags` calls Dispatch's own method, on the real clock.
  ///
  /// This method shadows Dispatch's for calls that pass no `qos` and no `flags`, the way iOS code
  /// writes them: Swift prefers the declaration that needs no default arguments.
  public func asyncAfter(
    deadline: DispatchTime, execute work: @escaping @Sendable @convention(block) () -> Void
  ) {
    guard isMainQueue else {
      return asyncAfter(deadline: deadline, qos: .unspecified, flags: [], execute: work)
    }
    let now = DispatchTime.now().uptimeNanoseconds
    let nanoseconds = deadline.uptimeNanoseconds > now ? deadline.uptimeNanoseconds - now : 0
    if MainThread.send(after: Double(nanoseconds) / 1e9, work) { return }
    // The real clock: at the deadline the work is sent as `async` sends it, so that it joins the
    // main actor's jobs in order (a test process) or is drained at the next frame (the lab).
    DispatchQueue.global().asyncAfter(deadline: deadline, qos: .unspecified, flags: []) {
      DispatchQueue.main.async(execute: work)
    }
  }

  /// Whether this is the main queue. On Linux each `DispatchQueue.main` is a new wrapper of the
  /// one queue, so identity does not tell: a key set on the queue itself does.
  var isMainQueue: Bool {
    _ = DispatchQueue.mainQueueMarked
    return getSpecific(key: DispatchQueue.mainQueueKey) != nil
  }

  private static let mainQueueKey = DispatchSpecificKey<Bool>()
  private static let mainQueueMarked: Void = DispatchQueue.main.setSpecific(
    key: mainQueueKey, value: true)
}
