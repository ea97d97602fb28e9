// The classes the hook tests hook: one method per signature kind, and a log of what ran.
import CABITestSupport
import Hooks
import ObjCRuntime
import Synchronization

/// A C struct of four doubles, passed in memory by the C ABI: the struct rows of the matrix.
typealias Pair = ABIDouble4

extension ABIDouble4: ObjCTypeEncodable {
  /// The encoding of the C struct.
  public static var objcTypeEncoding: String { "{ABIDouble4=dddd}" }

  /// A pair in the first two fields.
  init(x: Double, y: Double) { self.init(a: x, b: y, c: 0, d: 0) }
  var x: Double { a }
  var y: Double { b }
  /// The four fields, to compare.
  var fields: [Double] { [a, b, c, d] }
}

/// A thread-safe list of what ran, in order.
final class Journal: Sendable {
  private let entries = RuntimeLock<[String]>([])

  func note(_ entry: String) { entries.withLock { $0.append(entry) } }

  /// The entries so far, emptying the journal.
  func take() -> [String] {
    entries.withLock { entries in
      defer { entries.removeAll() }
      return entries
    }
  }
}

/// A class with one runtime method per signature kind of the matrix. Each test makes its own
/// subclass (``Fresh``) so that tests running in parallel never hook the same class.
class Meter: ObjCObject {
  let journal = Journal()

  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Meter.self) {
      ObjCMethodDeclaration("record:", Meter.record)
      ObjCMethodDeclaration("scaled:", Meter.scaled)
      ObjCMethodDeclaration("half:", Meter.half)
      ObjCMethodDeclaration("echo:", Meter.echo)
      ObjCMethodDeclaration("moved:", Meter.moved)
      ObjCMethodDeclaration("add:to:", Meter.add)
      ObjCMethodDeclaration.classMethod("tripled:", Meter.tripled)
    }
  }

  /// `v@:q`: notes the value.
  static let record: @convention(c) (id, SEL, Int) -> Void = { me, _, value in
    me.takeUnretainedObject(as: Meter.self)?.journal.note("record(\(value))")
  }
  /// `q@:q`: ten times the value.
  static let scaled: @convention(c) (id, SEL, Int) -> Int = { _, _, value in value * 10 }
  /// `d@:d`: half the value.
  static let half: @convention(c) (id, SEL, Double) -> Double = { _, _, value in value / 2 }
  /// `@@:@`: its argument (returned retained, as IMPs return objects).
  static let echo: @convention(c) (id, SEL, id?) -> id? = { _, _, object in
    object?.takeUnretainedObject().passRetained()
  }
  /// `{Pair=dd}@:{Pair=dd}`: the pair moved by (1, 2).
  static let moved: @convention(c) (id, SEL, Pair) -> Pair = { _, _, pair in
    Pair(x: pair.x + 1, y: pair.y + 2)
  }
  /// `q@:qq`: the sum.
  static let add: @convention(c) (id, SEL, Int, Int) -> Int = { _, _, a, b in a + b }
  /// `+tripled:`, `q@:q`: three times the value.
  static let tripled: @convention(c) (id, SEL, Int) -> Int = { _, _, value in value * 3 }
}

/// A subclass of ``Meter`` made at run time, unique to the test that asks: class-wide hooks
/// on it touch no other test.
func freshMeterClass(_ name: String = "Calc") -> Class {
  let unique = UniqueNames.make(name)
  guard let cls = objc_allocateClassPair(Meter.runtimeClass, unique, 0) else {
    // Say why, should it ever happen: a name in use, or a superclass under construction.
    fatalError(
      "objc_allocateClassPair refused \(unique): name in use: \(objc_getClass(unique) != nil)")
  }
  objc_registerClassPair(cls)
  return cls
}

/// A calculator whose runtime class is `cls`.
func meter(of cls: Class) -> Meter {
  let object = Meter()
  try! object.setClass(cls)
  return object
}

/// Names that differ on every call.
enum UniqueNames {
  private static let counter = Atomic(0)

  static func make(_ base: String) -> String {
    "HooksTests.\(base)_\(counter.wrappingAdd(1, ordering: .relaxed).newValue)"
  }
}

/// Sends and the struct call, in one place.
extension Meter {
  func sendScaled(_ value: Int) -> Int { (try? objc_msgSend(self, "scaled:", value)) ?? -1 }
  func sendHalf(_ value: Double) -> Double { (try? objc_msgSend(self, "half:", value)) ?? -1 }
  func sendRecord(_ value: Int) { try? objc_msgSend(self, "record:", value) as Void }
  func sendEcho(_ object: ObjCObject?) -> ObjCObject? {
    (try? objc_msgSend(self, "echo:", object)) ?? nil
  }
  func sendMoved(_ pair: Pair) -> Pair? {
    guard let invocation = try? Invocation(target: self, selector: "moved:") else { return nil }
    try? invocation.setArgument(pair, at: 2)
    try? invocation.invoke()
    return try? invocation.returnValue(as: Pair.self)
  }
}

/// Hands a value to a `@Sendable` closure in a test.
///
/// `@unchecked Sendable`: the tests only read the boxed object's runtime state or send it
/// messages, which the runtime makes thread-safe.
struct Shared<Value>: @unchecked Sendable {
  let value: Value
}

extension ObjCObject {
  /// The object's isa, not what `-class` answers.
  var isaClass: Class { object_getClass(self)! }
}

/// SplitMix64: a generator whose sequence a seed fixes on every machine, so a shuffled order that
/// fails can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
