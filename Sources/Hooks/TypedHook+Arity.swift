// What the typed hooks of one to three arguments (`Hook+Arity.generated.swift`) run: their
// bodies read each argument with its own type, where the variadic forms read a parameter pack.
// Swift 6.3 specializes a typed hook's wrapper for its types but not the pack's expansion: each
// hook of a method with arguments paid about 50 instructions a call to read them (each argument
// read through its conformance's witness, the pack laid out on the stack, a thunk before the
// user's closure). The compiler prefers the fixed-arity overloads wherever both fit. An
// `instead` hook's `original(...)` still writes its arguments through the pack.
import ObjCRuntime

extension TypedHook {
  /// The checks a body runs: nil when the closure has no object argument to check, so that the
  /// body built for it does not look.
  @inlinable
  var checksIfAny: [(Int, @Sendable (AnyObject) -> Bool, Bool)]? {
    let checks = objectChecks
    return checks.isEmpty ? nil : checks
  }

  /// Runs `run` with the receiver, unless an object argument is not of the closure's class
  /// (with `checks` nil, nothing is looked at).
  @inlinable @inline(__always)
  static func runObserver<Arguments: TypedArguments>(
    _ arguments: Arguments, _ checks: [(Int, @Sendable (AnyObject) -> Bool, Bool)]?,
    _ run: (Receiver) -> Void
  ) {
    if let checks, !argumentsFit(arguments, checks) { return }
    arguments.borrowedReceiver.with { run(unsafeDowncast($0, to: Receiver.self)) }
  }

  /// Runs an `instead` hook's `run` with the receiver and writes back what it returns; an object
  /// argument not of the closure's class passes the call on to the original.
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
}
