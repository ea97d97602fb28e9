// A libffi closure for any method signature that hands a Swift handler the raw call.

/// One call caught by an ``Interceptor``: a view of its arguments and of its return slot, valid
/// only while the handler runs. Reading and writing goes through the signature's layout; nothing
/// is allocated.
public struct InterceptedCall: CallArguments {
  /// The signature of the intercepted method.
  public var signature: MethodSignature { layout.signature }
  // Unowned: the interceptor owns the layout and outlives every call it handles, so a call view
  // holds no references and copying it costs three words.
  private unowned(unsafe) let layout: CallLayout
  @usableFromInline internal let arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  @usableFromInline internal let returnSlot: UnsafeMutableRawPointer

  internal init(
    layout: CallLayout, arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    returnSlot: UnsafeMutableRawPointer
  ) {
    self.layout = layout
    self.arguments = arguments
    self.returnSlot = returnSlot
  }

  /// A view with an unmanaged layout: made without retaining it.
  @usableFromInline
  internal init(
    layout: Unmanaged<CallLayout>, arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    returnSlot: UnsafeMutableRawPointer
  ) {
    self.layout = layout.takeUnretainedValue()
    self.arguments = arguments
    self.returnSlot = returnSlot
  }

  /// The receiver (`self`), unretained for the duration of the call.
  public var receiver: ObjCObject {
    arguments[0].unsafelyUnwrapped.load(as: id.self).takeUnretainedObject()
  }

  /// The receiver, borrowed without reference counting (the caller keeps it alive for the
  /// call).
  @inlinable
  package var borrowedReceiver: BorrowedReference<ObjCObject> {
    BorrowedReference(Unmanaged.fromOpaque(UnsafeRawPointer(argumentAddress(0).load(as: id.self))))
  }

  /// The selector the method was called with (`_cmd`).
  public var selector: Selector {
    Selector(arguments[1].unsafelyUnwrapped.load(as: SEL.self))
  }

  /// Argument `index` (2 is the first after `self` and `_cmd`) as a `T`; nil when `T` is not laid
  /// out as the argument is.
  public func argument<T: ObjCTypeEncodable>(at index: Int, as type: T.Type = T.self) -> T? {
    guard index >= 2, index < signature.numberOfArguments,
      InterceptedCall.fits(T.self, signature.encoding.argumentDescriptors[index])
    else { return nil }
    return arguments[index].unsafelyUnwrapped.load(as: T.self)
  }

  /// Replaces argument `index` before the call is forwarded. Objects are not retained: the
  /// caller's reference must outlive the call. Returns false when `T` does not fit.
  @discardableResult
  public func setArgument<T: ObjCTypeEncodable>(_ value: T, at index: Int) -> Bool {
    guard index >= 2, index < signature.numberOfArguments,
      InterceptedCall.fits(T.self, signature.encoding.argumentDescriptors[index])
    else { return false }
    InvocationFrame.write(
      value, to: arguments[index].unsafelyUnwrapped, capacity: MemoryLayout<T>.size)
    return true
  }

  /// Argument `index` as a `T`, without the layout check of ``argument(at:as:)``: for a hook
  /// that checked the signature once, when it was installed, with
  /// ``MethodSignature/argument(at:accepts:)``.
  ///
  /// - Precondition: `index` is in range and `T` is laid out as the argument is.
  @inlinable @inline(__always)
  package func uncheckedArgument<T>(at index: Int, as type: T.Type = T.self) -> T {
    argumentAddress(index).load(as: T.self)
  }

  /// Argument `index` read through `T`'s conformance (see
  /// ``ObjCTypeEncodable/objcValue(at:)``): what typed hooks use inside parameter packs.
  ///
  /// - Precondition: as for ``uncheckedArgument(at:as:)``.
  @inlinable @inline(__always)
  package func uncheckedEncodableArgument<T: ObjCTypeEncodable>(at index: Int, as type: T.Type)
    -> T
  {
    T.objcValue(at: argumentAddress(index))
  }

  /// Argument `index` as an object address; nil for `nil`.
  ///
  /// - Precondition: argument `index` is an object.
  @inlinable @inline(__always)
  package func uncheckedObjectAddress(at index: Int) -> UnsafeRawPointer? {
    argumentAddress(index).load(as: UnsafeRawPointer?.self)
  }

  /// Replaces argument `index` without the layout check of ``setArgument(_:at:)``. The value's
  /// bits are copied: an object is not retained, as with ``setArgument(_:at:)``.
  ///
  /// - Precondition: as for ``uncheckedArgument(at:as:)``.
  @usableFromInline package func uncheckedSetArgument<T>(_ value: T, at index: Int) {
    InvocationFrame.write(value, to: argumentAddress(index), capacity: MemoryLayout<T>.size)
  }

