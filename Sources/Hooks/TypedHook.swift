// What the typed hooks are made of: the original an `instead` hook calls, and the signature checks
// and argument readers of a typed closure.
import ObjCRuntime

/// The original implementation, as an `instead` hook receives it: call it with the arguments
/// you want the method to get, and it returns what the method returned. Not calling it skips the
/// original (and any `instead` hook installed before yours).
///
/// It is valid only while the hook runs, and is not `Sendable`, so that Swift refuses to carry it
/// to a task or a queue that would call it after the hook returned. Code isolated to an actor
/// that the hook's body enters on its own thread gets it as an argument: in the UIKit model,
/// `MainThread.assumeIsolated(with: original) { original in ... }`.
public struct HookOriginal<Result, each Arg> {
  @usableFromInline internal let call: HookOriginalCall

  /// The original of the call `invocation` points to, which must stay where it is while the
  /// hook runs (the typed body's frame entry holds it).
  @usableFromInline
  internal init(_ invocation: UnsafePointer<HookInvocation>) {
    self.call = .frame(invocation)
  }

  @usableFromInline
  internal init(_ registers: HookRegisters) {
    self.call = .registers(registers)
  }

  /// Calls the original with `arguments` and returns its result.
  @inlinable
  public func callAsFunction(_ arguments: repeat each Arg) -> Result {
    var index = 2
    switch call {
    case .frame(let pointer):
      let invocation = pointer.pointee
      repeat invocation.call.uncheckedSetArgument(
        each arguments, at: TypedHook<ObjCObject>.next(&index))
      invocation.invokeOriginal()
      return invocation.takeResult(as: Result.self)
    case .registers(let registers):
      repeat registers.call.uncheckedSetArgument(
        each arguments, at: TypedHook<ObjCObject>.next(&index))
      registers.invokeOriginal()
      return registers.takeResult(as: Result.self)
    }
  }
}

/// The call an `instead` hook runs in: over a frame, or over the registers. Both are small
/// (the frame's view is not copied in, but pointed to), so that making one, handing it to the
/// hook's closure and reading it back costs a few words.
@usableFromInline
internal enum HookOriginalCall {
  case frame(UnsafePointer<HookInvocation>)
  case registers(HookRegisters)
}

extension HookInvocation {
  /// The result in the return slot as a Swift value that owns its reference: the slot's own
  /// reference to an object result moves into it, so that writing a result back does not leak.
  @inlinable
  internal func takeResult<Result>(as type: Result.Type) -> Result {
    // Moved out, as from the registers' result word (`HookRegisters.takeResult`): a copy and a
    // release of the slot's reference leave the optimizer a retain to put after the release.
    let result = call.uncheckedTakeReturnValue(as: Result.self)
    call.uncheckedSetRawReturnValue(UnsafeRawPointer?.none)
    return result
  }
}

/// Whether an object is a `T`, as a `Sendable` value (metatypes of generic parameters are not).
/// For a class or an optional class (most hooks' arguments), the object's class chain is walked
/// for it: `object is T` goes through the runtime's generic cast, which cost a scenario of the
/// matrix about 29,000 instructions in hooks of the bar's delegate methods (callgrind,
/// 2026-12-03). Anything else (a protocol type) is cast.
@usableFromInline
internal struct ObjectCheck<T: ObjCTypeEncodable>: Sendable {
  /// The class `T` is, or wraps; nil for a type that is not a class.
  @usableFromInline let target: ObjectIdentifier?

  @inlinable init() {
    let wrapped = (T.self as? any HookOptionalType.Type)?.hookWrappedType ?? T.self
    target = (wrapped as? AnyClass).map(ObjectIdentifier.init)
  }

  @inlinable func matches(_ object: AnyObject) -> Bool {
    guard let target else { return object is T }
    var candidate: AnyClass? = type(of: object)
    while let current = candidate {
      if ObjectIdentifier(current) == target { return true }
      candidate = _getSuperclass(current)
    }
    return false
  }
}

/// An optional type, whose wrapped type an object check looks through.
@usableFromInline
internal protocol HookOptionalType {
  /// The wrapped type.
  static var hookWrappedType: Any.Type { get }
}

extension Optional: HookOptionalType {
  @inlinable static var hookWrappedType: Any.Type { Wrapped.self }
}

/// The typed forms' machinery: checks a closure's types against the method once, and turns the
/// closure into an untyped hook body that reads the call without checks.
@usableFromInline
internal struct TypedHook<Receiver: AnyObject, each Arg: ObjCTypeEncodable> {
  @usableFromInline let selector: Selector

  @inlinable
  init(_ selector: Selector) {
    self.selector = selector
  }

