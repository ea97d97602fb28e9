// Warnings the runtime and the layers on it print for problems they survive (bad declarations,
// refused calls, broken restores), as values that tests and tools can inspect.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One problem the runtime or a layer on it survived: what kind of problem, the method it
/// concerns when there is one, and a sentence that says what happened and what to do.
///
/// Tests match on ``kind`` and ``method``, not on the text, which may be reworded.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// A kind of problem: the runtime's are declared here; each layer above declares its own in an
  /// extension (the hook framework's `hookSkipped`, `restoreBlocked` and `plugin`, the UIKit
  /// model's `model`), so that the runtime names no layer above it. Two kinds are the same when
  /// their raw values are.
  public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The kind's name, such as `refusedCall`.
    public let rawValue: String

    /// The kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The kind's name.
    public var description: String { rawValue }

    /// A class declaration had a bad line, which was skipped.
    public static let declaration = Kind(rawValue: "declaration")
    /// A C-level call refused its input and changed nothing (`objc_setAssociatedObject`,
    /// `method_setImplementation`, `method_exchangeImplementations`, `object_setIvar`...).
    public static let refusedCall = Kind(rawValue: "refusedCall")
    /// A send made through a non-throwing door could not reach its method (a broken swizzle),
    /// and did nothing.
    public static let failedSend = Kind(rawValue: "failedSend")
    /// An IMP made from a closure was called on an object of another class, and returned zero.
    public static let closureReceiver = Kind(rawValue: "closureReceiver")
    /// A value was refused (NaN, infinite, out of range) and the previous one kept.
    public static let refusedValue = Kind(rawValue: "refusedValue")
    /// Two classes' `+initialize` waited for each other on two threads (objc4 deadlocks).
    public static let initializeDeadlock = Kind(rawValue: "initializeDeadlock")
    /// Anything else.
    public static let general = Kind(rawValue: "general")
  }

  /// What kind of problem.
  public let kind: Kind
  /// The method the problem concerns, when there is one.
  public let method: MethodReference?
  /// What happened and what to do.
  public let message: String

  /// A diagnostic.
  public init(_ kind: Kind, method: MethodReference? = nil, _ message: String) {
    self.kind = kind
    self.method = method
    self.message = message
  }

  /// The message, as printed after `SwizzleKit: `.
  public var description: String { message }
}

/// Reports the problems the runtime and the layers on it survive, as ``Diagnostic`` values.
///
/// Each is printed on standard error with a `SwizzleKit:` prefix, unless `SWIZZLEKIT_QUIET=1` is
/// set, and handed to the observers: the one set with ``setObserver(_:)`` (a program's, for the
/// whole run), and any watching for the duration of a ``withObserver(_:_:)`` call (tests, which
/// run concurrently and must not replace each other's).
public enum Diagnostics {
  /// The program's observer, for the whole run.
  private static let main = RuntimeLock<(@Sendable (Diagnostic) -> Void)?>(nil)
  /// The observers of ``withObserver(_:_:)`` calls.
  private static let scoped = ScopedObservers<Diagnostic, Void>()

  /// Reports `diagnostic`.
  public static func report(_ diagnostic: Diagnostic) {
    main.withLock { $0 }?(diagnostic)
    for observer in scoped.current { observer(diagnostic) }
    guard getenv("SWIZZLEKIT_QUIET") == nil else { return }
    let line = "SwizzleKit: \(diagnostic.message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  }

  /// Reports a problem of `kind`, concerning `method` when given.
  public static func warn(
    _ message: String, kind: Diagnostic.Kind = .general, method: MethodReference? = nil
  ) {
    report(Diagnostic(kind, method: method, message))
  }

  /// Reports an error a C-level call swallowed (it returned nil or false instead of throwing),
  /// with the method the error names.
  public static func warn(_ call: String, refused error: ObjCRuntimeError) {
    report(Diagnostic(.refusedCall, method: error.method, "\(call): \(error)"))
  }

  /// Sets the function every diagnostic is also handed to, replacing the one set before; nil
  /// removes it. Observers of ``withObserver(_:_:)`` are not affected.
  public static func setObserver(_ newObserver: (@Sendable (Diagnostic) -> Void)?) {
    main.withLock { $0 = newObserver }
  }

  /// Runs `body` with `observer` receiving every diagnostic, from any thread, until `body`
  /// returns. Several such observers can watch at once; each sees all diagnostics (other
  /// threads' too), so filter by kind and method.
  ///
  /// ```swift
  /// let seen = RuntimeLock<[Diagnostic]>([])
  /// Diagnostics.withObserver({ diagnostic in seen.withLock { $0.append(diagnostic) } }) {
  ///   method_exchangeImplementations(first, second)
  /// }
  /// let refused = seen.withLock { $0.filter { $0.kind == .refusedCall } }
  /// ```
  public static func withObserver<Result, Failure: Error>(
    _ observer: @escaping @Sendable (Diagnostic) -> Void, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try scoped.watching(observer, body)
  }

  /// Runs `body` and returns what it returned with the diagnostics of `kind` (every kind when
  /// nil) reported meanwhile, by any thread.
  ///
  /// ```swift
  /// let (_, refused) = Diagnostics.collecting(kind: .refusedCall) {
  ///   method_exchangeImplementations(first, second)
  /// }
  /// ```
  public static func collecting<Result, Failure: Error>(
    kind: Diagnostic.Kind? = nil, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> (Result, [Diagnostic]) {
    let seen = RuntimeLock<[Diagnostic]>([])
    let result = try withObserver(
      { diagnostic in
        if kind == nil || diagnostic.kind == kind { seen.withLock { $0.append(diagnostic) } }
      }, body)
    return (result, seen.withLock { $0 })
  }
}

extension ObjCRuntimeError {
  /// The method the error names, when it names one.
  public var method: MethodReference? {
    switch self {
    case .unrecognizedSelector(let method), .methodNotFound(let method),
      .methodAlreadyExists(let method), .methodNotInClass(let method, _),
      .exchangeWithItself(let method), .implementationMismatch(let method, _, _),
      .signatureMismatch(let method, _, _), .unsupportedSignature(let method, _),
      .incompatibleImplementation(let method, _, _):
      method
    default:
      nil
    }
  }
}
