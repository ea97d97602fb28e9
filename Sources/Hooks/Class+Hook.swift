// Hooks on classes made at run time (`Class.hook`), and the one door every hook goes through.
public import ObjCRuntime

extension Class {
  /// Hooks the instance method `selector` of this class and its subclasses, or the class
  /// method when this is a metaclass: the untyped form, for any class, one made with
  /// `objc_allocateClassPair` (which has no Swift type) included. `body` gets a
  /// ``HookInvocation``.
  ///
  /// ```swift
  /// let token = try cls.hook("add:", position: .before) { invocation in
  ///   print(invocation.argument(2, as: Int.self) ?? 0)
  /// }
  /// ```
  ///
  /// - Throws: ``HookError`` when the selector is unknown or refused; nothing is changed then.
  @discardableResult
  public func hook(
    _ selector: Selector, position: HookPosition, options: HookOptions = [],
    _ body: @escaping @Sendable (HookInvocation) -> Void
  ) throws(HookError) -> HookToken {
    try HookInstaller.install(
      on: .instances(self), selector, position, options, check: { _ in }, body: HookBody(body))
  }
}

extension HookToken {
  /// How many hooks are installed in the process.
  public static var installedCount: Int { HookEngine.liveHookCount }
}

/// Where every hook, typed or not, is installed.
@usableFromInline
internal enum HookInstaller {
  /// What a hook applies to.
  @usableFromInline
  internal enum Target {
    case instances(Class)
    case object(ObjCObject)
  }

  @usableFromInline
  internal static func install(
    on target: Target, _ selector: Selector, _ position: HookPosition, _ options: HookOptions,
    check: (MethodSignature) throws(HookError) -> Void, body: HookBody
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