  @inlinable @inline(__always)
  static func next(_ index: inout Int) -> Int {
    defer { index += 1 }
    return index
  }

  /// The closure's argument encodings, in order.
  @inlinable
  var argumentEncodings: [String] {
    var encodings: [String] = []
    for type in repeat (each Arg).self { encodings.append(type.objcTypeEncoding) }
    return encodings
  }

  /// A check of the method's signature against the closure's types: the same number of
  /// arguments, each laid out the same, and the result too when `result` is given.
  @inlinable
  func check(result: Any.Type?) -> (MethodSignature) throws(HookError) -> Void {
    let encodings = argumentEncodings
    return { signature throws(HookError) in
      var matches = signature.numberOfArguments == encodings.count + 2
      if matches {
        var index = 2
        for type in repeat (each Arg).self {
          matches = matches && signature.argument(at: TypedHook.next(&index), accepts: type)
        }
      }
      var resultEncoding = signature.methodReturnType
      if let result {
        if result == Void.self {
          resultEncoding = "v"
          matches = matches && signature.returnDescriptor == .void
        } else if let encodable = result as? any ObjCTypeEncodable.Type {
          resultEncoding = encodable.objcTypeEncoding
          // An object result is handed over with a reference, any other pointer without one:
          // the closure's result must be an object exactly when the method's is, or the
          // reference would be dropped twice, or never.
          matches =
            matches && Self.returnAccepts(signature, encodable)
            && MethodSignature.encodesObject(resultEncoding) == signature.returnsObject
        } else {
          resultEncoding = "?"
          matches = false
        }
      }
      guard matches else {
        throw .signatureMismatch(
          MethodReference(className: "\(Receiver.self)", selectorName: selector.name),
          method: signature.typeEncoding, hook: resultEncoding + "@:" + encodings.joined())
      }
    }
  }

  @inlinable
  static func returnAccepts<T: ObjCTypeEncodable>(
    _ signature: MethodSignature, _ type: T.Type
  ) -> Bool {
    signature.returnType(accepts: type)
  }

  /// Checks of object arguments' classes, which encodings cannot tell apart (every object is
  /// `@`): a call with an object of another class skips the hook with a warning rather than
  /// hand the closure a wrong type.
  @inlinable
  var objectChecks: [(Int, @Sendable (AnyObject) -> Bool, Bool)] {
    var checks: [(Int, @Sendable (AnyObject) -> Bool, Bool)] = []
    var index = 2
    for type in repeat (each Arg).self {
      let position = TypedHook.next(&index)
      if let check = Self.objectCheck(type) {
        checks.append((position, check, type is any ExpressibleByNilLiteral.Type))
      }
    }
    return checks
  }

  @inlinable
  static func objectCheck<T: ObjCTypeEncodable>(_ type: T.Type)
    -> (@Sendable (AnyObject) -> Bool)?
  {
    guard T.objcTypeEncoding == "@" else { return nil }
    let check = ObjectCheck<T>()
    return { object in check.matches(object) }
  }

  /// Whether the call's object arguments have the closure's classes.
  @inlinable
  static func argumentsFit<Arguments: TypedArguments>(
    _ arguments: Arguments, _ checks: [(Int, @Sendable (AnyObject) -> Bool, Bool)]
  ) -> Bool {
    for (index, check, nilAllowed) in checks {
      guard let address = arguments.uncheckedObjectAddress(at: index) else {
        if nilAllowed { continue }
        return skipped(arguments.method, argument: index, "is nil")
      }
      guard check(Unmanaged<AnyObject>.fromOpaque(address).takeUnretainedValue()) else {
        return skipped(arguments.method, argument: index, "is not of the hook's class")
      }
    }
    return true
  }

  /// Warns that a hook of `method` was skipped for argument `index`, and returns false.
  @usableFromInline
  static func skipped(_ method: MethodReference, argument index: Int, _ reason: String) -> Bool {
    Diagnostics.warn(
      "a hook of \(method) was skipped: argument \(index - 2) \(reason)", kind: .hookSkipped,
      method: method)
    return false
  }

  /// The checks a body runs: nil when the closure has no object argument to check, so that the
  /// body built for it does not look.
  @inlinable
  var checksIfAny: [(Int, @Sendable (AnyObject) -> Bool, Bool)]? {
    let checks = objectChecks
    return checks.isEmpty ? nil : checks
  }

  /// Runs `run` with the receiver, unless an object argument is not of the closure's class
  /// (with `checks` nil, nothing is looked at): every observer's body, of any arity.
  @inlinable @inline(__always)
  static func runObserver<Arguments: TypedArguments>(
    _ arguments: Arguments, _ checks: [(Int, @Sendable (AnyObject) -> Bool, Bool)]?,
    _ run: (Receiver) -> Void
  ) {
    if let checks, !argumentsFit(arguments, checks) { return }
    arguments.borrowedReceiver.with { run(unsafeDowncast($0, to: Receiver.self)) }
  }

