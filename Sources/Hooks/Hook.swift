// The hook API: typed closures checked against the method's encoding, and an untyped form.
import ObjCRuntime

/// A type whose methods can be hooked: every `ObjCObject` subclass.
///
/// The typed forms take closures whose first parameter is the receiver, typed as the class you
/// hook, followed by the method's arguments with their Swift types; the types are checked against
/// the method's type encoding when the hook is installed:
///
/// ```swift
/// let token = try Counter.hook(before: "add:") { (counter, amount: Int) in
///   print("adding \(amount) to \(counter.total)")
/// }
/// try Counter.hook(after: "total", returning: Int.self) { counter, total in total * 2 }
/// try Counter.hook(after: "scaled:", returning: Int.self) { (counter, result, factor: Int) in
///   result + factor
/// }
/// try Counter.hook(instead: "add:") { (original, counter, amount: Int) in original(amount + 1) }
/// try counter.hook(before: "add:") { (counter, amount: Int) in }  // this object only
/// token.remove()
/// ```
public protocol Hookable: ObjCObject {}

extension ObjCObject: Hookable {}

extension Hookable {
  // MARK: Every instance of the class

  /// Runs `body` before every call of the instance method `selector` on instances of this class
  /// and its subclasses; or of `cls` and its subclasses when given (a class made at run time
  /// whose instances are of this Swift type).
  ///
  /// - Throws: ``HookError`` when the selector is unknown or refused, or when the closure's
  ///   argument types do not match the method's; nothing is changed then.
  @inlinable @discardableResult
  public static func hook<each Arg: ObjCTypeEncodable>(
    before selector: Selector, in cls: Class? = nil, options: HookOptions = [],
    _ body: @escaping @Sendable (Self, repeat each Arg) -> Void
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try Hooks.install(
      on: .instances(try instancesClass(cls)), selector, .before, options,
      check: typed.check(result: nil),
      body: typed.observer(body))
  }

  /// Runs `body` after every call of the instance method `selector`, with the arguments.
  ///
  /// - Throws: ``HookError``, as ``hook(before:options:_:)``.
  @inlinable @discardableResult
  public static func hook<each Arg: ObjCTypeEncodable>(
    after selector: Selector, in cls: Class? = nil, options: HookOptions = [],
    _ body: @escaping @Sendable (Self, repeat each Arg) -> Void
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try Hooks.install(
      on: .instances(try instancesClass(cls)), selector, .after, options,
      check: typed.check(result: nil),
      body: typed.observer(body))
  }

  /// Runs `body` after every call of the instance method `selector`, with the return value and
  /// the arguments (in that order: the receiver, the result, then the arguments); what `body`
  /// returns is what the caller gets.
  ///
  /// - Throws: ``HookError``, as ``hook(before:options:_:)``; the result type is checked too.
  @inlinable @discardableResult
  public static func hook<each Arg: ObjCTypeEncodable, Result>(
    after selector: Selector, returning: Result.Type, in cls: Class? = nil,
    options: HookOptions = [],
    _ body: @escaping @Sendable (Self, Result, repeat each Arg) -> Result
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try Hooks.install(
      on: .instances(try instancesClass(cls)), selector, .after, options,
      check: typed.check(result: Result.self), body: typed.resultReplacer(body))
  }

  /// Runs `body` in place of every call of the instance method `selector`. `body` gets the
  /// original as its first argument and decides whether, and with which arguments, to call it.
  ///
  /// - Throws: ``HookError``, as ``hook(after:returning:options:_:)``.
  @inlinable @discardableResult
  public static func hook<each Arg: ObjCTypeEncodable, Result>(
    instead selector: Selector, in cls: Class? = nil, options: HookOptions = [],
    _ body:
      @escaping @Sendable (HookOriginal<Result, repeat each Arg>, Self, repeat each Arg) ->
      Result
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try Hooks.install(
      on: .instances(try instancesClass(cls)), selector, .instead, options,
      check: typed.check(result: Result.self), body: typed.replacement(body))
  }

