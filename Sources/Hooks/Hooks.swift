// `Hooks`: hooks on classes made at run time, and the one door every hook goes through.
import ObjCRuntime

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
