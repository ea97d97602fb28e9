// The Foundation objects Objective-C snippets use: NSString (with gcc's constant strings),
// NSNumber and NSValue, each the subset Docs/ObjectiveC.md lists, in the runtime's tables.
import Foundation
import ObjCRuntime
import ObjCRuntimeGeometry
import Synchronization

/// Foundation's `NSString` for Objective-C compiled by gcc: UTF-8 text.
///
/// `+stringWithUTF8String:`, `-UTF8String`, `-length` (UTF-16 units, as Foundation counts),
/// `-isEqual:`, `-hash` and `-description`. gcc's `@"..."` literals are instances of its subclass
/// `NSConstantString`, made in place in the compiled file's data (the runtime's `StaticObjects`);
/// every method here reads both kinds.
public final class ObjCString: ObjCObject {
  /// The text.
  public let value: String
  /// The text as a NUL-terminated C string, owned by the object.
  private let cString: UnsafeMutablePointer<CChar>

  /// A string holding `value`.
  public init(_ value: String) {
    self.value = value
    let utf8 = Array(value.utf8CString)
    cString = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
    cString.initialize(from: utf8, count: utf8.count)
    super.init()
  }

  deinit {
    cString.deallocate()
  }

  /// Objective-C may allocate it (an empty string).
  public override class func makeInstance() -> ObjCObject? { ObjCString("") }

  /// Equal to another string (of either kind) with the same text.
  public override func isEqual(_ other: ObjCObject?) -> Bool {
    other.flatMap(ObjCString.text) == value
  }

  /// The text's hash, equal for equal strings.
  public override var hash: Int { value.hashValue }

  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(ObjCString.self, runtimeName: "NSString") {
      ObjCMethodDeclaration.classMethod("stringWithUTF8String:", withUTF8String)
      ObjCMethodDeclaration("UTF8String", utf8String)
      ObjCMethodDeclaration("length", length)
      ObjCMethodDeclaration("isEqual:", isEqualIMP)
      ObjCMethodDeclaration("hash", hashIMP)
      ObjCMethodDeclaration("description", describe)
    }
  }

  /// The text of a string of either kind; nil for any other object.
  static func text(of object: ObjCObject) -> String? {
    if let string = object as? ObjCString { return string.value }
    return ConstantStrings.text(of: object)
  }

  /// The C string of a string of either kind; nil for any other object.
  static func characters(of object: ObjCObject) -> UnsafePointer<CChar>? {
    if let string = object as? ObjCString { return UnsafePointer(string.cString) }
    return ConstantStrings.characters(of: object)
  }

  private static let withUTF8String: @convention(c) (id, SEL, UnsafePointer<CChar>?) -> id? = {
    _, _, text in
    text.map { ObjCString(String(cString: $0)).passRetained() }
  }

  private static let utf8String: @convention(c) (id, SEL) -> UnsafePointer<CChar>? = { me, _ in
    characters(of: me.takeUnretainedObject())
  }

  private static let length: @convention(c) (id, SEL) -> UInt = { me, _ in
    UInt(text(of: me.takeUnretainedObject())?.utf16.count ?? 0)
  }

  private static let isEqualIMP: @convention(c) (id, SEL, id?) -> Bool = { me, _, other in
    guard let other, let mine = text(of: me.takeUnretainedObject()) else { return false }
    return text(of: other.takeUnretainedObject()) == mine
  }

  private static let hashIMP: @convention(c) (id, SEL) -> UInt = { me, _ in
    UInt(bitPattern: text(of: me.takeUnretainedObject())?.hashValue ?? 0)
  }

  private static let describe: @convention(c) (id, SEL) -> id? = { me, _ in
    me.takeUnretainedObject().passRetained()
  }
}

/// gcc's constant strings: their text, by the address of the record gcc laid out.
enum ConstantStrings {
  /// The runtime class of `@"..."` literals, `NSConstantString`, under `NSString`.
  static let runtimeClass: Class? = {
    let name = "NSConstantString"
    if let existing = objc_getClass(name) { return existing }
    guard let cls = objc_allocateClassPair(ObjCString.runtimeClass, name, 0) else { return nil }
    objc_registerClassPair(cls)
    return cls
  }()

  // @unchecked Sendable: the characters are the compiled file's constant data, never written
  // and never freed (libraries with Objective-C are pinned: RTLD_NODELETE).
  private struct Text: @unchecked Sendable {
    let characters: UnsafePointer<CChar>
    let value: String
  }