  /// Runs `body` at `position` for every call of the instance method `selector`, with a
  /// ``HookInvocation`` that reads and writes the call: the untyped form.
  ///
  /// - Throws: ``HookError`` when the selector is unknown or refused.
  @discardableResult
  public static func hook(
    _ selector: Selector, position: HookPosition, in cls: Class? = nil,
    options: HookOptions = [], _ body: @escaping @Sendable (HookInvocation) -> Void
  ) throws(HookError) -> HookToken {
    try Hooks.install(
      on: .instances(try instancesClass(cls)), selector, position, options, check: { _ in },
      body: body)
  }

  /// The class a class-wide hook goes on: `cls` when given, which must describe objects of this
  /// Swift type (a class made at run time below it, say), or else this type's class.
  @usableFromInline
  internal static func instancesClass(_ cls: Class?) throws(HookError) -> Class {
    guard let cls else { return runtimeClass }
    guard !cls.isMetaClass, cls.storageType is Self.Type else {
      throw .receiverType(className: cls.name, storage: "\(cls.storageType)", hook: "\(Self.self)")
    }
    return cls
  }

  // MARK: This object only

  /// Runs `body` before every call of `selector` on this object only.
  ///
  /// The object gets a dynamic subclass of its class (one per class, shared by all objects hooked
  /// this way, hidden from `-class` as KVO hides its own); its Swift type does not change.
  ///
  /// - Throws: ``HookError``, as the class-wide form, and
  ///   ``HookError/cannotSubclass(object:className:reason:)``.
  @inlinable @discardableResult
  public func hook<each Arg: ObjCTypeEncodable>(
    before selector: Selector, options: HookOptions = [],
    _ body: @escaping @Sendable (Self, repeat each Arg) -> Void
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try Hooks.install(
      on: .object(self), selector, .before, options, check: typed.check(result: nil),
      body: typed.observer(body))
  }

  /// Runs `body` after every call of `selector` on this object only.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @inlinable @discardableResult
  public func hook<each Arg: ObjCTypeEncodable>(
    after selector: Selector, options: HookOptions = [],
    _ body: @escaping @Sendable (Self, repeat each Arg) -> Void
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try Hooks.install(
      on: .object(self), selector, .after, options, check: typed.check(result: nil),
      body: typed.observer(body))
  }

  /// Runs `body` after every call of `selector` on this object only, with the return value,
  /// which `body` may replace.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @inlinable @discardableResult
  public func hook<each Arg: ObjCTypeEncodable, Result>(
    after selector: Selector, returning: Result.Type, options: HookOptions = [],
    _ body: @escaping @Sendable (Self, Result, repeat each Arg) -> Result
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try Hooks.install(
      on: .object(self), selector, .after, options, check: typed.check(result: Result.self),
      body: typed.resultReplacer(body))
  }

  /// Runs `body` in place of every call of `selector` on this object only.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @inlinable @discardableResult
  public func hook<each Arg: ObjCTypeEncodable, Result>(
    instead selector: Selector, options: HookOptions = [],
    _ body:
      @escaping @Sendable (HookOriginal<Result, repeat each Arg>, Self, repeat each Arg) ->
      Result
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try Hooks.install(
      on: .object(self), selector, .instead, options, check: typed.check(result: Result.self),
      body: typed.replacement(body))
  }

  /// The untyped form, for this object only.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @discardableResult
  public func hook(
    _ selector: Selector, position: HookPosition, options: HookOptions = [],
    _ body: @escaping @Sendable (HookInvocation) -> Void
  ) throws(HookError) -> HookToken {
    try Hooks.install(on: .object(self), selector, position, options, check: { _ in }, body: body)
  }

  // MARK: Class methods

  /// Runs `body` before every call of the class method `selector` (on this class and its
  /// subclasses); the receiver is the class object.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @inlinable @discardableResult
  public static func hookClassMethod<each Arg: ObjCTypeEncodable>(
    before selector: Selector, options: HookOptions = [],
    _ body: @escaping @Sendable (Class, repeat each Arg) -> Void
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Class, repeat each Arg>(selector)
    return try Hooks.install(
      on: .instances(runtimeClass.metaclass), selector, .before, options,
      check: typed.check(result: nil), body: typed.observer(body))
  }

