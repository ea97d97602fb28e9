// `DispatchQueue.main.asyncAfter` on the model's virtual clock, while a test holds the main queue.
public import Dispatch

extension DispatchQueue {
  /// Sends `work` to the queue at `deadline`. For the main queue, while the testing library's
  /// trait holds it (``MainQueueHold``), the delay runs on the model's virtual clock: the work
  /// reaches the queue once that much virtual time has passed, and runs at the end of that
  /// frame, as iOS runs it at the turn of the main run loop after its deadline (Apple's Dispatch
  /// documentation: the main queue's work runs on the main thread, which the main run loop
  /// drives; `asyncAfter` submits the work at the deadline, not before). Idle waits wait
  /// for a delay of up to 1.5 s, as EarlGrey waits for `dispatch_after` (and not for a longer
  /// one). Every other queue, and the main queue without a hold (the lab, the benchmark), keeps
  /// Dispatch's real clock.
  ///
  /// The delay is the deadline less `DispatchTime.now()`: write the deadline as iOS code does,
  /// `.now() + 0.3`. It counts from the end of the frame the work was sent in, when the model's
  /// thread puts it on the clock, whichever thread sent it, and the work runs at the end of the
  /// frame it falls due in: up to two frames later than on a phone. Work still waiting for that
  /// first frame when the test's hold ends goes to Dispatch's real clock (and is dropped if
  /// another test holds the queue by then); work on the virtual clock goes with the model when
  /// the next test resets it, as a timer does. Passing `qos` or `flags` calls Dispatch's own
  /// method, on the real clock.
  ///
  /// This method shadows Dispatch's for calls that pass no `qos` and no `flags`, the way iOS code
  /// writes them: Swift prefers the declaration that needs no default arguments.
  public func asyncAfter(
    deadline: DispatchTime, execute work: @escaping @Sendable @convention(block) () -> Void
  ) {
    if isMainQueue {
      let now = DispatchTime.now().uptimeNanoseconds
      let nanoseconds = deadline.uptimeNanoseconds > now ? deadline.uptimeNanoseconds - now : 0
      if MainQueueHold.send(after: Double(nanoseconds) / 1e9, work) { return }
    }
    asyncAfter(deadline: deadline, qos: .unspecified, flags: [], execute: work)
  }

  /// Whether this is the main queue. On Linux each `DispatchQueue.main` is a new wrapper of the
  /// one queue, so identity does not tell: a key set on the queue itself does.
  var isMainQueue: Bool {
    _ = DispatchQueue.mainQueueMarked
    return getSpecific(key: DispatchQueue.mainQueueKey) != nil
  }

  /// Whether the caller runs on the main queue (on Linux, under `dispatch_main`, that is not
  /// always the main thread).
  static var isRunningMainQueue: Bool {
    _ = DispatchQueue.mainQueueMarked
    return DispatchQueue.getSpecific(key: DispatchQueue.mainQueueKey) != nil
  }

  private static let mainQueueKey = DispatchSpecificKey<Bool>()
  private static let mainQueueMarked: Void = DispatchQueue.main.setSpecific(
    key: mainQueueKey, value: true)
}
