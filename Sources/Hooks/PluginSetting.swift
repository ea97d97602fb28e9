// A plugin's setting or mode, stored one way: a value any thread reads and sets, and a scoped
// change that puts the previous value back.
public import ObjCRuntime

/// One setting of a plugin (its mode, its technique, a settings value): what any thread reads
/// and sets, behind a lock, and ``withValue(_:_:)`` to run code under another value and put the
/// previous one back however the code ends (how a scenario runs a seed mode, then the fixed one,
/// and how a test changes a setting for itself alone).
///
/// ```swift
/// public struct MyPlugin: DiscoverablePlugin {
///   /// The code path the plugin runs, `.fixed` until set.
///   public static let mode = PluginSetting(MyMode.fixed)
/// }
///
/// MyPlugin.mode.value = .seed                     // from now on
/// MyPlugin.mode.withValue(.seed) { runTheSeed() }  // for this call only
/// MyPlugin.mode.update { $0 = .fixed }            // read and change under one lock
/// ```
///
/// The value is guarded by the runtime's `RuntimeLock`, which ThreadSanitizer can check; give it
/// a type of non-zero size (a `Void` setting would show TSan a race that is none).
///
/// Two threads that change one setting with ``withValue(_:_:)`` at once each put back the value
/// they found, so the last to finish wins: change a setting from one thread at a time, as the
/// model's thread runs scenarios.
public final class PluginSetting<Value: Sendable>: Sendable {
  // The runtime's lock, not `Mutex`, so that ThreadSanitizer sees the locking (it cannot see the
  // standard library's). Inlinable, so that a plugin's reads specialize for its value's type: the
  // generic, unspecialized path cost a bar-layer swipe frame 5,800 instructions (19 %).
  @usableFromInline let storage: RuntimeLock<Value>

  /// A setting whose value is `value` until set.
  @inlinable
  public init(_ value: Value) {
    storage = RuntimeLock(value)
  }

  /// The value in force. Reading it and setting it are each atomic; to change part of a value
  /// from what it is, use ``update(_:)``.
  @inlinable
  public var value: Value {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }

  /// Changes the value in place under the lock, and returns what `body` returned. `body` must
  /// not read or change this setting: the lock is not recursive, and the thread would wait for
  /// itself forever.
  @inlinable @discardableResult
  public func update<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withLock(body)
  }

  /// Runs `body` with the value set to `value`, then puts the previous value back, also when
  /// `body` throws; returns what `body` returned.
  @inlinable @discardableResult
  public func withValue<Result, Failure: Error>(
    _ value: Value, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let previous = storage.withLock { stored in
      defer { stored = value }
      return stored
    }
    defer { storage.withLock { $0 = previous } }
    return try body()
  }
}

extension PluginSetting {
  /// Runs `body` once under each of `values` in turn, with ``withValue(_:_:)``: how a scenario
  /// runs the seed's code path and then the fixed one. The previous value is back after each
  /// run and when `body` throws (the values after it are then not run).
  ///
  /// ```swift
  /// MyPlugin.mode.withEach([.seed, .fixed]) { mode in
  ///   context.mark("\(mode): launched")
  /// }
  /// ```
  @inlinable
  public func withEach<Values: Sequence<Value>, Failure: Error>(
    _ values: Values, _ body: (Value) throws(Failure) -> Void
  ) throws(Failure) {
    for value in values {
      try withValue(value) { () throws(Failure) in try body(value) }
    }
  }
}