  /// Runs an observer's closure with the receiver and the arguments `arguments` reads through
  /// the parameter pack.
  @inlinable @inline(__always)
  static func observe<Arguments: TypedArguments>(
    _ arguments: Arguments, _ checks: [(Int, @Sendable (AnyObject) -> Bool, Bool)]?,
    _ body: (Receiver, repeat each Arg) -> Void
  ) {
    var index = 2
    runObserver(arguments, checks) { receiver in
      body(
        receiver,
        repeat arguments.uncheckedEncodableArgument(at: Self.next(&index), as: (each Arg).self))
    }
  }

  /// A body for `before` and observing `after` hooks, over a frame or over the registers.
  @inlinable
  func observer(_ body: @escaping @Sendable (Receiver, repeat each Arg) -> Void) -> HookBody {
    let checks = objectChecks
    // Without object arguments to check (the common case), a closure that does not look.
    guard !checks.isEmpty else {
      return HookBody(
        frame: { invocation in Self.observe(invocation, nil, body) },
        registers: { registers in Self.observe(registers, nil, body) })
    }
    return HookBody(
      frame: { invocation in Self.observe(invocation, checks, body) },
      registers: { registers in Self.observe(registers, checks, body) })
  }

  /// A body for `after` hooks that see and replace the result.
  @inlinable
  func resultReplacer<Result>(
    _ body: @escaping @Sendable (Receiver, Result, repeat each Arg) -> Result
  ) -> HookBody {
    let checks = objectChecks
    return HookBody { invocation in
      let call = invocation.call
      if !checks.isEmpty, !Self.argumentsFit(invocation, checks) { return }
      var index = 2
      let result = invocation.takeResult(as: Result.self)
      let replaced = call.borrowedReceiver.with { receiver in
        body(
          unsafeDowncast(receiver, to: Receiver.self), result,
          repeat call.uncheckedEncodableArgument(at: Self.next(&index), as: (each Arg).self))
      }
      call.uncheckedSetReturnValue(replaced)
    }
  }

  /// Runs an `instead` hook's `run` with the receiver and writes back what it returns; an object
  /// argument not of the closure's class passes the call on to the original. Every `instead`
  /// hook's body, of any arity.
  @inlinable @inline(__always)
  static func runReplacement<Call: TypedCall, Result>(
    _ call: Call, _ checks: [(Int, @Sendable (AnyObject) -> Bool, Bool)]?,
    _ run: (Receiver) -> Result
  ) {
    if let checks, !argumentsFit(call, checks) {
      call.invokeOriginal()
      return
    }
    let result = call.borrowedReceiver.with { run(unsafeDowncast($0, to: Receiver.self)) }
    // A method without a result (`Void`) has nothing to write back.
    guard MemoryLayout<Result>.size != 0 else { return }
    call.setResult(result)
  }

  /// Runs an `instead` hook's closure with the original, the receiver and the arguments `call`
  /// reads through the parameter pack.
  @inlinable @inline(__always)
  static func replace<Call: TypedCall, Result>(
    _ call: Call, _ original: HookOriginal<Result, repeat each Arg>,
    _ checks: [(Int, @Sendable (AnyObject) -> Bool, Bool)]?,
    _ body: (HookOriginal<Result, repeat each Arg>, Receiver, repeat each Arg) -> Result
  ) {
    var index = 2
    runReplacement(call, checks) { receiver in
      body(
        original, receiver,
        repeat call.uncheckedEncodableArgument(at: Self.next(&index), as: (each Arg).self))
    }
  }

  /// A body for `instead` hooks, over a frame or over the registers.
  @inlinable
  func replacement<Result>(
    _ body:
      @escaping @Sendable (HookOriginal<Result, repeat each Arg>, Receiver, repeat each Arg)
      -> Result
  ) -> HookBody {
    let checks = objectChecks
    guard !checks.isEmpty else {
      return HookBody(
        frame: { invocation in
          withUnsafePointer(to: invocation) {
            Self.replace(invocation, HookOriginal($0), nil, body)
          }
        },
        registers: { registers in Self.replace(registers, HookOriginal(registers), nil, body) })
    }
    return HookBody(
      frame: { invocation in
        withUnsafePointer(to: invocation) {
          Self.replace(invocation, HookOriginal($0), checks, body)
        }
      },
      registers: { registers in Self.replace(registers, HookOriginal(registers), checks, body) })
  }
}
