// Closure IMPs for signatures that fit in registers: a stub and a handler per register shape,
// without libffi.
import CObjCRuntime

/// The closure behind a register-shape IMP, in one of two universal forms: the receiver and up
/// to two integer-class and two floating-point argument words (`small`), or `_cmd`, three and
/// eight (`call`). Each returns the result's bits. The smaller form passes fewer registers on
/// every call. (Interceptors of shapes without floating point have an entry of their own,
/// ``RegisterEntry``.)
///
/// `@unchecked Sendable`: the closures are immutable and the stub is freed only in deinit.
@usableFromInline
internal final class RegisterClosure: @unchecked Sendable {
  @usableFromInline
  typealias Call = (
    id, SEL, UInt64, UInt64, UInt64, Double, Double, Double, Double, Double, Double, Double, Double
  ) -> UInt64
  @usableFromInline
  typealias SmallCall = (id, UInt64, UInt64, Double, Double) -> UInt64

  enum Form { case small, large }

  // Every form is stored non-optional (the unused ones answer zero): reading a closure out of an
  // Optional re-abstracts it, which allocated a thunk context on every call.
  let call: Call
  let small: SmallCall
  let form: Form
  /// The stub's address, the IMP; nil until the stub is made.
  private(set) var stub: UnsafeMutableRawPointer?

  init(_ call: @escaping Call) {
    self.call = call
    self.small = { _, _, _, _, _ in 0 }
    self.form = .large
  }

  init(small: @escaping SmallCall) {
    self.call = { _, _, _, _, _, _, _, _, _, _, _, _, _ in 0 }
    self.small = small
    self.form = .small
  }

  /// Makes the stub for a method with `generalCount` integer-class and `floatingCount`
  /// floating-point explicit arguments; nil when the shape does not fit the form or no
  /// executable memory could be had (the caller then uses libffi).
  func makeStub(generalCount: Int, floatingCount: Int, floatingResult: Bool) -> UnsafeRawPointer? {
    guard generalCount <= 3, floatingCount <= 8 else { return nil }
    let handler: UnsafeRawPointer?
    switch form {
    case .small:
      guard generalCount <= 2, floatingCount <= 2 else { return nil }
      handler = RegisterHandlers.handler(
        general: generalCount, floating: floatingCount, floatingResult: floatingResult)
    case .large:
      handler = RegisterHandlers.largeHandler(
        general: generalCount, floating: floatingCount, floatingResult: floatingResult)
    }
    guard let handler else { return nil }
    let context = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    stub = swk_trampoline_make(Int32(2 + generalCount), context, handler)
    return stub.map(UnsafeRawPointer.init)
  }

  deinit {
    swk_trampoline_free(stub)
  }
}

/// The entry of an interceptor of a method whose explicit arguments are at most three
/// integer-class values: its stub's C handler calls ``enter(_:_:_:_:_:)``, which hands the
/// interceptor's handler the registers. No closure sits between the two (a closure's context
/// and its reabstraction cost every hooked call 12 instructions).
///
/// `@unchecked Sendable`: the handler and layout are immutable; `stub` is written once, by
/// ``make(handler:layout:generalCount:floatingResult:)`` before it returns the entry (so before
/// anyone can call the stub or share the entry), and freed only in deinit.
internal final class RegisterEntry: @unchecked Sendable {
  private let handler: any InterceptionHandler
  private let layout: CallLayout
  /// The stub's address, the IMP.
  private(set) var stub: UnsafeMutableRawPointer?

  private init(handler: any InterceptionHandler, layout: CallLayout) {
    self.handler = handler
    self.layout = layout
  }

  /// An entry for `handler`, with its stub for `generalCount` integer-class arguments; nil when
  /// no executable memory could be had (the caller then uses libffi).
  static func make(
    handler: any InterceptionHandler, layout: CallLayout, generalCount: Int, floatingResult: Bool
  ) -> RegisterEntry? {
    guard
      let code = RegisterHandlers.generalHandler(
        general: generalCount, floating: 0, floatingResult: floatingResult)
    else { return nil }
    let entry = RegisterEntry(handler: handler, layout: layout)
    let context = UnsafeRawPointer(Unmanaged.passUnretained(entry).toOpaque())
    // The stub refers to the entry unretained: whoever keeps the IMP keeps the entry.
    entry.stub = swk_trampoline_make(Int32(2 + generalCount), context, code)
    return entry.stub == nil ? nil : entry
  }

  /// One call, as the stub's C handler passes it: the three argument registers (zero where the
  /// method has fewer) go on the stack with a result word after them, for the handler to read
  /// and replace.
  @inline(__always)
  func enter(_ me: id, _ cmd: SEL, _ i0: UInt64, _ i1: UInt64, _ i2: UInt64) -> UInt64 {
    var words: (UInt64, UInt64, UInt64, UInt64) = (i0, i1, i2, 0)
    // Without the stack protector's check, which a temporary allocation or
    // `withUnsafeMutablePointer` adds to every hooked call (five instructions): the words live
    // only while the handler runs, and nothing writes past them (``RegisterCall`` reads and
    // writes the four words by index).
    return _withUnprotectedUnsafeMutablePointer(to: &words) { tuple in
      let first = UnsafeMutableRawPointer(tuple).assumingMemoryBound(to: UInt64.self)
      return handler.intercept(
        registers: RegisterCall(layout: layout, receiver: me, selector: cmd, words: first))
    }
  }