  /// The value in the return slot, without the layout check of ``returnValue(as:)``.
  ///
  /// - Precondition: `T` is laid out as the return type is
  ///   (``MethodSignature/returnType(accepts:)``).
  @inlinable
  package func uncheckedReturnValue<T>(as type: T.Type = T.self) -> T {
    returnAddress.load(as: T.self)
  }

  /// The value in the return slot, moved out: an object result's reference goes with it, and
  /// the slot is left to be emptied or overwritten.
  ///
  /// - Precondition: as for ``uncheckedReturnValue(as:)``.
  @inlinable
  package func uncheckedTakeReturnValue<T>(as type: T.Type = T.self) -> T {
    returnAddress.withMemoryRebound(to: T.self, capacity: 1) { $0.move() }
  }

  /// The bytes of argument `index`, `count` of them: how a struct is shown when its Swift type
  /// is not known. Empty when `index` is out of range.
  public func argumentBytes(at index: Int, count: Int) -> [UInt8] {
    guard index >= 0, index < signature.numberOfArguments else { return [] }
    let size = min(count, signature.argumentDescriptor(at: index)?.size ?? 0)
    return Array(UnsafeRawBufferPointer(start: argumentAddress(index), count: size))
  }

  /// Stores `value`'s bytes in the return slot as they are: no retain, no widening. For
  /// emptying the slot of an object result (`nil`) after its reference was released.
  ///
  /// - Precondition: `T` is no larger than the return slot.
  @inlinable
  package func uncheckedSetRawReturnValue<T: BitwiseCopyable>(_ value: T) {
    returnAddress.storeBytes(of: value, as: T.self)
  }

  @inlinable @inline(__always)
  internal func argumentAddress(_ index: Int) -> UnsafeMutableRawPointer {
    arguments[index].unsafelyUnwrapped
  }

  @inlinable
  internal var returnAddress: UnsafeMutableRawPointer { returnSlot }

  /// The value in the return slot as a `T` (after ``forward(to:)`` or ``setReturnValue(_:)``);
  /// nil when `T` does not fit.
  public func returnValue<T: ObjCTypeEncodable>(as type: T.Type = T.self) -> T? {
    guard InterceptedCall.fits(T.self, signature.encoding.returnDescriptor) else { return nil }
    return returnSlot.load(as: T.self)
  }

  /// Writes the value the call returns. An object must be returned retained, as IMPs return
  /// them: pass it and the slot takes a reference. Returns false when `T` does not fit.
  @discardableResult
  public func setReturnValue<T: ObjCTypeEncodable>(_ value: T) -> Bool {
    guard InterceptedCall.fits(T.self, signature.encoding.returnDescriptor) else { return false }
    uncheckedSetReturnValue(value)
    return true
  }

  /// Writes the value the call returns without the layout check of ``setReturnValue(_:)``;
  /// objects are retained as there.
  ///
  /// - Precondition: `T` is laid out as the return type is
  ///   (``MethodSignature/returnType(accepts:)``).
  @usableFromInline package func uncheckedSetReturnValue<T>(_ value: T) {
    InterceptedCall.storeResult(
      value, to: returnSlot, signature: signature,
      capacity: layout.interface?.returnSlotSize ?? 8)
  }

  /// Writes `value` as the result of a method of `signature` to `slot` (`capacity` bytes): an
  /// object retained for the caller, a narrow integer widened to a full register, as libffi
  /// expects.
  internal static func storeResult<T>(
    _ value: T, to slot: UnsafeMutableRawPointer, signature: MethodSignature, capacity: Int
  ) {
    // The result's merged code, 0 when the signature has none (a struct): only an object
    // result, or one whose code is unknown, may hold a reference to hand over.
    let result = UInt8(truncatingIfNeeded: signature.signatureCode)
    if result == 0 || result == UInt8(ascii: "@"), let object = objectReference(value) {
      _ = Unmanaged.passRetained(object)
    }
    if case .integer(let size, let signed) = signature.encoding.returnDescriptor, size < 8 {
      var word: UInt64 = 0
      withUnsafeBytes(of: value) { bytes in
        for (offset, byte) in bytes.prefix(size).enumerated() {
          word |= UInt64(byte) << (8 * UInt64(offset))
        }
      }
      if signed, size < 8, word & (1 << (UInt64(size) * 8 - 1)) != 0 {
        word |= ~0 << (UInt64(size) * 8)
      }
      slot.storeBytes(of: word, as: UInt64.self)
    } else {
      InvocationFrame.write(value, to: slot, capacity: capacity)
    }
  }

