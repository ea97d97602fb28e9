// IMPs: the addresses of C functions that implement methods.
import CObjCRuntime

/// The address of a C function that implements a method: `(self, _cmd, args...) -> ret`.
///
/// An IMP is a real C function pointer, as in Objective-C. Make one from a `@convention(c)`
/// function whose first two parameters are `id` and `SEL`; the runtime reads the function's Swift
/// signature and remembers the type encoding it implies, so that adding it under a different
/// encoding is caught:
///
/// ```swift
/// let twice: @convention(c) (id, SEL, Int) -> Int = { _, _, x in 2 * x }
/// let imp = try IMP(twice)                 // encoding "q@:q"
/// ```
///
/// Objects cross the boundary as under manual reference counting: `self` and object arguments
/// arrive unretained (the sender keeps them alive for the call), and an object an IMP returns is
/// returned retained (+1, `passRetained()`), which the sender takes over.
public struct IMP: Hashable, @unchecked Sendable, CustomStringConvertible {
  // @unchecked Sendable: the address of code, which is immutable and lives for the process.

  /// The function's address.
  public let rawValue: UnsafeRawPointer

  /// Wraps a function address without checking it; the runtime knows nothing of its signature.
  public init(rawValue: UnsafeRawPointer) {
    self.rawValue = rawValue
  }

  internal init?(word: UInt) {
    guard let pointer = UnsafeRawPointer(bitPattern: word) else { return nil }
    self.rawValue = pointer
  }

  /// Makes an IMP from a `@convention(c)` function and records the encoding its signature implies.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidImplementation(_:)`` when `function` is not a
  ///   `@convention(c)` function, when its first two parameters are not `id` and `SEL`, or when a
  ///   parameter or its result has no Objective-C encoding.
  public init<Function>(_ function: Function) throws(ObjCRuntimeError) {
    let encoding = try FunctionSignature.encoding(of: Function.self)
    guard MemoryLayout<Function>.size == MemoryLayout<UnsafeRawPointer>.size else {
      throw .invalidImplementation("\(Function.self) is not a C function pointer")
    }
    self.rawValue = unsafeBitCast(function, to: UnsafeRawPointer.self)
    IMPSignatures.shared.record(self, encoding: encoding)
  }

  /// The encoding implied by the Swift signature this IMP was made from, or nil when it was made
  /// from a bare address.
  public var declaredTypeEncoding: String? {
    IMPSignatures.shared.encoding(of: self)
  }

  /// objc4's `_objc_msgForward`: the IMP `class_getMethodImplementation` returns for a selector
  /// nothing implements. Setting it as a method's implementation sends every call of that method
  /// into message forwarding, as Aspects does. Called directly from C (a swizzle that kept it as
  /// "the original" and calls it), it forwards the message too, as objc4's does, for methods whose
  /// arguments travel in registers (up to four integer or object arguments and eight floating-point
  /// ones) and whose result is void or an integer, pointer or object; other calls trap naming the
  /// method, except that a method returning a large struct cannot be called this way at all (the
  /// result's hidden pointer takes the place of `self`). Interceptors, hooks and key-value
  /// observing never call it directly: ``InterceptedCall/forward(to:)`` sends a call whose
  /// original is this IMP down the forwarding chain as an invocation, whatever its signature.
  public static let forward: IMP = {
    swk_msgForward_set_handler(Forwarding.directCall)
    return IMP(rawValue: forwardEntry)
  }()

  /// The address of `swk_msgForward`: a constant, so that a hot path can tell the forward IMP
  /// without the lazy initialization check every read of ``forward`` pays.
  @inline(__always) internal static var forwardEntry: UnsafeRawPointer {
    typealias Entry =
      @convention(c) (
        id?, SEL?, UInt, UInt, UInt, UInt, Double, Double, Double, Double, Double, Double, Double,
        Double
      ) -> UInt
    return unsafeBitCast(swk_msgForward as Entry, to: UnsafeRawPointer.self)
  }