  private static let texts = Mutex<[UInt: Text]>([:])

  /// Makes gcc's record at `record` (`{isa, characters, length}`) a constant string; false when
  /// it cannot be made one.
  static func adopt(_ record: UnsafeMutableRawPointer) -> Bool {
    guard let cls = runtimeClass else { return false }
    // gcc may list one literal more than once: the first listing made it an object already.
    // (Read as memory: until then the record is no object, and must not be retained as one.)
    if StaticObjects.isStatic(at: record) { return true }
    guard let characters = record.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self) else {
      return false
    }
    let length = Int(record.load(fromByteOffset: 16, as: UInt32.self))
    let bytes = UnsafeBufferPointer(
      start: UnsafeRawPointer(characters).assumingMemoryBound(to: UInt8.self), count: length)
    let text = Text(characters: characters, value: String(decoding: bytes, as: UTF8.self))
    texts.withLock { $0[UInt(bitPattern: record)] = text }
    do {
      _ = try StaticObjects.make(at: record, class: cls)
      return true
    } catch {
      texts.withLock { $0[UInt(bitPattern: record)] = nil }
      return false
    }
  }

  static func text(of object: ObjCObject) -> String? {
    guard StaticObjects.isStatic(object) else { return nil }
    let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    return texts.withLock { $0[address]?.value }
  }

  static func characters(of object: ObjCObject) -> UnsafePointer<CChar>? {
    guard StaticObjects.isStatic(object) else { return nil }
    let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    return texts.withLock { $0[address]?.characters }
  }
}

/// Foundation's `NSNumber` for Objective-C: an integer, a double or a Boolean.
///
/// `+numberWithInt:`, `+numberWithLong:`, `+numberWithDouble:`, `+numberWithBool:`,
/// `-intValue`, `-longValue`, `-doubleValue`, `-boolValue`, `-isEqual:`, `-hash`, `-description`.
public final class ObjCNumber: ObjCObject {
  /// What the number holds.
  public enum Value: Sendable, Equatable {
    /// An integer.
    case integer(Int)
    /// A floating-point number.
    case double(Double)
    /// A Boolean.
    case bool(Bool)
  }

  /// The number.
  public let value: Value

  /// A number holding `value`.
  public init(_ value: Value) {
    self.value = value
    super.init()
  }

  /// The number as a double.
  public var doubleValue: Double {
    switch value {
    case .integer(let integer): Double(integer)
    case .double(let double): double
    case .bool(let bool): bool ? 1 : 0
    }
  }

  /// The number as an integer (a double truncated toward zero; out of range: zero).
  public var integerValue: Int {
    switch value {
    case .integer(let integer): integer
    case .double(let double): Int(exactly: double.rounded(.towardZero)) ?? 0
    case .bool(let bool): bool ? 1 : 0
    }
  }

  /// Equal to a number with the same value, compared as Foundation does (`@1` equals `@1.0`).
  public override func isEqual(_ other: ObjCObject?) -> Bool {
    guard let other = other as? ObjCNumber else { return false }
    return other.doubleValue == doubleValue
  }

  /// Equal numbers hash alike.
  public override var hash: Int { doubleValue.hashValue }

  /// The text Foundation's `-description` gives: `1`, `2.5`, `1` for YES.
  var text: String {
    switch value {
    case .integer(let integer): String(integer)
    case .double(let double):
      // Whole numbers as integers (Foundation's `2.0` prints `2`), when an Int holds them.
      Int(exactly: double).map(String.init) ?? String(double)
    case .bool(let bool): bool ? "1" : "0"
    }
  }

  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(ObjCNumber.self, runtimeName: "NSNumber") {
      ObjCMethodDeclaration.classMethod("numberWithInt:", withInt)
      ObjCMethodDeclaration.classMethod("numberWithLong:", withLong)
      ObjCMethodDeclaration.classMethod("numberWithDouble:", withDouble)
      ObjCMethodDeclaration.classMethod("numberWithBool:", withBool)
      ObjCMethodDeclaration("intValue", intValue)
      ObjCMethodDeclaration("longValue", longValue)
      ObjCMethodDeclaration("doubleValue", doubleValueIMP)
      ObjCMethodDeclaration("boolValue", boolValue)
      ObjCMethodDeclaration("description", describe)
    }
  }

  private static func number(_ me: id) -> ObjCNumber? {
    me.takeUnretainedObject(as: ObjCNumber.self)
  }

  private static let withInt: @convention(c) (id, SEL, Int32) -> id? = { _, _, value in
    ObjCNumber(.integer(Int(value))).passRetained()
  }
  private static let withLong: @convention(c) (id, SEL, Int) -> id? = { _, _, value in
    ObjCNumber(.integer(value)).passRetained()
  }
  private static let withDouble: @convention(c) (id, SEL, Double) -> id? = { _, _, value in
    ObjCNumber(.double(value)).passRetained()
  }
  private static let withBool: @convention(c) (id, SEL, Bool) -> id? = { _, _, value in
    ObjCNumber(.bool(value)).passRetained()
  }
  private static let intValue: @convention(c) (id, SEL) -> Int32 = { me, _ in
    Int32(truncatingIfNeeded: number(me)?.integerValue ?? 0)
  }
  private static let longValue: @convention(c) (id, SEL) -> Int = { me, _ in
    number(me)?.integerValue ?? 0
  }
  private static let doubleValueIMP: @convention(c) (id, SEL) -> Double = { me, _ in
    number(me)?.doubleValue ?? 0
  }
  private static let boolValue: @convention(c) (id, SEL) -> Bool = { me, _ in
    (number(me)?.doubleValue ?? 0) != 0
  }
  private static let describe: @convention(c) (id, SEL) -> id? = { me, _ in
    ObjCString(number(me)?.text ?? "").passRetained()
  }
}

