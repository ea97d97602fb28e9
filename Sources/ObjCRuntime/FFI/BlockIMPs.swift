// IMPs made from Swift closures, the imp_implementationWithBlock family.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

internal import CFFI

/// An IMP made from a closure: what owns the IMP's code (a libffi closure or a register-shape
/// stub), and the closure it runs.
internal final class BlockIMP {
  let owner: AnyObject
  let block: Any

  init(owner: AnyObject, block: Any) {
    self.owner = owner
    self.block = block
  }
}

/// The closures behind IMPs, kept alive until `imp_removeBlock`, and the helpers the generated
/// `imp_implementationWithBlock` overloads share.
@usableFromInline
internal enum BlockIMPs {
  private static let registry = RuntimeLock<[UnsafeRawPointer: BlockIMP]>([:])
  @usableFromInline
  static func make(encoding: String, block: Any, handler: @escaping FFIClosureHandler)
    throws(ObjCRuntimeError) -> IMP
  {
    let closure = try FFIClosure(CallInterfaces.interface(for: encoding), handler: handler)
    return register(code: closure.code, owner: closure, block: block, encoding: encoding)
  }

  /// Records an IMP whose code `owner` keeps alive until `imp_removeBlock`.
  static func register(code: UnsafeRawPointer, owner: AnyObject, block: Any, encoding: String)
    -> IMP
  {
    let imp = IMP(rawValue: code)
    registry.withLock { $0[code] = BlockIMP(owner: owner, block: block) }
    IMPSignatures.shared.record(imp, encoding: encoding)
    return imp
  }

  static func block(of imp: IMP) -> Any? {
    registry.withLock { $0[imp.rawValue]?.block }
  }

  static func remove(_ imp: IMP) -> Bool {
    let removed = registry.withLock { $0.removeValue(forKey: imp.rawValue) }
    guard removed != nil else { return false }
    IMPSignatures.shared.forget(imp)
    return true
  }

  static var liveCount: Int { registry.withLock { $0.count } }

  /// The receiver (`self`, argument 0) if it is a `Receiver`.
  @inlinable @inline(__always)
  static func receiver<Receiver: ObjCObject>(
    _ arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>, as type: Receiver.Type
  ) -> Receiver? {
    let me = arguments[0].unsafelyUnwrapped.load(as: id.self)
    return RegisterClosures.receiver(me, as: Receiver.self, Receiver.self)?.takeUnretainedValue()
  }

  /// Argument `index` (2 is the first after `self` and `_cmd`), read as the C ABI laid it out;
  /// every `ObjCScalar` has the layout of its C counterpart.
  @inlinable @inline(__always)
  static func argument<T: ObjCScalar>(
    _ arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ index: Int, as type: T.Type
  ) -> T {
    arguments[index].unsafelyUnwrapped.load(as: T.self)
  }

  /// Writes `value` to the return slot as a C function returns it: integers widened to a full
  /// `ffi_arg`, floats in four bytes, objects retained (+1).
  @inlinable @inline(__always)
  static func store<R: ObjCScalar>(_ value: R, into slot: UnsafeMutableRawPointer) {
    let bits = RegisterClosures.resultBits(value)
    if R.objcTypeCode == UInt8(ascii: "f") {
      slot.storeBytes(of: UInt32(truncatingIfNeeded: bits), as: UInt32.self)
    } else {
      slot.storeBytes(of: bits, as: UInt64.self)
    }
  }

  /// A zero return value, for a call whose receiver was not of the closure's type.
  @usableFromInline
  static func storeZero(_ slot: UnsafeMutableRawPointer) {
    slot.storeBytes(of: RegisterClosures.wrongReceiver(), as: UInt64.self)
  }
}

/// How an IMP made by `imp_implementationWithBlock` reaches its closure.
public enum ClosureIMPKind: Sendable, Hashable {
  /// A stub of a few bytes in executable memory that jumps to a Swift handler: closures whose
  /// arguments and result each fit one register (x86-64).
  case trampoline
  /// A libffi closure: every other signature, and every closure where executable memory is
  /// refused or `SWIZZLEKIT_FFI_CLOSURES=1` is set.
  case libffiClosure
}

extension IMP {
  /// How this IMP reaches its closure, when `imp_implementationWithBlock` made it and it was not
  /// removed; nil for every other IMP.
  public var closureKind: ClosureIMPKind? {
    guard BlockIMPs.block(of: self) != nil else { return nil }
    return RegisterClosures.isTrampoline(self) ? .trampoline : .libffiClosure
  }
}

/// Counts of the closure IMPs alive, for leak checks: a program that makes and removes closure
/// IMPs in a loop should see them return to where they started.
public enum ClosureIMPStatistics {
  /// The IMPs made by `imp_implementationWithBlock` and not yet removed.
  public static var live: Int { BlockIMPs.liveCount }
  /// The trampolines in use, those of closure IMPs and those the hook framework made.
  public static var liveTrampolines: Int { RegisterClosures.liveTrampolineCount }
}

/// The closure an IMP was made from, or nil when it was not made by
/// `imp_implementationWithBlock` (or was removed). The corresponding objc4 function is
/// `imp_getBlock`.
public func imp_getBlock(_ imp: IMP?) -> Any? {
  imp.flatMap(BlockIMPs.block(of:))
}

/// Frees an IMP made by `imp_implementationWithBlock` and releases its closure; false when the
/// IMP was not made that way. Calling the IMP afterwards is undefined, as in objc4: remove it from
/// every method first. The corresponding objc4 function is `imp_removeBlock`.
@discardableResult
public func imp_removeBlock(_ imp: IMP?) -> Bool {
  imp.map(BlockIMPs.remove) ?? false
}
