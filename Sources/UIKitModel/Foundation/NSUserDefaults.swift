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
  // nonisolated(unsafe): the model is used on the main thread (MainThread); the store is
  // replaced at launches and resets, there. Not @MainActor: Foundation's UserDefaults is not.
  nonisolated(unsafe) private static var current = NSUserDefaults()

  /// The model's defaults.
  public static var standard: NSUserDefaults { current }

  /// Starts the model's defaults over, empty.
  static func reset() { current = NSUserDefaults() }

  private var values: [String: Any] = [:]

  private init() {}

  /// Stores `value` for `key`; nil removes it. Only property-list values are kept, as
  /// Foundation keeps only them: strings, numbers (integers of any width, floating point,
  /// Booleans), `Data`, `Date`, and arrays and string-keyed dictionaries of them. Anything else
  /// is refused with ``UIKitModelIssue/nonPropertyListValue(key:type:)`` (Foundation raises) and
  /// the previous value kept.
  public func set(_ value: Any?, forKey key: String) {
    guard let value else {
      values[key] = nil
      return
    }
    guard NSUserDefaults.isPropertyList(value) else {
      UIKitModelIssues.report(.nonPropertyListValue(key: key, type: "\(type(of: value))"))
      return
    }
    values[key] = value
  }

  /// Stores a Boolean.
  public func set(_ value: Bool, forKey key: String) { values[key] = value }
  /// Stores a number.
  public func set(_ value: Double, forKey key: String) { values[key] = value }
  /// Stores a number.
  public func set(_ value: Float, forKey key: String) { values[key] = Double(value) }
  /// Stores a number, exactly (an `Int` reads back as itself, 2⁵³ + 1 and `Int.max` included).
  public func set(_ value: Int, forKey key: String) { values[key] = value }

  /// The value for `key`, if any.
  public func object(forKey key: String) -> Any? { values[key] }

  /// The Boolean for `key`, as Foundation coerces it: a Boolean; a number other than 0; the
  /// strings "YES" and "true" (any case) and one whose leading integer is not 0 ("1");
  /// "NO", "false", "0" and anything else are false; false when absent.
  public func bool(forKey key: String) -> Bool {
    if let text = values[key] as? String {
      let word = text.trimmingCharacters(in: .whitespaces).lowercased()
      return ["yes", "true"].contains(word) || (text as NSString).integerValue != 0
    }
    switch NSUserDefaults.number(values[key]) {
    case .integer(let value): return value != 0
    case .floating(let value): return value != 0 && !value.isNaN
    case .none: return false
    }
  }

  /// The number for `key` as a `Double`: a number, or the leading number of a string ("1.5",
  /// " 42", "1e300"), as NSString's `doubleValue` reads it; 0 when absent or not a number.
  public func double(forKey key: String) -> Double {
    switch NSUserDefaults.number(values[key]) {
    case .integer(let value): Double(value)
    case .floating(let value): value
    case .none: 0
    }
  }

  /// The number for `key` as a `Float`; 0 when absent.
  public func float(forKey key: String) -> Float { Float(double(forKey: key)) }

  /// The number for `key` as an `Int`: an integer exactly, a floating-point number truncated
  /// towards zero and held to `Int.min...Int.max` (NaN is 0), the leading integer of a string
  /// as NSString's `integerValue` reads it ("42", "42abc", "1.5" and "1e300" are 42, 42, 1
  /// and 1); 0 when absent. Never traps.
  public func integer(forKey key: String) -> Int {
    switch NSUserDefaults.number(values[key], wantsInteger: true) {
    case .integer(let value): value
    case .floating(let value): NSUserDefaults.clampedInteger(value)
    case .none: 0
    }
  }

  /// `value` truncated towards zero, held to `Int`'s range; NaN is 0.
  static func clampedInteger(_ value: Double) -> Int {
    if value.isNaN { return 0 }
    // 2^63, the first Double above Int.max (which Double cannot hold exactly).
    if value >= 0x1p63 { return .max }
    if value <= -0x1p63 { return .min }
    return Int(value)
  }

  /// A stored number, read as an integer when it is one and fits, else as floating point.
  private enum Number {
    case integer(Int)
    case floating(Double)
  }

  private static func number(_ value: Any?, wantsInteger: Bool = false) -> Number? {
    switch value {
    case let value as Bool: return .integer(value ? 1 : 0)
    case let value as Int: return .integer(value)
    case let value as any BinaryInteger:
      if let exact = Int(exactly: value) { return .integer(exact) }
      return .floating(Double(value))
    case let value as Double: return .floating(value)
    case let value as Float: return .floating(Double(value))
    case let value as CGFloat: return .floating(Double(value))
    case let value as NSNumber: return .floating(value.doubleValue)
    case let text as String:
      // As Foundation's NSString reads a number: the leading part that is one ("42abc" is 42),
      // 0 for none; an integer read gives `integerValue` ("1e300" is 1), a double
      // `doubleValue` ("1e300" is 1e300).
      let string = text as NSString
      return wantsInteger ? .integer(string.integerValue) : .floating(string.doubleValue)
    default: return nil
    }
  }

  /// Whether `value` is a property-list value (what Foundation's defaults store), nested at
  /// most ``maximumDepth`` levels. Read without bridging to Foundation's classes (which would
  /// convert a nested array level by level, deeper than the stack goes), one level at a time.
  static func isPropertyList(_ value: Any) -> Bool {
    var pending: [(Any, depth: Int)] = [(value, 0)]
    while let (item, depth) = pending.popLast() {
      guard depth <= maximumDepth else { return false }
      switch item {
      case is String, is Bool, is any BinaryInteger, is Double, is Float, is CGFloat, is Data,
        is Date:
        continue
      case let array as [Any]:
        pending.append(contentsOf: array.map { ($0, depth + 1) })
      case let dictionary as [String: Any]:
        pending.append(contentsOf: dictionary.values.map { ($0, depth + 1) })
      default:
        // A Foundation number as itself, not an array bridged into one.
        guard type(of: item) is NSNumber.Type else { return false }
      }
    }
    return true
  }

  /// How deep arrays and dictionaries may nest in a value: 512 levels.
  static let maximumDepth = 512

  /// Removes the value for `key`.
  public func removeObject(forKey key: String) { values[key] = nil }

  /// Does nothing (the store is in memory) and answers true, as Foundation's does on success.
  @discardableResult
  public func synchronize() -> Bool { true }

  /// Every key and value.
  public func dictionaryRepresentation() -> [String: Any] { values }
}