  /// Whether this is ``forward``.
  @inline(__always) internal var isForward: Bool { rawValue == IMP.forwardEntry }

  /// `0x…`, and the declared encoding when there is one.
  public var description: String {
    let address = "0x" + String(UInt(bitPattern: rawValue), radix: 16)
    if self == IMP.forward { return "_objc_msgForward" }
    return declaredTypeEncoding.map { "\(address) (\($0))" } ?? address
  }
}

/// The encodings implied by the Swift signatures IMPs were made from.
internal final class IMPSignatures: Sendable {
  static let shared = IMPSignatures()
  private let table = RuntimeLock<[AddressKey: String]>([:])

  func record(_ imp: IMP, encoding: String) {
    table.withLock { $0[AddressKey(imp.rawValue)] = encoding }
  }

  func encoding(of imp: IMP) -> String? {
    table.withLock { $0[AddressKey(imp.rawValue)] }
  }

  func forget(_ imp: IMP) {
    _ = table.withLock { $0.removeValue(forKey: AddressKey(imp.rawValue)) }
  }
}

/// The Swift class each declared IMP's code takes `self` to be: a method declared for `UIView`
/// downcasts its receiver to `UIView`. Exchanging or setting implementations consults it, so that
/// an IMP is never given to a method whose receivers are objects of an unrelated Swift type, which
/// would make its downcast read memory that is not there (objc4 lets you, and crashes later).
///
/// An IMP declared for several classes (a shared function), or added with `class_addMethod` to
/// another class than the one it was declared for, is recorded for their nearest common ancestor:
/// whoever added it says its code works there too. IMPs made from closures (whose receiver is
/// checked on every call) and C functions the runtime never saw declared are not recorded, and
/// may go anywhere, as in objc4.
internal enum IMPReceivers {
  private static let table = RuntimeLock<[AddressKey: ObjCObject.Type]>([:])

  /// Records that `imp` was declared for instances of `type`.
  static func record(_ imp: IMP, receivers type: ObjCObject.Type) {
    let key = AddressKey(imp.rawValue)
    table.withLock { table in
      guard let known = table[key], known != type else {
        table[key] = type
        return
      }
      table[key] = commonAncestor(known, type)
    }
  }

  /// Widens what a recorded `imp` accepts to instances of `type` too; an IMP not recorded stays
  /// unrecorded.
  static func widen(_ imp: IMP, to type: ObjCObject.Type) {
    let key = AddressKey(imp.rawValue)
    table.withLock { table in
      guard let known = table[key], known != type else { return }
      table[key] = commonAncestor(known, type)
    }
  }

  /// The class `imp`'s code takes its receiver to be, if the runtime knows.
  static func receivers(of imp: IMP) -> ObjCObject.Type? {
    table.withLock { $0[AddressKey(imp.rawValue)] }
  }

  /// Throws unless every receiver of `method` (instances of its owner's storage type) is an
  /// instance of the class `imp` was declared for.
  static func check(_ imp: IMP, for method: Method) throws(ObjCRuntimeError) {
    guard let expected = receivers(of: imp) else { return }
    let storage = method.owner.storageType
    guard !isSwiftClass(storage, inheritingFrom: expected) else { return }
    throw .incompatibleImplementation(
      MethodReference(owner: method.owner, selector: method.selector),
      implementationFor: _typeName(expected, qualified: false),
      receivers: _typeName(storage, qualified: false))
  }

  private static func commonAncestor(_ a: ObjCObject.Type, _ b: ObjCObject.Type)
    -> ObjCObject.Type
  {
    var candidate: ObjCObject.Type? = a
    while let type = candidate {
      if isSwiftClass(b, inheritingFrom: type) { return type }
      candidate = _getSuperclass(type) as? ObjCObject.Type
    }
    return ObjCObject.self
  }
}
