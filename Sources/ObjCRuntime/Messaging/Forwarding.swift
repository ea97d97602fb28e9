// Message forwarding: what happens to a message no method answers.
import CObjCRuntime

/// What forwarding made of a message.
@usableFromInline
internal enum ForwardingOutcome {
  /// `forwardingTarget(for:)` named another object: send the message to it, arguments intact.
  case resend(ObjCObject)
  /// `forwardInvocation(_:)` answered; these are the bits of the return value (objects +1).
  case answered(UInt64)
}

/// The forwarding chain of Foundation, which objc4 leaves to whoever installs a forward handler:
///
/// 1. `+resolveInstanceMethod:` / `+resolveClassMethod:` may add the method (run by the lookup,
///    once per miss, before the chain below);
/// 2. `-forwardingTargetForSelector:` may name another object to re-send the message to;
/// 3. `-methodSignatureForSelector:` may describe the message, and `-forwardInvocation:` then
///    receives it as an ``Invocation``;
/// 4. `-doesNotRecognizeSelector:` ends it, by default with a thrown
///    ``ObjCRuntimeError/unrecognizedSelector(_:)``.
///
/// Each step is a message, so Swift overrides, methods added at run time and swizzles all take
/// part, as Aspects relies on when it swizzles `forwardInvocation:`. A step the receiver does not
/// implement at all is skipped.
@usableFromInline
internal enum Forwarding {
  private static var forwardingTargetSelector: Selector { RootMethods.forwardingTargetSelector }
  private static var methodSignatureSelector: Selector { RootMethods.methodSignatureSelector }
  private static var forwardInvocationSelector: Selector { RootMethods.forwardInvocationSelector }

  /// Forwarding for a typed send: the arguments arrive as register words, and an invocation is
  /// built only if the chain gets as far as `forwardInvocation(_:)`.
  @usableFromInline
  static func forward(
    _ receiver: ObjCObject, _ selector: Selector, _ code: UInt64, _ arguments: [UInt64]
  ) throws(ObjCRuntimeError) -> ForwardingOutcome {
    if let target = try forwardingTarget(of: receiver, for: selector) {
      return .resend(target)
    }
    if let signature = try signature(of: receiver, for: selector) {
      guard signature.signatureCode == code else {
        throw .signatureMismatch(
          MethodReference(owner: receiver.isa.takeUnretainedValue(), selector: selector),
          method: signature.typeEncoding, call: SignatureCode.describe(code))
      }
      let invocation = try Invocation(
        target: receiver, selector: selector, signature: signature, argumentWords: arguments)
      if try answers(invocation, by: receiver) {
        return .answered(invocation.returnWordForCaller())
      }
    }
    try receiver.doesNotRecognizeSelector(selector)
  }

  /// Forwarding for an ``Invocation`` sent to a target that does not implement its selector: the
  /// same chain, handing on the invocation itself.
  static func forward(_ invocation: Invocation, to receiver: ObjCObject) throws(ObjCRuntimeError) {
    let selector = invocation.selector
    if let target = try forwardingTarget(of: receiver, for: selector) {
      return try invocation.invoke(target: target)
    }
    if try signature(of: receiver, for: selector) != nil, try answers(invocation, by: receiver) {
      return
    }
    try receiver.doesNotRecognizeSelector(selector)
  }

  /// The handler of a direct call of ``IMP/forward`` (objc4's `_objc_msgForward` called as a
  /// function, as a swizzle does when the implementation it kept as "the original" was the forward
  /// IMP): reads the arguments from the registers the call arrived in, by the method's signature,
  /// and runs the chain with an invocation. What objc4 raises (an unrecognized selector, a
  /// signature the registers cannot hold) traps here, naming the method: a C call cannot throw.
  static let directCall: swk_forward_handler = { me, cmd, frame in
    // A message to nil answers zero, as a send does.
    guard let me, let cmd, let frame else { return 0 }
    let receiver = me.takeUnretainedObject()
    let selector = Selector(cmd)
    let method = MethodReference(owner: receiver.isa.takeUnretainedValue(), selector: selector)
    do throws(ObjCRuntimeError) {
      guard let signature = try directCallSignature(of: receiver, for: selector) else {
        try receiver.doesNotRecognizeSelector(selector)
      }
      let words = try registerWords(of: frame.pointee, for: signature, method: method)
      let invocation = try Invocation(
        target: receiver, selector: selector, signature: signature, argumentWords: words)
      try forward(invocation, to: receiver)
      return UInt(invocation.returnWordForCaller())
    } catch {
      guard let reporter = DirectForwardingFailures.reporter else { fatalError("\(error)") }
      reporter(error)
      return 0
    }
  }

