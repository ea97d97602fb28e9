// User defaults that live with the model: what the seeds store in `NSUserDefaults` (a page's bar
// alpha, a gesture flag) stays in the process and starts empty at each launch and model reset,
// never touching the user's disk.
import Foundation

/// Foundation's user defaults as the seeds use them (`[NSUserDefaults standardUserDefaults]`),
/// kept in memory with the model: ``standard`` starts empty at each launch
/// (`UIApplication.launch`) and each model reset, so a test or a scenario never sees another's
/// values, and nothing is written to the user's disk (Foundation's `UserDefaults` would).
///
/// ```swift
/// NSUserDefaults.standard.set(0.5, forKey: "_alpha")
/// let alpha = NSUserDefaults.standard.float(forKey: "_alpha")   // 0.5
/// ```
public final class NSUserDefaults {
  // nonisolated(unsafe): the model is confined to one thread at a time (VirtualRunLoop); the
  // store is replaced at launches and resets, on that thread.
  nonisolated(unsafe) private static var current = NSUserDefaults()

  /// The model's defaults.
  public static var standard: NSUserDefaults { current }

  /// Starts the model's defaults over, empty.
  static func reset() { current = NSUserDefaults() }

  private var values: [String: Any] = [:]

  private init() {}

  /// Stores `value` for `key`; nil removes it.
  public func set(_ value: Any?, forKey key: String) {
    values[key] = value
  }

  /// Stores a Boolean.
  public func set(_ value: Bool, forKey key: String) { values[key] = value }
  /// Stores a number.
  public func set(_ value: Double, forKey key: String) { values[key] = value }
  /// Stores a number.
  public func set(_ value: Float, forKey key: String) { values[key] = Double(value) }
  /// Stores a number.
  public func set(_ value: Int, forKey key: String) { values[key] = value }

  /// The value for `key`, if any.
  public func object(forKey key: String) -> Any? { values[key] }

  /// The Boolean for `key`: a stored Boolean, or a number other than 0; false when absent.
  public func bool(forKey key: String) -> Bool {
    switch values[key] {
    case let value as Bool: value
    case let value as Double: value != 0
    case let value as Float: value != 0
    case let value as Int: value != 0
    case let value as NSNumber: value.boolValue
    default: false
    }
  }

  /// The number for `key` as a `Double`; 0 when absent or not a number.
  public func double(forKey key: String) -> Double {
    switch values[key] {
    case let value as Double: value
    case let value as Float: Double(value)
    case let value as Int: Double(value)
    case let value as Bool: value ? 1 : 0
    case let value as CGFloat: Double(value)
    case let value as NSNumber: value.doubleValue
    default: 0
    }
  }

  /// The number for `key` as a `Float`; 0 when absent.
  public func float(forKey key: String) -> Float { Float(double(forKey: key)) }

  /// The number for `key` as an `Int` (truncated); 0 when absent.
  public func integer(forKey key: String) -> Int {
    let value = double(forKey: key)
    return value.isFinite ? Int(value) : 0
  }

  /// Removes the value for `key`.
  public func removeObject(forKey key: String) { values[key] = nil }

  /// Does nothing (the store is in memory) and answers true, as Foundation's does on success.
  @discardableResult
  public func synchronize() -> Bool { true }

  /// Every key and value.
  public func dictionaryRepresentation() -> [String: Any] { values }
}