  /// Runs `body` after every call of the class method `selector`, with the arguments.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @inlinable @discardableResult
  public static func hookClassMethod<each Arg: ObjCTypeEncodable>(
    after selector: Selector, options: HookOptions = [],
    _ body: @escaping @Sendable (Class, repeat each Arg) -> Void
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Class, repeat each Arg>(selector)
    return try Hooks.install(
      on: .instances(runtimeClass.metaclass), selector, .after, options,
      check: typed.check(result: nil), body: typed.observer(body))
  }

  /// Runs `body` after every call of the class method `selector`, with its return value; what
  /// `body` returns is what the caller gets.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @inlinable @discardableResult
  public static func hookClassMethod<each Arg: ObjCTypeEncodable, Result>(
    after selector: Selector, returning: Result.Type, options: HookOptions = [],
    _ body: @escaping @Sendable (Class, Result, repeat each Arg) -> Result
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Class, repeat each Arg>(selector)
    return try Hooks.install(
      on: .instances(runtimeClass.metaclass), selector, .after, options,
      check: typed.check(result: Result.self), body: typed.resultReplacer(body))
  }

  /// Runs `body` in place of every call of the class method `selector`.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @inlinable @discardableResult
  public static func hookClassMethod<each Arg: ObjCTypeEncodable, Result>(
    instead selector: Selector, options: HookOptions = [],
    _ body:
      @escaping @Sendable (HookOriginal<Result, repeat each Arg>, Class, repeat each Arg) ->
      Result
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Class, repeat each Arg>(selector)
    return try Hooks.install(
      on: .instances(runtimeClass.metaclass), selector, .instead, options,
      check: typed.check(result: Result.self), body: typed.replacement(body))
  }

  /// The untyped form, for a class method.
  ///
  /// - Throws: ``HookError``, as `hook(before:options:_:)`.
  @discardableResult
  public static func hookClassMethod(
    _ selector: Selector, position: HookPosition, options: HookOptions = [],
    _ body: @escaping @Sendable (HookInvocation) -> Void
  ) throws(HookError) -> HookToken {
    try Hooks.install(
      on: .instances(runtimeClass.metaclass), selector, position, options, check: { _ in },
      body: body)
  }
}

/// Hooks on classes that have no Swift type (made with `objc_allocateClassPair`), and the
/// framework's bookkeeping.
public enum Hooks {
  /// What a hook applies to.
  @usableFromInline
  internal enum Target {
    case instances(Class)
    case object(ObjCObject)
  }

  /// The untyped form for any class, a metaclass included (then it hooks class methods).
  ///
  /// - Throws: ``HookError`` when the selector is unknown or refused.
  @discardableResult
  public static func hook(
    _ cls: Class, _ selector: Selector, position: HookPosition, options: HookOptions = [],
    _ body: @escaping @Sendable (HookInvocation) -> Void
  ) throws(HookError) -> HookToken {
    try install(on: .instances(cls), selector, position, options, check: { _ in }, body: body)
  }

  /// How many hooks are installed in the process.
  public static var installedCount: Int { HookEngine.liveHookCount }

  @usableFromInline
  internal static func install(
    on target: Target, _ selector: Selector, _ position: HookPosition, _ options: HookOptions,
    check: (MethodSignature) throws(HookError) -> Void,
    body: @escaping @Sendable (HookInvocation) -> Void
  ) throws(HookError) -> HookToken {
    ChangeLog.start()
    switch target {
    case .instances(let cls):
      let entry = try HookEngine.install(
        on: cls, selector, position: position, options: options, check: check, body: body)
      return HookToken(entry: entry, method: MethodReference(owner: cls, selector: selector))
    case .object(let object):
      let visible = object.objcClass
      let entry = try HookEngine.install(
        on: object, selector, position: position, options: options, check: check, body: body)
      return HookToken(entry: entry, method: MethodReference(owner: visible, selector: selector))
    }
  }
}

/// The original implementation, as an `instead` hook receives it: call it with the arguments
/// you want the method to get, and it returns what the method returned. Not calling it skips the
/// original (and any `instead` hook installed before yours).
public struct HookOriginal<Result, each Arg> {
  @usableFromInline internal let invocation: HookInvocation

  @usableFromInline
  internal init(_ invocation: HookInvocation) {
    self.invocation = invocation
  }

