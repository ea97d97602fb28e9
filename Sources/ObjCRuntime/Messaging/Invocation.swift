// Invocation: the NSInvocation analogue, a message as an object that can be inspected and re-sent.

/// A message as an object: a target, a selector, typed arguments and a return value, the analogue
/// of `NSInvocation`.
///
/// Forwarding hands one to `forwardInvocation(_:)`, which may change the arguments, send it to
/// another target with ``invoke(target:)``, or answer it with ``setReturnValue(_:)``. This version
/// carries every argument in one register word, like typed sends; structs by value arrive with
/// the libffi layer.
///
/// Object arguments and the returned object are retained by the invocation for as long as it
/// lives (what `-retainArguments` does in Foundation; here it is always on).
public final class Invocation: ObjCObject {
  /// The object the message is sent to by ``invoke()``.
  public var target: ObjCObject?
  /// The message's selector.
  public var selector: Selector
  /// The message's types.
  public let methodSignature: MethodSignature

  private var words: [UInt64]
  private var retainedArguments: [Int: ObjCObject] = [:]
  private var returnWord: UInt64 = 0
  private var returnedObject: ObjCObject?
  private var markedUnanswered = false

  internal init(
    target: ObjCObject?, selector: Selector, signature: MethodSignature, argumentWords: [UInt64]
  ) {
    self.target = target
    self.selector = selector
    self.methodSignature = signature
    self.words = argumentWords
    super.init()
    for (position, type) in signature.encoding.explicitArgumentTypes.enumerated()
    where SignatureCode.code(of: type) == UInt8(ascii: "@") {
      if let address = UnsafeRawPointer(bitPattern: UInt(words[position])) {
        retainedArguments[position] = Unmanaged<ObjCObject>.fromOpaque(address)
          .takeUnretainedValue()
      }
    }
  }

  /// An invocation of `selector` on `target`, typed by the method `target` would run, with every
  /// argument zero. The corresponding Foundation method is `+invocationWithMethodSignature:`
  /// followed by setting the target and selector.
  ///
  /// - Throws: ``ObjCRuntimeError/unrecognizedSelector(_:)`` when the target has no such method.
  public convenience init(target: ObjCObject, selector: Selector) throws(ObjCRuntimeError) {
    let cls = target.isa.takeUnretainedValue()
    guard let method = cls.instanceMethod(for: selector) else {
      throw .unrecognizedSelector(MethodReference(owner: cls, selector: selector))
    }
    let signature = MethodSignature(method)
    self.init(
      target: target, selector: selector, signature: signature,
      argumentWords: Array(repeating: 0, count: signature.numberOfArguments - 2))
  }

  /// Whether a `forwardInvocation(_:)` answered the invocation (the root implementation does not).
  internal var wasAnswered: Bool { !markedUnanswered }

  internal func markUnanswered() {
    markedUnanswered = true
  }

  // MARK: Arguments

  /// Argument `index` as a `T`; index 2 is the first argument after `self` and `_cmd`.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not the
  ///   argument's type or the index is out of range.
  public func argument<T: ObjCScalar>(at index: Int, as type: T.Type = T.self)
    throws(ObjCRuntimeError) -> T
  {
    let position = try checkedPosition(index, T.objcTypeCode)
    var bits = words[position]
    if T.objcTypeCode == UInt8(ascii: "@"), let object = retainedArguments[position] {
      // Objects are held by the invocation; hand out a +1 reference, as a return would.
      bits = UInt64(UInt(bitPattern: UnsafeRawPointer(object.passRetained())))
    }
    guard let value = T.fromReturnedBits(bits) else { return try fail(index) }
    return value
  }

  /// Replaces argument `index` (2 or more).
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not the
  ///   argument's type or the index is out of range.
  public func setArgument<T: ObjCScalar>(_ value: T, at index: Int) throws(ObjCRuntimeError) {
    let position = try checkedPosition(index, T.objcTypeCode)
    words[position] = value.registerBits
    if let object = value as? ObjCObject {
      retainedArguments[position] = object
    } else {
      retainedArguments[position] = nil
    }
  }

  private func checkedPosition(_ index: Int, _ code: UInt8) throws(ObjCRuntimeError) -> Int {
    let position = index - 2
    guard words.indices.contains(position),
      let expected = methodSignature.argumentType(at: index),
      SignatureCode.code(of: expected) == code
    else {
      throw .signatureMismatch(
        MethodReference(className: "Invocation", selectorName: selector.name),
        method: methodSignature.typeEncoding,
        call: "argument \(index) as \(String(UnicodeScalar(code)))")
    }
    return position
  }

  private func fail<T>(_ index: Int) throws(ObjCRuntimeError) -> T {
    throw .signatureMismatch(
      MethodReference(className: "Invocation", selectorName: selector.name),
      method: methodSignature.typeEncoding, call: "argument \(index) as \(T.self)")
  }

  // MARK: Return value

