// Observers that watch while a body runs: the channel the diagnostics and the plugins' log share.

/// Functions that are offered every event while a body runs, each registered for the length of
/// its ``watching(_:_:)`` call: tests run concurrently, so each watches without replacing
/// another's. The caller says what an observer's answer means (`Void`, or whether it kept the
/// event).
package final class ScopedObservers<Event, Answer>: Sendable {
  package typealias Observer = @Sendable (Event) -> Answer

  private let state = RuntimeLock<(nextID: Int, observers: [Int: Observer])>((0, [:]))

  package init() {}

  /// The observers watching now.
  package var current: [Observer] { state.withLock { Array($0.observers.values) } }

  /// Runs `body` with `observer` among the observers until it returns.
  package func watching<Result, Failure: Error>(
    _ observer: @escaping Observer, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let id = state.withLock { state in
      state.nextID += 1
      state.observers[state.nextID] = observer
      return state.nextID
    }
    defer { state.withLock { _ = $0.observers.removeValue(forKey: id) } }
    return try body()
  }
}