  /// Calls `imp` with this call's arguments (as they are now) and lets it fill the return slot:
  /// how a hook calls the implementation it replaced. When `imp` is ``IMP/forward`` (the method
  /// was sent into forwarding, as Aspects does), the call goes down the forwarding chain as an
  /// invocation, whatever its signature.
  public func forward(to imp: IMP) {
    if imp.isForward { return forwardIntoForwarding() }
    if let registerShape = layout.registerShape {
      returnSlot.storeBytes(of: registerShape.call(imp.rawValue, arguments), as: UInt64.self)
    } else {
      layout.interface.unsafelyUnwrapped.call(
        imp.rawValue, returnSlot: returnSlot, arguments: arguments)
    }
  }

  /// objc4's `_objc_msgForward` as the implementation: an invocation of this call goes down the
  /// forwarding chain, and its return value comes back to the call's return slot. What objc4
  /// raises (an unrecognized selector) traps here, naming the method.
  private func forwardIntoForwarding() {
    let target = receiver
    do throws(ObjCRuntimeError) {
      let invocation = try Invocation(
        target: target, selector: selector, signature: signature, copying: arguments)
      try Forwarding.forward(invocation, to: target)
      invocation.copyReturnValue(to: returnSlot, capacity: layout.interface?.returnSlotSize ?? 8)
    } catch {
      fatalError("\(error)")
    }
  }

  /// Calls `imp` with this call's arguments and `selector` as `_cmd`, then gives the call back its
  /// own `_cmd`: what a swizzle's `[self xxx_method:…]` does once the runtime found `imp` for
  /// `xxx_method:`.
  public func forward(to imp: IMP, as selector: Selector) {
    let slot = arguments[1].unsafelyUnwrapped
    let own = slot.load(as: SEL.self)
    slot.storeBytes(of: selector.sel, as: SEL.self)
    defer { slot.storeBytes(of: own, as: SEL.self) }
    forward(to: imp)
  }

  private static func fits<T: ObjCTypeEncodable>(_ type: T.Type, _ expected: ObjCTypeDescriptor)
    -> Bool
  {
    TypeDescriptors.descriptor(of: T.self)?.isLayoutCompatible(with: expected) ?? false
  }
}

/// A real C function pointer for any method signature that runs a Swift handler with a view of
/// the raw call, the base the hook framework builds on.
///
/// ```swift
/// let original = method_getImplementation(method)!
/// let interceptor = try Interceptor(types: method_getTypeEncoding(method)!) { call in
///   print("before \(call.selector)")
///   call.forward(to: original)
/// }
/// method_setImplementation(method, interceptor.implementation)
/// ```
///
/// The IMP is valid for as long as the interceptor lives; keep it (a hook keeps its own).
public final class Interceptor: Sendable {
  // Sendable: every stored property is immutable; the closure and signature are only read.

  /// The signature the IMP implements.
  public let signature: MethodSignature
  /// The IMP to install.
  public let implementation: IMP
  private let closure: UnsafeClosureBox

  /// Makes an interceptor for methods of type `types`.
  ///
  /// - Throws: ``ObjCRuntimeError/malformedTypeEncoding(_:position:expected:)`` and
  ///   ``ObjCRuntimeError/unsupportedSignature(_:encoding:)``.
  public convenience init(
    types: String, handler: @escaping @Sendable (InterceptedCall) -> Void
  ) throws(ObjCRuntimeError) {
    try self.init(types: types, handler: ClosureHandler(handler))
  }

  /// Makes an interceptor for methods of type `types` whose calls go to `handler`'s
  /// ``InterceptionHandler/intercept(_:)``: one indirect call less than a closure, for handlers
  /// on hot paths (the hook framework's sites). The interceptor keeps `handler` alive.
  ///
  /// - Throws: as ``init(types:handler:)-closure``.
  package init<Handler: InterceptionHandler>(types: String, handler: Handler)
    throws(ObjCRuntimeError)
  {
    let signature = try MethodSignature(types: types)
    self.signature = signature
    if let shape = RegisterShape(signature), RegisterClosures.enabled,
      let (owner, code) = Interceptor.registerStub(signature, shape, handler)
    {
      // Every value fits a register: a stub hands the registers to Swift; no libffi on the way
      // in or out.
      self.closure = UnsafeClosureBox(owner)
      self.implementation = IMP(rawValue: code)
    } else {
      let interface = try CallInterfaces.interface(for: types)
      let layout = CallLayout(signature: signature, interface: interface, registerShape: nil)
      let closure = try FFIClosure(interface) { arguments, returnSlot in
        handler.intercept(
          InterceptedCall(layout: layout, arguments: arguments, returnSlot: returnSlot))
      }
      self.closure = UnsafeClosureBox(closure)
      self.implementation = IMP(rawValue: closure.code)
    }
    IMPSignatures.shared.record(implementation, encoding: types)
  }

