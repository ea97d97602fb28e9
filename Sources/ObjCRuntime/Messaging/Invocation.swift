// Invocation: the NSInvocation analogue, a message as an object that can be inspected and re-sent.
import Synchronization

/// A message as an object: a target, a selector, typed arguments and a return value, the analogue
/// of `NSInvocation`.
///
/// Forwarding hands one to `forwardInvocation(_:)`, which may change the arguments, send it to
/// another target with ``invoke(target:)``, or answer it with ``setReturnValue(_:)``. Any
/// signature libffi can call works, structs by value included. A signature whose values all fit
/// in registers is called through the register shapes typed sends use; the others through
/// `ffi_call`. The memory of the call is allocated once, when the invocation is made, so invoking
/// allocates nothing.
///
/// Object arguments, the target and the returned object are retained by the invocation for as
/// long as it lives, as `-retainArguments` makes Foundation's do.
public final class Invocation: ObjCObject {
  // The stored properties below are only touched by the thread that uses the invocation (an
  // invocation is not shared between threads), so Swift's dynamic exclusivity checks, which cost
  // more than the call itself, are turned off for them.

  /// The object the message is sent to by ``invoke()``; retained.
  @exclusivity(unchecked) public var target: ObjCObject?
  /// The message's selector.
  @exclusivity(unchecked) public var selector: Selector
  /// The message's types.
  public let methodSignature: MethodSignature