  /// The signature of a direct call: the method's own when the receiver's class has one (the
  /// method whose implementation is the forward IMP), else what `methodSignatureForSelector:`
  /// answers.
  private static func directCallSignature(of receiver: ObjCObject, for selector: Selector)
    throws(ObjCRuntimeError) -> MethodSignature?
  {
    if let method = class_getInstanceMethod(receiver.isa.takeUnretainedValue(), selector) {
      return MethodSignature(method)
    }
    return try signature(of: receiver, for: selector)
  }

  /// The argument words of a direct call, in the signature's order, taken from the integer and
  /// floating-point registers the call arrived in.
  private static func registerWords(
    of frame: swk_forward_frame, for signature: MethodSignature, method: MethodReference
  ) throws(ObjCRuntimeError) -> [UInt64] {
    let types = signature.encoding.argumentTypes.dropFirst(2)
    let result = SignatureCode.code(of: signature.encoding.returnType)
    guard result != nil, result != UInt8(ascii: "f"), result != UInt8(ascii: "d") else {
      throw .invalidImplementation(
        "\(method) was called through _objc_msgForward directly with a result of type "
          + "\(signature.encoding.returnType), which this runtime forwards only through a send")
    }
    let (i0, i1, i2, i3) = frame.integers
    let (f0, f1, f2, f3, f4, f5, f6, f7) = frame.floats
    var integers = [i0, i1, i2, i3]
    var floats = [f0, f1, f2, f3, f4, f5, f6, f7]
    var words: [UInt64] = []
    for type in types {
      let code = SignatureCode.code(of: type)
      let floating = code == UInt8(ascii: "f") || code == UInt8(ascii: "d")
      if code != nil, floating, !floats.isEmpty {
        words.append(floats.removeFirst().bitPattern)
      } else if code != nil, !floating, !integers.isEmpty {
        words.append(UInt64(integers.removeFirst()))
      } else {
        throw .invalidImplementation(
          "\(method) was called through _objc_msgForward directly with arguments that do not "
            + "all travel in registers, which this runtime forwards only through a send")
      }
    }
    return words
  }

  /// Step 2: another object to re-send to, if the receiver names one other than itself.
  private static func forwardingTarget(of receiver: ObjCObject, for selector: Selector)
    throws(ObjCRuntimeError) -> ObjCObject?
  {
    guard receiver.isa.takeUnretainedValue().respondsWithoutResolving(to: forwardingTargetSelector),
      let target = try objc_msgSend(receiver, forwardingTargetSelector, selector) as ObjCObject?,
      target !== receiver
    else { return nil }
    return target
  }

  /// Step 3, first half: the message's signature, if the receiver can describe the message and
  /// has a `forwardInvocation:` to hand it to.
  private static func signature(of receiver: ObjCObject, for selector: Selector)
    throws(ObjCRuntimeError) -> MethodSignature?
  {
    let cls = receiver.isa.takeUnretainedValue()
    guard cls.respondsWithoutResolving(to: methodSignatureSelector),
      cls.respondsWithoutResolving(to: forwardInvocationSelector)
    else { return nil }
    return try objc_msgSend(receiver, methodSignatureSelector, selector) as MethodSignature?
  }

  /// Step 3, second half: hands `invocation` to the receiver's `forwardInvocation:`; true when it
  /// answered (the root implementation does not).
  private static func answers(_ invocation: Invocation, by receiver: ObjCObject)
    throws(ObjCRuntimeError) -> Bool
  {
    invocation.prepareForForwarding()
    try objc_msgSend(receiver, forwardInvocationSelector, invocation as ObjCObject?) as Void
    return invocation.wasAnswered
  }
}

/// Runs a class's method resolver on a miss.
internal enum Resolver {
  static let resolveInstanceMethod: Selector = "resolveInstanceMethod:"
  static let resolveClassMethod: Selector = "resolveClassMethod:"

  /// Asks the receiver's class (`+resolveInstanceMethod:`), or the receiver itself when it is a
  /// class (`+resolveClassMethod:`), to add a method for `selector`. Returns what it answered.
  static func resolve(_ selector: Selector, for receiver: ObjCObject) -> Bool {
    guard selector != resolveInstanceMethod, selector != resolveClassMethod else { return false }
    let cls = receiver.isa.takeUnretainedValue()
    let (target, resolver): (Class, Selector)
    if cls.isMetaClass, let classObject = receiver as? Class {
      (target, resolver) = (classObject, resolveClassMethod)
    } else {
      (target, resolver) = (cls, resolveInstanceMethod)
    }
    guard target.metaclass.respondsWithoutResolving(to: resolver) else { return false }
    return (try? objc_msgSend(target, resolver, selector) as Bool) ?? false
  }
}

extension Class {
  /// Whether the method tables answer `selector`, without running a resolver.
  internal func respondsWithoutResolving(to selector: Selector) -> Bool {
    Runtime.state.withLock { _ in
      findMethod(selector, includingEntries: true)?.implementation != nil
    }
  }
}
