// What a hook runs: its body over a call frame, and for typed hooks a second entry that reads the
// argument registers as they arrived, so that a hooked call needs no frame at all.
import ObjCRuntime

/// A hook's body: the one every call can run (``HookInvocation``, over a call frame), and, for
/// typed `before`, observing `after` and `instead` hooks, the same closure's entry over the
/// registers of a method whose arguments are all integer-class (``HookRegisters``).
///
/// A site runs the register entries when every hook of the call has one.
@usableFromInline
internal struct HookBody: Sendable {
  let frame: @Sendable (HookInvocation) -> Void
  // Stored non-optional (a hook without it has an empty one, never called): reading a closure
  // out of an Optional re-abstracts it on every call.
  let registers: @Sendable (HookRegisters) -> Void
  /// Whether ``registers`` is the hook's body.
  let takesRegisters: Bool

  /// The body of an untyped hook, or of a typed one that needs the whole call: frames only.
  @usableFromInline
  init(_ frame: @escaping @Sendable (HookInvocation) -> Void) {
    self.frame = frame
    self.registers = { registers in
      preconditionFailure("\(registers.method): a hook without a register entry ran on registers")
    }
    self.takesRegisters = false
  }

  /// The body of a typed hook, with its entry over the registers.
  @usableFromInline
  init(
    frame: @escaping @Sendable (HookInvocation) -> Void,
    registers: @escaping @Sendable (HookRegisters) -> Void
  ) {
    self.frame = frame
    self.registers = registers
    self.takesRegisters = true
  }
}

/// One call as a typed hook reads it from the registers: the receiver and the arguments as they
/// arrived (or as an `instead` hook passed them on), the result word, and for an `instead` hook
/// the way on down the chain. Valid only while the hook runs.
@usableFromInline
internal struct HookRegisters {
  @usableFromInline let call: RegisterCall
  // Unowned and borrowed: sites are immortal, and the call that made this view reads the
  // snapshot (and with it both lists) until it returns (`HookInvocation` holds them the same
  // way).
  private unowned(unsafe) let site: HookSite
  private let classHooks: BorrowedReference<HookList>
  private let objectHooks: BorrowedReference<HookList>?
  private let original: IMP?
  /// How far down the `instead` chain this view is: 0 is the outermost hook.
  private var insteadDepth = 0

  init(
    call: RegisterCall, site: HookSite, classHooks: BorrowedReference<HookList>,
    objectHooks: BorrowedReference<HookList>?, original: IMP?
  ) {
    self.call = call
    self.site = site
    self.classHooks = classHooks
    self.objectHooks = objectHooks
    self.original = original
  }

  /// Calls what the `instead` hook running replaced, with the registers as they are now: the
  /// next `instead` hook, or the original implementation. Its result is then in the result word.
  @usableFromInline
  func invokeOriginal() {
    var next = self
    next.proceed(from: insteadDepth + 1)
  }

  /// Runs the call's `instead` chain from its outermost hook. (A copy walks it: the view the
  /// site passes to its other hooks stays as it is.)
  func runInsteadChain() {
    var chain = self
    chain.proceed()
  }

  /// Runs the `instead` hook at `depth` of the chain, or the original when the chain is done,
  /// as ``HookInvocation`` runs it over a frame.
  ///
  /// Out of line: the calls without `instead` hooks do not pay for its frame.
  @inline(never)
  mutating func proceed(from depth: Int = 0) {
    insteadDepth = depth
    guard let entry = HookList.insteadEntry(at: depth, classHooks, objectHooks) else {
      releaseReturnedObject()
      // The site is read only when the hooked class inherits the method (an unowned reference
      // read costs a retain).
      if let original {
        call.resultWord = call.callOriginal(original)
      } else {
        call.resultWord = call.callOriginal(site.originalImplementation(nil))
      }
      return
    }
    // A `once` hook that another call already ran passes on to the next in the chain.
    let ran = BorrowedReference(entry).with { $0.run(self) }
    if !ran { proceed(from: depth + 1) }
  }

  /// Drops the reference the result word holds, if the method returns an object and the word
  /// holds one, and empties the word.
  @usableFromInline
  func releaseReturnedObject() {
    guard site.returnsObject else { return }
    if let object = call.resultSlot.load(as: UnsafeRawPointer?.self) {
      Unmanaged<AnyObject>.fromOpaque(object).release()
    }
    call.resultSlot.storeBytes(of: UnsafeRawPointer?.none, as: UnsafeRawPointer?.self)
  }
}

extension HookRegisters: TypedCall {
  /// The result word's value, which takes over the word's reference to an object result: it
  /// is moved out, not copied and released (and the word emptied). A copy and a release of the
  /// word's reference were reordered by the optimizer, the retain after the release, in a
  /// release build: the object was freed before the copy was counted.
  @inlinable
  func takeResult<Result>(as type: Result.Type) -> Result {
    let result = call.resultSlot.withMemoryRebound(to: Result.self, capacity: 1) { $0.move() }
    call.resultWord = 0
    return result
  }

  @inlinable
  func setResult<Result>(_ result: Result) {
    releaseReturnedObject()
    call.resultWord = call.resultBits(of: result)
  }
}

extension HookInvocation: TypedCall {
  @inlinable
  func setResult<Result>(_ result: Result) {
    releaseReturnedObject()
    call.uncheckedSetReturnValue(result)
  }
}

/// What a typed `instead` hook does with a call, over a frame or over the registers.
@usableFromInline
internal protocol TypedCall: TypedArguments {
  /// Calls what the running `instead` hook replaced.
  func invokeOriginal()
  /// The result as a Swift value that owns its reference: the slot's own reference to an object
  /// result moves into it.
  func takeResult<Result>(as type: Result.Type) -> Result
  /// Replaces the result (an object is retained for the caller), dropping the one there.
  func setResult<Result>(_ result: Result)
}

/// What a typed hook reads of a call, from a frame (``HookInvocation``) or from the registers
/// (``HookRegisters``): one closure serves both.
@usableFromInline
internal protocol TypedArguments {
  associatedtype Call: CallArguments
  /// The call's arguments.
  var call: Call { get }
  /// The method, for warnings.
  var method: MethodReference { get }
}

extension TypedArguments {
  /// The receiver, borrowed for the call.
  @inlinable
  var borrowedReceiver: BorrowedReference<ObjCObject> { call.borrowedReceiver }

  /// Argument `index` (2 is the first after `self` and `_cmd`) as a `T`, unchecked.
  @inlinable @inline(__always)
  func uncheckedEncodableArgument<T: ObjCTypeEncodable>(at index: Int, as type: T.Type) -> T {
    call.uncheckedEncodableArgument(at: index, as: T.self)
  }

  /// Object argument `index`'s address; nil for `nil`.
  @inlinable @inline(__always)
  func uncheckedObjectAddress(at index: Int) -> UnsafeRawPointer? {
    call.uncheckedObjectAddress(at: index)
  }
}

extension HookInvocation: TypedArguments {}

extension HookRegisters: TypedArguments {
  @usableFromInline
  var method: MethodReference { site.method }
}
