// Typed errors of the hook framework: each names the method as `-[Class selector]` and says what
// to do instead.
import ObjCRuntime

/// Why a hook could not be installed. Nothing was changed when one is thrown.
public enum HookError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No class in the chain implements the selector, so there is nothing to hook.
  case unknownSelector(MethodReference)
  /// The hook closure's types do not match the method's type encoding.
  case signatureMismatch(MethodReference, method: String, hook: String)
  /// The selector is one the hook framework must never intercept (`retain`, `release`,
  /// `forwardInvocation:`...): hooking it would break the machinery hooks run on.
  case blacklisted(MethodReference)
  /// `dealloc` can only be hooked `before`: after it the object is gone, and an `instead` hook
  /// could skip the destruction.
  case deallocPosition(MethodReference, HookPosition)
  /// A per-object hook needs a dynamic subclass of the object's class, and the runtime refused
  /// to make one.
  case cannotSubclass(object: String, className: String, reason: String)
  /// A typed hook's receiver type does not describe the instances of the class it was asked to
  /// hook.
  case receiverType(className: String, storage: String, hook: String)
  /// The runtime refused a change the hook needed.
  case runtime(ObjCRuntimeError)

  /// What went wrong and what to do.
  public var description: String {
    switch self {
    case .unknownSelector(let method):
      "\(method): no implementation to hook; check the selector's spelling and colons, and"
        + " whether the class (or, for class methods, its metaclass) implements it."
        + Suggestions.didYouMean(method)
    case .signatureMismatch(let method, let expected, let hook):
      "\(method): the hook's types do not match the method; the method is `\(expected)`"
        + (MethodEncoding.swiftSignature(of: expected).map { " (in Swift `\($0)`)" } ?? "")
        + ", the hook closure is `\(hook)`"
        + (MethodEncoding.swiftSignature(of: hook).map { " (in Swift `\($0)`)" } ?? "")
        + "; declare the closure's parameters (and result) with the method's types"
    case .blacklisted(let method):
      "\(method) cannot be hooked: the runtime and the hook machinery depend on it"
    case .deallocPosition(let method, let position):
      "\(method) can only be hooked before: a hook \(position) dealloc would see a destroyed"
        + " object or skip its destruction"
    case .cannotSubclass(let object, let className, let reason):
      "cannot hook \(object) alone: no dynamic subclass of \(className) could be made"
        + " (\(reason)); hook the class instead"
    case .receiverType(let className, let storage, let hook):
      "instances of \(className) are \(storage) objects, not \(hook); hook it from \(storage)"
        + " (or a superclass of it)"
    case .runtime(let error):
      error.description
    }
  }
}

/// Where a hook runs relative to the original implementation.
public enum HookPosition: Sendable, Hashable, CustomStringConvertible {
  /// Before the original, with the call's arguments.
  case before
  /// In place of the original: the hook decides whether, and with which arguments, to call it.
  case instead
  /// After the original, with its return value, which the hook may replace.
  case after

  /// `before`, `instead` or `after`.
  public var description: String {
    switch self {
    case .before: "before"
    case .instead: "instead of"
    case .after: "after"
    }
  }
}

/// Options of one hook.
public struct HookOptions: OptionSet, Sendable, Hashable {
  /// The option bits.
  public let rawValue: Int

  /// Options from their bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Remove the hook automatically after its first call (Aspects' `AspectOptionAutomaticRemoval`).
  /// When calls race, exactly one of them runs the hook.
  public static let once = HookOptions(rawValue: 1)
}

extension Diagnostic.Kind {
  /// A hook was skipped for one call (a nil object argument for a typed hook...).
  public static let hookSkipped = Diagnostic.Kind(rawValue: "hookSkipped")
  /// Removing a hook could not restore the method, which someone replaced since.
  public static let restoreBlocked = Diagnostic.Kind(rawValue: "restoreBlocked")
  /// A plugin was refused or did not install.
  public static let plugin = Diagnostic.Kind(rawValue: "plugin")
}
