// The wall time of a case's measured loop, without its set-up, for the clock mode.
import Synchronization

enum Stopwatch {
  /// Nanoseconds of the last loop run through `time(_:)`, or -1 when none was.
  static let lastLoop = Atomic<Int>(-1)

  /// Runs `loop` and records its wall time. Each case wraps its repeated operation in this, so
  /// that the clock mode divides the loop's time, not the set-up's, by the iteration count; under
  /// callgrind the two clock reads are the same in both runs and cancel out.
  @inline(__always)
  static func time<Result, Failure: Error>(
    _ loop: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let start = ContinuousClock.now
    let result = try loop()
    lastLoop.store((ContinuousClock.now - start).nanoseconds, ordering: .relaxed)
    return result
  }
}

extension Duration {
  /// The duration in whole nanoseconds.
  var nanoseconds: Int {
    let (seconds, attoseconds) = components
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  }
}