  private let frame: InvocationFrame
  /// The frame's pointer array and return slot, copied out of it so that a call reads them
  /// without touching (and reference-counting) the frame object. The frame owns the memory and
  /// lives as long as the invocation.
  private let argumentPointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  private let returnSlot: UnsafeMutableRawPointer
  /// Each argument's and the return type's one-byte code, for the scalar fast paths.
  private let argumentCodes: [UInt8?]
  private let returnCode: UInt8?
  /// The last method whose signature was checked against this invocation's.
  @exclusivity(unchecked) private var verifiedMethod: Method? {
    didSet {
      verifiedMethodAddress = verifiedMethod.map {
        UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque())
      }
    }
  }
  /// The address of `verifiedMethod`, compared with the cache's entry without reference counting.
  @exclusivity(unchecked) private var verifiedMethodAddress: UnsafeRawPointer?
  @exclusivity(unchecked) private var retainedArguments: [Int: AnyObject] = [:]
  @exclusivity(unchecked) private var returnedObject: AnyObject?
  @exclusivity(unchecked) private var markedUnanswered = false
  /// When every value of the signature travels in one register, the call needs no libffi.
  private let registerShape: RegisterShape?
  private let returnsObject: Bool

  /// The selector of an invocation made from a signature alone, until one is set.
  private static let noSelector = Selector("")

  /// An invocation of a message with `signature`, every argument zero, no target or selector
  /// yet. The corresponding Foundation method is `+invocationWithMethodSignature:`.
  ///
  /// - Throws: ``ObjCRuntimeError/unsupportedSignature(_:encoding:)`` for a signature libffi cannot
  ///   call (unions, bit fields, `long double`).
  public init(methodSignature signature: MethodSignature) throws(ObjCRuntimeError) {
    let interface = try CallInterfaces.interface(
      for: signature.typeEncoding,
      reference: MethodReference(className: "Invocation", selectorName: "(none)"))
    let frame = InvocationFrame(interface)
    self.frame = frame
    self.argumentPointers = frame.argumentPointers
    self.returnSlot = frame.returnSlot
    self.argumentCodes = interface.argumentCodes
    self.returnCode = interface.returnCode
    self.registerShape = RegisterShape(signature)
    self.methodSignature = signature
    self.selector = Invocation.noSelector
    self.returnsObject = interface.returnCode == UInt8(ascii: "@")
    super.init()
  }

  /// An invocation of `selector` on `target`, typed by the method `target` would run, with every
  /// argument zero.
  ///
  /// - Throws: ``ObjCRuntimeError/unrecognizedSelector(_:)`` when the target has no such method,
  ///   and ``ObjCRuntimeError/unsupportedSignature(_:encoding:)``.
  public convenience init(target: ObjCObject, selector: Selector) throws(ObjCRuntimeError) {
    let cls = target.isa.takeUnretainedValue()
    guard let method = cls.instanceMethod(for: selector) else {
      throw .unrecognizedSelector(MethodReference(owner: cls, selector: selector))
    }
    try self.init(methodSignature: MethodSignature(method))
    self.target = target
    self.selector = selector
  }

  /// An invocation of a typed send that forwarding caught: the arguments arrive as register words.
  internal convenience init(
    target: ObjCObject, selector: Selector, signature: MethodSignature, argumentWords: [UInt64]
  ) throws(ObjCRuntimeError) {
    try self.init(methodSignature: signature)
    self.target = target
    self.selector = selector
    for (position, word) in argumentWords.enumerated() {
      let index = position + 2
      frame.slot(index).storeBytes(of: word, as: UInt64.self)
      if SignatureCode.code(of: signature.encoding.argumentTypes[index]) == UInt8(ascii: "@"),
        let address = UnsafeRawPointer(bitPattern: UInt(word))
      {
        retainedArguments[index] = Unmanaged<AnyObject>.fromOpaque(address).takeUnretainedValue()
      }
    }
  }

  /// An invocation of a call an ``Interceptor`` caught, its arguments copied from the call's
  /// slots (object arguments retained): how a call whose implementation is the forward IMP goes
  /// down the forwarding chain, whatever its signature.
  internal convenience init(
    target: ObjCObject, selector: Selector, signature: MethodSignature,
    copying slots: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  ) throws(ObjCRuntimeError) {
    try self.init(methodSignature: signature)
    self.target = target
    self.selector = selector
    for index in 2..<frame.count {
      guard let source = slots[index] else { continue }
      frame.slot(index).copyMemory(from: source, byteCount: frame.slotSize(index))
      if SignatureCode.code(of: signature.encoding.argumentTypes[index]) == UInt8(ascii: "@"),
        let address = frame.slot(index).load(as: UnsafeRawPointer?.self)
      {
        retainedArguments[index] = Unmanaged<AnyObject>.fromOpaque(address).takeUnretainedValue()
      }
    }
  }

  /// Copies the return value into `destination`, at most `capacity` bytes; an object result is
  /// retained once for the caller, as IMPs return objects.
  internal func copyReturnValue(to destination: UnsafeMutableRawPointer, capacity: Int) {
    destination.copyMemory(
      from: returnSlot, byteCount: min(capacity, frame.interface.returnSlotSize))
    if returnsObject, let address = returnSlot.load(as: UnsafeRawPointer?.self) {
      _ = Unmanaged<AnyObject>.fromOpaque(address).retain()
    }
  }

  /// Whether a `forwardInvocation(_:)` answered the invocation (the root implementation does not).
  internal var wasAnswered: Bool { !markedUnanswered }

  internal func markUnanswered() {
    markedUnanswered = true
  }

  /// Clears the mark before the invocation is handed to `forwardInvocation(_:)`.
  internal func prepareForForwarding() {
    markedUnanswered = false
  }

  /// Keeps the target and object arguments alive; they always are, so this only exists for
  /// Foundation's callers. The corresponding Foundation method is `-retainArguments`.
  public func retainArguments() {}

  // MARK: Arguments

  /// Argument `index` as a `T`; index 2 is the first argument after `self` and `_cmd`.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not laid out as
  ///   the argument is, or the index is out of range.
  public func argument<T: ObjCTypeEncodable>(at index: Int, as type: T.Type = T.self)
    throws(ObjCRuntimeError) -> T
  {
    try check(T.self, against: argumentDescriptor(index), "argument \(index)")
    return frame.slot(index).load(as: T.self)
  }

  /// Replaces argument `index` (2 or more). Objects are retained by the invocation.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not laid out as
  ///   the argument is, or the index is out of range.
  public func setArgument<T: ObjCTypeEncodable>(_ value: T, at index: Int) throws(ObjCRuntimeError)
  {
    try check(T.self, against: argumentDescriptor(index), "argument \(index)")
    InvocationFrame.write(value, to: frame.slot(index), capacity: frame.slotSize(index))
    // Only an object argument holds a reference to keep (a struct's is never one).
    retainedArguments[index] =
      argumentCodes[index] == UInt8(ascii: "@") ? objectReference(value) : nil
  }

  /// Argument `index` as a scalar `T`: the fast path, a one-byte comparison of type codes.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not the
  ///   argument's type or the index is out of range.
  public func argument<T: ObjCScalar>(at index: Int, as type: T.Type = T.self)
    throws(ObjCRuntimeError) -> T
  {
    try checkScalar(T.self, index)
    return frame.slot(index).load(as: T.self)
  }

  /// Replaces argument `index` with a scalar: the fast path.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not the
  ///   argument's type or the index is out of range.
  public func setArgument<T: ObjCScalar>(_ value: T, at index: Int) throws(ObjCRuntimeError) {
    try checkScalar(T.self, index)
    InvocationFrame.write(value, to: frame.slot(index), capacity: frame.slotSize(index))
    if T.objcTypeCode == UInt8(ascii: "@") {
      retainedArguments[index] = objectReference(value)
    }
  }

  /// The return value as a scalar `T`: the fast path.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not the return
  ///   type.
  public func returnValue<T: ObjCScalar>(as type: T.Type = T.self) throws(ObjCRuntimeError) -> T {
    guard returnCode == T.objcTypeCode else { throw mismatch("the return value as \(T.self)") }
    return frame.returnSlot.load(as: T.self)
  }

  private func checkScalar<T: ObjCScalar>(_ type: T.Type, _ index: Int) throws(ObjCRuntimeError) {
    guard index >= 2, index < frame.count, argumentCodes[index] == T.objcTypeCode else {
      throw mismatch("argument \(index) as \(T.self)")
    }
  }

  private func argumentDescriptor(_ index: Int) throws(ObjCRuntimeError) -> ObjCTypeDescriptor {
    guard index >= 2, index < frame.count else {
      throw mismatch("an argument index from 2 to \(frame.count - 1), not \(index)")
    }
    return methodSignature.encoding.argumentDescriptors[index]
  }

  private func check<T: ObjCTypeEncodable>(
    _ type: T.Type, against expected: ObjCTypeDescriptor, _ what: String
  ) throws(ObjCRuntimeError) {
    guard let descriptor = TypeDescriptors.descriptor(of: T.self),
      descriptor.isLayoutCompatible(with: expected),
      MemoryLayout<T>.size <= max(expected.size, 8)
    else {
      throw mismatch("\(what) as \(T.self)")
    }
  }

  private func mismatch(_ call: String) -> ObjCRuntimeError {
    .signatureMismatch(
      MethodReference(className: "Invocation", selectorName: selector.name),
      method: methodSignature.typeEncoding, call: call)
  }

  // MARK: Return value

  /// The return value as a `T`, after ``invoke()`` or ``setReturnValue(_:)``.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not laid out as
  ///   the return type is.
  public func returnValue<T: ObjCTypeEncodable>(as type: T.Type = T.self) throws(ObjCRuntimeError)
    -> T
  {
    try check(T.self, against: methodSignature.encoding.returnDescriptor, "the return value")
    return frame.returnSlot.load(as: T.self)
  }

  /// Answers the invocation with `value`, as a `forwardInvocation(_:)` that handles the message
  /// itself does.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not laid out as
  ///   the return type is.
  public func setReturnValue<T: ObjCTypeEncodable>(_ value: T) throws(ObjCRuntimeError) {
    try check(T.self, against: methodSignature.encoding.returnDescriptor, "the return value")
    InvocationFrame.write(value, to: frame.returnSlot, capacity: frame.interface.returnSlotSize)
    returnedObject = objectReference(value)
  }

  /// The return value as a typed send hands it back in a register: objects retained once more
  /// (+1) for the caller.
  internal func returnWordForCaller() -> UInt64 {
    let word = frame.returnSlot.load(as: UInt64.self)
    if returnsObject, let address = UnsafeRawPointer(bitPattern: UInt(word)) {
      _ = Unmanaged<AnyObject>.fromOpaque(address).retain()
    }
    return word
  }

  // MARK: Invoking

  /// Sends the message to ``target`` and keeps the return value. The corresponding Foundation
  /// method is `-invoke`.
  ///
  /// - Throws: ``ObjCRuntimeError/nilArgument(_:)`` without a target, and what the send throws.
  public func invoke() throws(ObjCRuntimeError) {
    guard let target else { throw .nilArgument("Invocation.target") }
    try invoke(target: target)
  }

  /// Sends the message to `target` (the invocation's own target is not changed) and keeps the
  /// return value. A target that does not implement the method forwards it in turn, with this
  /// invocation. The corresponding Foundation method is `-invokeWithTarget:`.
  public func invoke(target: ObjCObject) throws(ObjCRuntimeError) {
    // The fast path: the class's cache already holds the method whose signature was checked.
    let selector = self.selector
    if let hit = target.isa._withUnsafeGuaranteedRef({ $0.sendCache.lookup(selector) }),
      hit == verifiedMethodAddress
    {
      let word = Unmanaged<Method>.fromOpaque(hit)._withUnsafeGuaranteedRef {
        $0.impWord.load(ordering: .acquiring)
      }
      if let imp = UnsafeRawPointer(bitPattern: word) {
        return call(imp, on: target)
      }
    }
    let cls = target.isa.takeUnretainedValue()
    guard let method = Dispatch.lookUpResolving(cls, selector, .send, for: target),
      let imp = method.implementation
    else {
      return try Forwarding.forward(self, to: target)
    }
    guard MethodTableEdits.sameSignature(method.typeEncoding, methodSignature.typeEncoding) else {
      throw .signatureMismatch(
        MethodReference(owner: cls, selector: selector), method: method.typeEncoding,
        call: methodSignature.typeEncoding)
    }
    verifiedMethod = method
    call(imp.rawValue, on: target)
  }

  /// Calls `imp` directly with the target and arguments, whatever method the target has. The
  /// corresponding Foundation method is `-invokeUsingIMP:`.
  ///
  /// - Throws: ``ObjCRuntimeError/nilArgument(_:)`` without a target, and
  ///   ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when the IMP was declared with
  ///   another signature.
  public func invoke(using imp: IMP) throws(ObjCRuntimeError) {
    guard let target else { throw .nilArgument("Invocation.target") }
    if let declared = imp.declaredTypeEncoding,
      !MethodTableEdits.sameSignature(declared, methodSignature.typeEncoding)
    {
      throw mismatch("an IMP of type \(declared)")
    }
    call(imp.rawValue, on: target)
  }

  @inline(__always)
  private func call(_ imp: UnsafeRawPointer, on target: ObjCObject) {
    argumentPointers[0].unsafelyUnwrapped.storeBytes(of: target.passUnretained(), as: id.self)
    argumentPointers[1].unsafelyUnwrapped.storeBytes(of: selector.sel, as: SEL.self)
    // `target` is a parameter: its caller keeps it alive for the whole call.
    if let registerShape {
      // Every value fits a register: call through the register shapes typed sends use, which
      // costs a fraction of ffi_call's classification of each argument.
      let bits = registerShape.call(imp, argumentPointers)
      if registerShape.result == .floatingPoint, returnCode == UInt8(ascii: "f") {
        returnSlot.storeBytes(of: UInt32(truncatingIfNeeded: bits), as: UInt32.self)
      } else {
        returnSlot.storeBytes(of: bits, as: UInt64.self)
      }
    } else {
      frame.interface.call(imp, returnSlot: returnSlot, arguments: argumentPointers)
    }
    if returnsObject {
      // An IMP returns objects retained (+1): the invocation takes that reference over, and
      // drops the one it held from an earlier call. Other return types never hold an object.
      returnedObject = returnSlot.load(as: UnsafeRawPointer?.self).map {
        Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue()
      }
    }
  }
}