  /// Calls the original with `arguments` and returns its result.
  @inlinable
  public func callAsFunction(_ arguments: repeat each Arg) -> Result {
    var index = 2
    repeat invocation.call.uncheckedSetArgument(
      each arguments, at: TypedHook<ObjCObject>.next(&index))
    invocation.invokeOriginal()
    return invocation.takeResult(as: Result.self)
  }
}

extension HookInvocation {
  /// The result in the return slot as a Swift value that owns its reference: the slot's own
  /// reference to an object result is dropped, so that writing a result back does not leak.
  @inlinable
  internal func takeResult<Result>(as type: Result.Type) -> Result {
    let result = call.uncheckedReturnValue(as: Result.self)
    releaseReturnedObject()
    return result
  }
}

/// Whether an object is a `T`, as a `Sendable` value (metatypes of generic parameters are not).
@usableFromInline
internal struct ObjectCheck<T: ObjCTypeEncodable>: Sendable {
  @inlinable init() {}
  @inlinable func matches(_ object: AnyObject) -> Bool { object is T }
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
          matches = matches && Self.returnAccepts(signature, encodable)
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
  @usableFromInline
  static func argumentsFit(
    _ call: InterceptedCall, _ checks: [(Int, @Sendable (AnyObject) -> Bool, Bool)],
    _ method: MethodReference
  ) -> Bool {
    for (index, check, nilAllowed) in checks {
      guard let address = call.uncheckedArgument(at: index, as: UnsafeRawPointer?.self) else {
        if nilAllowed { continue }
        Diagnostics.warn(
          "a hook of \(method) was skipped: argument \(index - 2) is nil", kind: .hookSkipped,
          method: method)
        return false
      }
      guard check(Unmanaged<AnyObject>.fromOpaque(address).takeUnretainedValue()) else {
        Diagnostics.warn(
          "a hook of \(method) was skipped: argument \(index - 2) is not of the hook's class",
          kind: .hookSkipped, method: method)
        return false
      }
    }
    return true
  }

  /// A body for `before` and observing `after` hooks.
  @inlinable
  func observer(_ body: @escaping @Sendable (Receiver, repeat each Arg) -> Void)
    -> @Sendable (HookInvocation) -> Void
  {
    let checks = objectChecks
    return { invocation in
      let call = invocation.call
      if !checks.isEmpty, !Self.argumentsFit(call, checks, invocation.method) { return }
      var index = 2
      call.unmanagedReceiver._withUnsafeGuaranteedRef { receiver in
        body(
          unsafeDowncast(receiver, to: Receiver.self),
          repeat call.uncheckedEncodableArgument(at: Self.next(&index), as: (each Arg).self))
      }
    }
  }

  /// A body for `after` hooks that see and replace the result.
  @inlinable
  func resultReplacer<Result>(
    _ body: @escaping @Sendable (Receiver, Result, repeat each Arg) -> Result
  ) -> @Sendable (HookInvocation) -> Void {
    let checks = objectChecks
    return { invocation in
      let call = invocation.call
      if !checks.isEmpty, !Self.argumentsFit(call, checks, invocation.method) { return }
      var index = 2
      let result = invocation.takeResult(as: Result.self)
      let replaced = body(
        unsafeDowncast(call.receiver, to: Receiver.self), result,
        repeat call.uncheckedEncodableArgument(at: Self.next(&index), as: (each Arg).self))
      call.uncheckedSetReturnValue(replaced)
    }
  }

  /// A body for `instead` hooks.
  @inlinable
  func replacement<Result>(
    _ body:
      @escaping @Sendable (HookOriginal<Result, repeat each Arg>, Receiver, repeat each Arg)
      -> Result
  ) -> @Sendable (HookInvocation) -> Void {
    let checks = objectChecks
    return { invocation in
      let call = invocation.call
      if !checks.isEmpty, !Self.argumentsFit(call, checks, invocation.method) {
        invocation.invokeOriginal()
        return
      }
      var index = 2
      let result = body(
        HookOriginal(invocation), unsafeDowncast(call.receiver, to: Receiver.self),
        repeat call.uncheckedEncodableArgument(at: Self.next(&index), as: (each Arg).self))
      invocation.releaseReturnedObject()
      call.uncheckedSetReturnValue(result)
    }
  }
}