  deinit {
    swk_trampoline_free(stub)
  }
}

/// The helpers the generated register-shape closures share.
@usableFromInline
internal enum RegisterClosures {
  /// Whether `imp` is one of the runtime's trampolines.
  static func isTrampoline(_ imp: IMP) -> Bool { swk_trampoline_is_stub(imp.rawValue) != 0 }

  /// The trampolines in use.
  static var liveTrampolineCount: Int { Int(swk_trampoline_live_count()) }

  /// Whether register-shape IMPs are used; `SWIZZLEKIT_FFI_CLOSURES=1` forces libffi, to compare.
  @usableFromInline
  static let enabled: Bool = getenvIsUnset("SWIZZLEKIT_FFI_CLOSURES")

  /// Makes an IMP from a register-shape closure in the small form, or nil to fall back.
  @usableFromInline
  static func make(
    encoding: String, block: Any, generalCount: Int, floatingCount: Int, floatingResult: Bool,
    small: @escaping RegisterClosure.SmallCall
  ) -> IMP? {
    guard enabled else { return nil }
    return install(
      RegisterClosure(small: small), encoding: encoding, block: block,
      generalCount: generalCount, floatingCount: floatingCount, floatingResult: floatingResult)
  }

  /// Makes an IMP from a register-shape closure in the large form, or nil to fall back.
  @usableFromInline
  static func make(
    encoding: String, block: Any, generalCount: Int, floatingCount: Int, floatingResult: Bool,
    call: @escaping RegisterClosure.Call
  ) -> IMP? {
    guard enabled else { return nil }
    return install(
      RegisterClosure(call), encoding: encoding, block: block,
      generalCount: generalCount, floatingCount: floatingCount, floatingResult: floatingResult)
  }

  private static func install(
    _ closure: RegisterClosure, encoding: String, block: Any, generalCount: Int,
    floatingCount: Int, floatingResult: Bool
  ) -> IMP? {
    guard
      let code = closure.makeStub(
        generalCount: generalCount, floatingCount: floatingCount, floatingResult: floatingResult)
    else { return nil }
    return BlockIMPs.register(code: code, owner: closure, block: block, encoding: encoding)
  }

  /// The receiver, unretained, if it is a `Receiver`: the sender keeps it alive for the call,
  /// so the closure can borrow it without reference counting.
  @inlinable @inline(__always)
  static func receiver<Receiver: ObjCObject>(
    _ me: id, as receiverType: Receiver.Type, _ receiverClass: AnyClass
  ) -> Unmanaged<Receiver>? {
    let object = Unmanaged<ObjCObject>.fromOpaque(UnsafeRawPointer(me))
    let dynamicType: AnyClass = object._withUnsafeGuaranteedRef { type(of: $0) }
    guard dynamicType == receiverClass || isSwiftClass(dynamicType, inheritingFrom: receiverClass)
    else {
      return nil
    }
    return Unmanaged<Receiver>.fromOpaque(UnsafeRawPointer(me))
  }

  /// An argument of type `T` from the word it travelled in: integers and pointers in the low
  /// bytes of a general register, `Float` in the low half of a floating-point one.
  @inlinable @inline(__always)
  static func value<T: ObjCScalar>(_ bits: UInt64, as type: T.Type) -> T {
    withUnsafeBytes(of: bits) { $0.load(as: T.self) }
  }

  @inlinable @inline(__always)
  static func general(_ index: Int, _ i0: UInt64, _ i1: UInt64, _ i2: UInt64) -> UInt64 {
    switch index {
    case 0: i0
    case 1: i1
    default: i2
    }
  }

  @inlinable @inline(__always)
  static func floating(
    _ index: Int, _ d0: Double, _ d1: Double, _ d2: Double, _ d3: Double, _ d4: Double,
    _ d5: Double, _ d6: Double, _ d7: Double
  ) -> UInt64 {
    switch index {
    case 0: d0.bitPattern
    case 1: d1.bitPattern
    case 2: d2.bitPattern
    case 3: d3.bitPattern
    case 4: d4.bitPattern
    case 5: d5.bitPattern
    case 6: d6.bitPattern
    default: d7.bitPattern
    }
  }

  @inlinable @inline(__always)
  static func generalSmall(_ index: Int, _ i0: UInt64, _ i1: UInt64) -> UInt64 {
    index == 0 ? i0 : i1
  }

  @inlinable @inline(__always)
  static func floatingSmall(_ index: Int, _ d0: Double, _ d1: Double) -> UInt64 {
    index == 0 ? d0.bitPattern : d1.bitPattern
  }

  /// The bits a result travels back in: objects retained (+1), as IMPs return them.
  @inlinable @inline(__always)
  static func resultBits<R: ObjCScalar>(_ value: R) -> UInt64 {
    let bits = value.registerBits
    if R.objcTypeCode == UInt8(ascii: "@"), let address = UnsafeRawPointer(bitPattern: UInt(bits)) {
      _ = Unmanaged<AnyObject>.fromOpaque(address).retain()
    }
    return bits
  }

  /// A zero result for a call whose receiver was not of the closure's type.
  @usableFromInline
  static func wrongReceiver() -> UInt64 {
    Diagnostics.warn(
      "an IMP made from a closure was called on an object of another class; it returned zero",
      kind: .closureReceiver)
    return 0
  }
}

private func getenvIsUnset(_ name: String) -> Bool {
  name.withCString { swk_getenv_is_unset($0) != 0 }
}
