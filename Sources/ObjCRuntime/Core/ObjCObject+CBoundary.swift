// Crossing the C boundary: an object as the `id` an IMP receives or returns, an `id` back as an
// object, objects as typed sends pass them, and the check that an IMP's receiver is of its class.

extension ObjCObject {
  /// The receiver as an `id`, without retaining it: what an IMP receives as `self`.
  @inlinable
  public final func passUnretained() -> id {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: objc_object.self)
  }

  /// The receiver as an `id`, retained once: what an IMP returns as an object (+1).
  @inlinable
  public final func passRetained() -> id {
    Unmanaged.passRetained(self).toOpaque().assumingMemoryBound(to: objc_object.self)
  }
}

extension UnsafeMutablePointer where Pointee == objc_object {
  /// The object this `id` points at, without consuming a reference: use it for `self` and for
  /// object arguments inside an IMP.
  @inlinable
  public func takeUnretainedObject() -> ObjCObject {
    Unmanaged<ObjCObject>.fromOpaque(UnsafeRawPointer(self)).takeUnretainedValue()
  }

  /// The object this `id` points at if it is a `T`, without consuming a reference.
  @inlinable
  public func takeUnretainedObject<T: ObjCObject>(as type: T.Type) -> T? {
    takeUnretainedObject() as? T
  }

  /// `self` inside an IMP declared for `T`'s method table, as a `T`: the one way the model's
  /// IMPs (and yours) should read their receiver.
  ///
  /// The runtime never lets a declared IMP reach receivers of another Swift class (exchanges and
  /// sets between unrelated classes are refused; see `Docs/Reliability.md`), so the object is a
  /// `T`. Debug builds and builds with `SWIZZLEKIT_INTERNAL_CHECKS` check it anyway, by walking
  /// the object's Swift superclass chain (loads and comparisons, no dynamic cast), and stop with
  /// a message naming both classes rather than read memory that is not there: reaching it means
  /// a raw function pointer was given a method of the wrong class. Release builds trust the
  /// invariant: the check would cost every model method 5 instructions of its 48.
  @inlinable @inline(__always)
  public func receiver<T: ObjCObject>(as type: T.Type) -> T {
    let address = UnsafeRawPointer(self)
    #if DEBUG || SWIZZLEKIT_INTERNAL_CHECKS
      // The object's first word is its Swift class metadata: compared without forming a strong
      // reference, so the check costs no retain and release.
      let expected = unsafeBitCast(T.self, to: UnsafeRawPointer.self)
      var metadata = address.load(as: UnsafeRawPointer.self)
      while metadata != expected {
        // Up the superclass chain: a class's metadata holds its superclass's at offset 8 (the
        // stable Swift ABI's TargetClassMetadata; nil above the root). Loads only, and a call
        // that never returns: the usual path keeps no register across a call.
        guard let superclass = (metadata + 8).load(as: UnsafeRawPointer?.self) else {
          ReceiverCheck.fail(address, expected: T.self)
        }
        metadata = superclass
      }
    #endif
    return Unmanaged<T>.fromOpaque(address).takeUnretainedValue()
  }

  /// Runs `body` with `self` as a `T`, as ``receiver(as:)`` reads it, but without taking a
  /// reference: the caller of an IMP keeps its receiver alive for the whole call, so an IMP that
  /// only uses its receiver inside `body` saves the retain and release a strong reference costs
  /// (about 40 instructions). `body` must not let the object escape.
  @inlinable @inline(__always)
  public func withReceiver<T: ObjCObject, Result>(
    as type: T.Type, _ body: (T) throws -> Result
  ) rethrows -> Result {
    #if DEBUG || SWIZZLEKIT_INTERNAL_CHECKS
      _ = receiver(as: type)
    #endif
    return try Unmanaged<T>.fromOpaque(UnsafeRawPointer(self))._withUnsafeGuaranteedRef(body)
  }

  /// The object this `id` points at, consuming the +1 reference an IMP returned it with.
  @inlinable
  public func takeRetainedObject() -> ObjCObject {
    Unmanaged<ObjCObject>.fromOpaque(UnsafeRawPointer(self)).takeRetainedValue()
  }
}

extension ObjCObject: ObjCNullableScalar {
  /// `@`, an object; `#` for a class object.
  public static var objcTypeEncoding: String { self == Class.self ? "#" : "@" }
  /// Objects travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `@`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "@") }
  /// The object's address, unretained: the caller keeps the object alive during the call.
  @inlinable public var registerBits: UInt64 {
    UInt64(UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()))
  }
  /// The returned object (consuming its +1 reference) if it is of this class.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Self? {
    guard let address = UnsafeRawPointer(bitPattern: UInt(bits)) else { return nil }
    return Unmanaged<ObjCObject>.fromOpaque(address).takeRetainedValue() as? Self
  }
}

/// The failure of ``id/receiver(as:)``, kept out of line so that the check inlines small.
@usableFromInline
internal enum ReceiverCheck {
  /// Stops the process: the object at `address` is not an instance of `expected`.
  @usableFromInline @inline(never)
  static func fail(_ address: UnsafeRawPointer, expected: AnyClass) -> Never {
    let object = Unmanaged<ObjCObject>.fromOpaque(address).takeUnretainedValue()
    let message =
      "an IMP written for \(_typeName(expected, qualified: true)) received a"
      + " \(_typeName(type(of: object), qualified: true)); a raw function pointer was given to a"
      + " method of another class"
    Diagnostics.warn(message)
    fatalError(message)
  }
}
