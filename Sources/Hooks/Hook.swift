// The typed hook API: `Hookable` and its overloads, each checked against the method's encoding.
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
    return try HookInstaller.install(
      on: .instances(try instancesClass(cls)), selector, .before, options,
      check: typed.check(result: nil),
      body: typed.observer(body))
  }

  /// Runs `body` after every call of the instance method `selector`, with the arguments.
  ///
  /// - Throws: ``HookError``, as `hook(before:in:options:_:)`.
  @inlinable @discardableResult
  public static func hook<each Arg: ObjCTypeEncodable>(
    after selector: Selector, in cls: Class? = nil, options: HookOptions = [],
    _ body: @escaping @Sendable (Self, repeat each Arg) -> Void
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try HookInstaller.install(
      on: .instances(try instancesClass(cls)), selector, .after, options,
      check: typed.check(result: nil),
      body: typed.observer(body))
  }

  /// Runs `body` after every call of the instance method `selector`, with the return value and
  /// the arguments (in that order: the receiver, the result, then the arguments); what `body`
  /// returns is what the caller gets.
  ///
  /// - Throws: ``HookError``, as `hook(before:in:options:_:)`; the result type is checked too.
  @inlinable @discardableResult
  public static func hook<each Arg: ObjCTypeEncodable, Result>(
    after selector: Selector, returning: Result.Type, in cls: Class? = nil,
    options: HookOptions = [],
    _ body: @escaping @Sendable (Self, Result, repeat each Arg) -> Result
  ) throws(HookError) -> HookToken {
    let typed = TypedHook<Self, repeat each Arg>(selector)
    return try HookInstaller.install(
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
    return try HookInstaller.install(
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
    try HookInstaller.install(
      on: .instances(try instancesClass(cls)), selector, position, options, check: { _ in },
      body: HookBody(body))
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
    return try HookInstaller.install(
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
    return try HookInstaller.install(
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
    return try HookInstaller.install(
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
    return try HookInstaller.install(
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
    try HookInstaller.install(
      on: .object(self), selector, position, options, check: { _ in }, body: HookBody(body))
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
    return try HookInstaller.install(
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
    return try HookInstaller.install(
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
    return try HookInstaller.install(
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
    return try HookInstaller.install(
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
    try HookInstaller.install(
      on: .instances(runtimeClass.metaclass), selector, position, options, check: { _ in },
      body: HookBody(body))
  }
}