  /// The return value as a `T`, after ``invoke()`` or ``setReturnValue(_:)``.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not the return
  ///   type.
  public func returnValue<T: ObjCScalar>(as type: T.Type = T.self) throws(ObjCRuntimeError) -> T {
    try checkReturn(T.objcTypeCode)
    let bits = T.objcTypeCode == UInt8(ascii: "@") ? returnWordForCaller() : returnWord
    guard let value = T.fromReturnedBits(bits) else {
      throw .signatureMismatch(
        MethodReference(className: "Invocation", selectorName: selector.name),
        method: methodSignature.typeEncoding, call: "a return value of type \(T.self)")
    }
    return value
  }

  /// Answers the invocation with `value`, as a `forwardInvocation(_:)` that handles the message
  /// itself does.
  ///
  /// - Throws: ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when `T` is not the return
  ///   type.
  public func setReturnValue<T: ObjCScalar>(_ value: T) throws(ObjCRuntimeError) {
    try checkReturn(T.objcTypeCode)
    returnWord = value.registerBits
    returnedObject = value as? ObjCObject
  }

  private func checkReturn(_ code: UInt8) throws(ObjCRuntimeError) {
    guard SignatureCode.code(of: methodSignature.methodReturnType) == code else {
      throw .signatureMismatch(
        MethodReference(className: "Invocation", selectorName: selector.name),
        method: methodSignature.typeEncoding,
        call: "a return value of type \(String(UnicodeScalar(code)))")
    }
  }

  /// The return word as a send hands it back: objects retained once more (+1) for the caller.
  internal func returnWordForCaller() -> UInt64 {
    guard let returnedObject else { return returnWord }
    return UInt64(UInt(bitPattern: UnsafeRawPointer(returnedObject.passRetained())))
  }

  // MARK: Invoking

  /// Sends the message to ``target`` and keeps the return value.
  ///
  /// - Throws: ``ObjCRuntimeError/nilArgument(_:)`` without a target, and what the send throws.
  public func invoke() throws(ObjCRuntimeError) {
    guard let target else { throw .nilArgument("Invocation.target") }
    try invoke(target: target)
  }

  /// Sends the message to `target` (the invocation's own target is not changed) and keeps the
  /// return value. A target that does not implement the method forwards it in turn.
  public func invoke(target: ObjCObject) throws(ObjCRuntimeError) {
    let code = methodSignature.signatureCode
    guard code != 0 else {
      throw .unsupportedSignature(
        MethodReference(owner: target.isa.takeUnretainedValue(), selector: selector),
        encoding: methodSignature.typeEncoding)
    }
    let imp: UnsafeRawPointer
    if let found = try Dispatch.resolve(target, target.isa, selector, .send, code) {
      imp = found
    } else {
      switch try Forwarding.forward(target, selector, code, words) {
      case .resend(let other): return try invoke(target: other)
      case .answered(let bits): return store(returned: bits)
      }
    }
    store(returned: call(imp, on: target))
  }

  private func store(returned bits: UInt64) {
    returnWord = bits
    returnedObject = nil
    if SignatureCode.code(of: methodSignature.methodReturnType) == UInt8(ascii: "@"),
      let address = UnsafeRawPointer(bitPattern: UInt(bits))
    {
      returnedObject = Unmanaged<ObjCObject>.fromOpaque(address).takeRetainedValue()
    }
  }

  private func call(_ imp: UnsafeRawPointer, on target: ObjCObject) -> UInt64 {
    let kinds = methodSignature.encoding.explicitArgumentTypes.map(Invocation.registerKind)
    let result = Invocation.registerKind(methodSignature.methodReturnType)
    let receiver = target.passUnretained()
    let sel = selector.sel
    let w = words
    return withExtendedLifetime((target, retainedArguments)) {
      switch w.count {
      case 0: _callIMP0(imp, receiver, sel, result)
      case 1: _callIMP1(imp, receiver, sel, kinds[0], w[0], result)
      case 2: _callIMP2(imp, receiver, sel, kinds[0], w[0], kinds[1], w[1], result)
      case 3:
        _callIMP3(imp, receiver, sel, kinds[0], w[0], kinds[1], w[1], kinds[2], w[2], result)
      case 4:
        _callIMP4(
          imp, receiver, sel, kinds[0], w[0], kinds[1], w[1], kinds[2], w[2], kinds[3], w[3],
          result)
      case 5:
        _callIMP5(
          imp, receiver, sel, kinds[0], w[0], kinds[1], w[1], kinds[2], w[2], kinds[3], w[3],
          kinds[4], w[4], result)
      default:
        _callIMP6(
          imp, receiver, sel, kinds[0], w[0], kinds[1], w[1], kinds[2], w[2], kinds[3], w[3],
          kinds[4], w[4], kinds[5], w[5], result)
      }
    }
  }

  private static func registerKind(_ type: String) -> ObjCRegisterKind {
    switch SignatureCode.code(of: type) {
    case UInt8(ascii: "f"), UInt8(ascii: "d"): .floatingPoint
    default: .general
    }
  }
}