  /// The stub for a method whose values all fit registers, and the object that owns it: for at
  /// most three integer-class arguments, a ``RegisterEntry`` that hands `handler` the registers
  /// themselves (``RegisterCall``); otherwise a register-shape closure that lays them out as a
  /// call frame (one word per argument and one for the result, on the stack). Nil when the shape
  /// has no stub or no executable memory could be had (the caller then uses libffi).
  private static func registerStub<Handler: InterceptionHandler>(
    _ signature: MethodSignature, _ shape: RegisterShape, _ handler: Handler
  ) -> (AnyObject, UnsafeRawPointer)? {
    guard shape.generalCount <= 3, shape.floatingCount <= 8 else { return nil }
    let layout = CallLayout(signature: signature, interface: nil, registerShape: shape)
    if shape.floatingMask == 0 {
      // The common shape: at most three integer-class arguments, in order, handed over as they
      // arrived; the handler lays them out as a frame only if it needs one.
      return RegisterEntry.make(
        handler: handler, layout: layout, generalCount: shape.generalCount,
        floatingResult: shape.result == .floatingPoint
      ).flatMap { entry in entry.stub.map { (entry, UnsafeRawPointer($0)) } }
    }
    let closure = RegisterClosure { me, cmd, i0, i1, i2, d0, d1, d2, d3, d4, d5, d6, d7 in
      withUnsafeTemporaryAllocation(of: UInt64.self, capacity: RegisterCall.frameWords) { frame in
        let base = frame.baseAddress.unsafelyUnwrapped
        base[0] = UInt64(UInt(bitPattern: me))
        base[1] = UInt64(UInt(bitPattern: cmd))
        var general = 0
        var floating = 0
        for position in 0..<shape.count {
          if shape.kind(position) == .general {
            base[2 + position] = RegisterClosures.general(general, i0, i1, i2)
            general += 1
          } else {
            base[2 + position] = RegisterClosures.floating(
              floating, d0, d1, d2, d3, d4, d5, d6, d7)
            floating += 1
          }
        }
        handler.intercept(RegisterCall.frame(at: base, layout: Unmanaged.passUnretained(layout)))
        return RegisterCall.result(in: base)
      }
    }
    return closure.makeStub(
      generalCount: shape.generalCount, floatingCount: shape.floatingCount,
      floatingResult: shape.result == .floatingPoint
    ).map { (closure, $0) }
  }
}

/// An object that handles the calls an ``Interceptor`` catches.
package protocol InterceptionHandler: AnyObject, Sendable {
  /// Handles one call: read and change its arguments, forward it, set its result.
  func intercept(_ call: InterceptedCall)

  /// Handles one call of a method whose arguments are all integer-class registers, and returns
  /// the result register's bits. By default, ``intercept(_:)`` with the call laid out as a frame.
  func intercept(registers call: RegisterCall) -> UInt64
}

extension InterceptionHandler {
  package func intercept(registers call: RegisterCall) -> UInt64 {
    call.withFrame { intercept($0) }
  }
}

/// A closure as an ``InterceptionHandler``.
private final class ClosureHandler: InterceptionHandler {
  let body: @Sendable (InterceptedCall) -> Void
  init(_ body: @escaping @Sendable (InterceptedCall) -> Void) { self.body = body }
  func intercept(_ call: InterceptedCall) { body(call) }
}

/// What a call view needs of its interceptor: the signature, and how to forward a call (through
/// libffi's call interface, or through the register shape when every value fits a register).
@usableFromInline
internal final class CallLayout {
  let signature: MethodSignature
  let interface: FFICallInterface?
  let registerShape: RegisterShape?

  init(signature: MethodSignature, interface: FFICallInterface?, registerShape: RegisterShape?) {
    self.signature = signature
    self.interface = interface
    self.registerShape = registerShape
  }
}

/// Holds the `FFIClosure`, `RegisterClosure` or `RegisterEntry` behind an interceptor's IMP in a
/// `Sendable` type.
///
/// `@unchecked Sendable`: the object is immutable after init, and the code of each kind is safe
/// to call from any thread.
private final class UnsafeClosureBox: @unchecked Sendable {
  let closure: AnyObject
  init(_ closure: AnyObject) { self.closure = closure }
}
