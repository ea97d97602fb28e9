// Method lookup: the lock-free cache probe every send inlines, and the locked slow path.
import Synchronization

/// Which layer a lookup reads.
@usableFromInline
internal enum LookupMode: Sendable {
  /// A send: Swift entry points first (they are the outermost layer), then method tables.
  case send
  /// A Swift entry point continuing into the table, or `objc_msgSendSuper`: tables only.
  case table
}

/// The receiver and the class to start the lookup at, for `objc_msgSendSuper`: objc4's
/// `struct objc_super`.
public struct ObjCSuper {
  /// The object that receives the message.
  public let receiver: ObjCObject
  /// The class whose method table the lookup starts at, normally the superclass of the class
  /// that holds the calling IMP.
  public let superclass: Class

  /// A super-send target.
  public init(receiver: ObjCObject, superclass: Class) {
    self.receiver = receiver
    self.superclass = superclass
  }

  @inlinable internal var unmanagedSuperclass: Unmanaged<Class> {
    Unmanaged.passUnretained(superclass)
  }
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// objc4's name for ``ObjCSuper``.
public typealias objc_super = ObjCSuper

/// Finds the IMP to call for `selector` sent to an object of class `cls`, checking the method's
/// signature code against the call's; nil when nothing implements it and the message must be
/// forwarded. The cache hit is inlined into every typed send.
@inlinable @inline(__always)
internal func findIMP(
  _ receiver: ObjCObject, _ cls: Unmanaged<Class>, _ selector: Selector, _ mode: LookupMode,
  _ code: UInt64
) throws(ObjCRuntimeError) -> UnsafeRawPointer? {
  if let imp = probeIMP(cls, selector, mode, code) {
    return imp
  }
  return try Dispatch.resolve(receiver, cls, selector, mode, code)
}

/// The IMP the class's cache holds for `selector`, if its method has the call's signature code;
/// nil on a miss. The lock-free half of ``findIMP(_:_:_:_:_:)``, which cannot throw.
@inlinable @inline(__always)
internal func probeIMP(
  _ cls: Unmanaged<Class>, _ selector: Selector, _ mode: LookupMode, _ code: UInt64
) -> UnsafeRawPointer? {
  let hit = cls._withUnsafeGuaranteedRef { cls in
    mode == .send ? cls.sendCache.lookup(selector) : cls.tableCache.lookup(selector)
  }
  guard let hit else { return nil }
  let word = Unmanaged<Method>.fromOpaque(hit)._withUnsafeGuaranteedRef { method -> UInt in
    method.signatureCode == code ? method.impWord.load(ordering: .acquiring) : 0
  }
  return UnsafeRawPointer(bitPattern: word)
}

/// The value a returned register carries, or the error that says why it is not an `R`.
@inlinable @inline(__always)
internal func scalarReturn<R: ObjCScalar>(
  _ bits: UInt64, _ receiver: ObjCObject, _ selector: Selector, _ code: UInt64
) throws(ObjCRuntimeError) -> R {
  guard let value = R.fromReturnedBits(bits) else {
    throw Dispatch.returnMismatch(receiver, selector, expected: R.self, bits: bits)
  }
  return value
}

@usableFromInline
internal enum Dispatch {
  /// The slow path: looks up under the lock and fills the cache, runs the class's resolver once
  /// on a miss, reports traced sends, and checks the signature. Returns nil when the message must
  /// be forwarded.
  @usableFromInline
  static func resolve(
    _ receiver: ObjCObject, _ cls: Unmanaged<Class>, _ selector: Selector, _ mode: LookupMode,
    _ code: UInt64
  ) throws(ObjCRuntimeError) -> UnsafeRawPointer? {
    let start = cls.takeUnretainedValue()
    guard let method = lookUpResolving(start, selector, mode, for: receiver),
      let imp = method.implementation
    else {
      return nil
    }
    guard method.signatureCode == code else {
      throw .signatureMismatch(
        MethodReference(owner: receiver.isa.takeUnretainedValue(), selector: selector),
        method: method.typeEncoding, call: SignatureCode.describe(code))
    }
    return imp.rawValue
  }

  /// Looks `selector` up from `start`; on a miss runs the receiver's resolver once and looks
  /// again. Nil (or a method without implementation) means the message must be forwarded. The
  /// receiver's class is initialized first: every send's slow path comes here (a typed send's
  /// and an invocation's), before it fills a cache.
  static func lookUpResolving(
    _ start: Class, _ selector: Selector, _ mode: LookupMode, for receiver: ObjCObject
  ) -> Method? {
    Initialization.ensure(for: receiver)
    let method = lookUp(start, selector, mode)
    if method?.implementation == nil, Resolver.resolve(selector, for: receiver) {
      return lookUp(start, selector, mode)
    }
    return method
  }

  /// Looks `selector` up from `start`, caching the result unless its sends are traced.
  static func lookUp(_ start: Class, _ selector: Selector, _ mode: LookupMode) -> Method? {
    let (method, traced) = Runtime.state.withLock { tables -> (Method?, Bool) in
      let method = start.findMethod(selector, includingEntries: mode == .send)
      let traced = Tracing.traces(selector, in: tables)
      if let method, !traced {
        InternalChecks.checkCacheEntry(method, for: start)
        switch mode {
        case .send: start.sendCache.insert(selector, method)
        case .table: start.tableCache.insert(selector, method)
        }
      }
      return (method, traced)
    }
    if traced {
      Tracing.emit(.messageSent(receiverClass: start, selector: selector, method: method))
    }
    return method
  }

  @usableFromInline
  static func returnMismatch(
    _ receiver: ObjCObject, _ selector: Selector, expected: Any.Type, bits: UInt64
  ) -> ObjCRuntimeError {
    let actual = bits == 0 ? "nil" : "a value that is not a \(expected)"
    return .signatureMismatch(
      MethodReference(owner: receiver.isa.takeUnretainedValue(), selector: selector),
      method: "returned \(actual)", call: "expected \(expected)")
  }
}

/// `perform(_:)` and `perform(_:with:)`: sends whose types are read from the method found.
internal enum PerformDispatch {
  static func perform(
    _ receiver: ObjCObject, _ selector: Selector, argument: ObjCObject?, argumentCount: Int
  ) throws(ObjCRuntimeError) -> ObjCObject? {
    let cls = receiver.isa.takeUnretainedValue()
    // The send's slow path, +initialize and the resolver included: a first message through
    // perform must not run the method before +initialize, nor cache it so that later sends
    // skip +initialize too.
    guard let method = Dispatch.lookUpResolving(cls, selector, .send, for: receiver) else {
      throw .unrecognizedSelector(MethodReference(owner: cls, selector: selector))
    }
    let returnsVoid =
      method.parsedEncoding.map { SignatureCode.code(of: $0.returnType) } == UInt8(ascii: "v")
    switch (argumentCount, returnsVoid) {
    case (0, true):
      try objc_msgSend(receiver, selector) as Void
      return nil
    case (0, false):
      return try objc_msgSend(receiver, selector) as ObjCObject?
    case (_, true):
      try objc_msgSend(receiver, selector, argument) as Void
      return nil
    case (_, false):
      return try objc_msgSend(receiver, selector, argument) as ObjCObject?
    }
  }
}