/// Foundation's `NSValue` for Objective-C, with UIKit's geometry methods: a `CGRect`, `CGPoint`
/// or `CGSize`.
public final class ObjCValue: ObjCObject {
  /// The value held.
  public let rect: CGRect

  /// A value holding `rect` (a point is a rectangle at the point with no size, a size one at the
  /// origin).
  public init(_ rect: CGRect) {
    self.rect = rect
    super.init()
  }

  /// Equal to a value holding the same rectangle.
  public override func isEqual(_ other: ObjCObject?) -> Bool {
    (other as? ObjCValue)?.rect == rect
  }

  /// Equal values hash alike.
  public override var hash: Int {
    var hasher = Hasher()
    for part in [rect.origin.x, rect.origin.y, rect.width, rect.height] { hasher.combine(part) }
    return hasher.finalize()
  }

  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(ObjCValue.self, runtimeName: "NSValue") {
      for (selector, interceptor) in getters {
        ObjCMethodDeclaration(
          selector, implementation: interceptor.implementation,
          types: interceptor.signature.typeEncoding)
      }
    }
  }

  /// The class methods that make values (`+valueWithCGRect:`...), attached to the metaclass by
  /// ``Foundation/install()``: their arguments are structs, which only libffi's closures take.
  static var makers: [CategoryMethod] {
    constructors.map { selector, interceptor in
      CategoryMethod(selector, interceptor.implementation, interceptor.signature.typeEncoding)
    }
  }

  private static let rect = CGRect.objcTypeEncoding
  private static let point = CGPoint.objcTypeEncoding
  private static let size = CGSize.objcTypeEncoding

  /// The getters (`-CGRectValue`...), as interceptors: a struct result needs libffi.
  private static let getters: [(Selector, Interceptor)] = [
    ("CGRectValue", getter(rect) { $0 }),
    ("CGPointValue", getter(point) { $0.origin }),
    ("CGSizeValue", getter(size) { $0.size }),
  ]

  private static let constructors: [(Selector, Interceptor)] = [
    ("valueWithCGRect:", constructor(rect) { (rect: CGRect) in rect }),
    (
      "valueWithCGPoint:",
      constructor(point) { (point: CGPoint) in CGRect(origin: point, size: .zero) }
    ),
    ("valueWithCGSize:", constructor(size) { (size: CGSize) in CGRect(origin: .zero, size: size) }),
  ]

  private static func getter<T: ObjCTypeEncodable>(
    _ encoding: String, _ read: @escaping @Sendable (CGRect) -> T
  ) -> Interceptor {
    // The encodings are constants of this file: a failure is a bug here, caught by its tests.
    try! Interceptor(types: encoding + "@:") { call in
      call.setReturnValue(read((call.receiver as? ObjCValue)?.rect ?? .zero))
    }
  }

  private static func constructor<T: ObjCTypeEncodable>(
    _ encoding: String, _ make: @escaping @Sendable (T) -> CGRect
  ) -> Interceptor {
    try! Interceptor(types: "@@:" + encoding) { call in
      guard let argument = call.argument(at: 2, as: T.self) else { return }
      call.setReturnValue(ObjCValue(make(argument)) as ObjCObject)
    }
  }
}
