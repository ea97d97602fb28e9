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
  /// Whether the body reads its arguments with their own types (the typed forms of one to three
  /// arguments) rather than through a parameter pack: for the tests that check the compiler
  /// chose the overload it should.
  let readsFixedArity: Bool

  /// The body of an untyped hook, or of a typed one that needs the whole call: frames only.
  @usableFromInline
  init(_ frame: @escaping @Sendable (HookInvocation) -> Void) {
    self.frame = frame
    self.registers = { registers in
      preconditionFailure("\(registers.method): a hook without a register entry ran on registers")
    }
    self.takesRegisters = false
    self.readsFixedArity = false
  }

  /// The body of a typed hook, with its entry over the registers.
  @usableFromInline
  init(
    frame: @escaping @Sendable (HookInvocation) -> Void,
    registers: @escaping @Sendable (HookRegisters) -> Void, readsFixedArity: Bool = false
  ) {
    self.frame = frame
    self.registers = registers
    self.takesRegisters = true
    self.readsFixedArity = readsFixedArity
  }
}

/// One call as a typed hook reads it from the registers: the receiver and the arguments as they
/// arrived (or as an `instead` hook passed them on), the result word, and for an `instead` hook
/// the way on down the chain. Valid only while the hook runs.
///
/// Two words, passed in registers: the call's ``Context`` stays where the site laid it out, and
/// a hook, an `instead` chain's next step or a ``HookOriginal`` copies only the pointer and the
/// depth (a nine-word view was copied at each of them: with the chain's walk, 84 of an `instead`
/// hook's 394 instructions).
@usableFromInline
internal struct HookRegisters {
  /// What the call's hooks share, laid out once by the site for the call.
  @usableFromInline
  struct Context {
    @usableFromInline let call: RegisterCall
    // Unmanaged and borrowed: sites are immortal, and the call that made this context reads the
    // snapshot (and with it both lists) until it returns (`HookInvocation` holds them the same
    // way). Unmanaged rather than `unowned(unsafe)`: a method called on an unowned reference
    // retained and released it around the call (40 instructions of a per-object `instead`
    // hook's call of its inherited original).
    let site: Unmanaged<HookSite>
    let classHooks: BorrowedReference<HookList>
    let objectHooks: BorrowedReference<HookList>?
    let original: IMP?
    /// How many `instead` hooks the chain has (per-object and class-wide): a hook that calls
    /// the original from the last link goes straight to the original.
    @usableFromInline let chainLength: Int
  }

  /// The call's context, on the site's stack for the call.
  @usableFromInline let context: UnsafePointer<Context>
  /// How far down the `instead` chain this view is: 0 is the outermost hook.
  @usableFromInline let insteadDepth: Int

  /// Runs `body` with a view of a call whose context the site lays out here: the view, and any
  /// copy of it, is valid only inside `body`.
  @inline(__always)
  static func with<Result>(
    call: RegisterCall, site: HookSite, classHooks: BorrowedReference<HookList>,
    objectHooks: BorrowedReference<HookList>?, original: IMP?, chainLength: Int,
    _ body: (HookRegisters) -> Result
  ) -> Result {
    let context = Context(
      call: call, site: Unmanaged.passUnretained(site), classHooks: classHooks,
      objectHooks: objectHooks, original: original, chainLength: chainLength)
    // Without the stack protector's check, which `withUnsafePointer` adds to the site's every
    // call (five instructions): the pointer is only read, and only while `body` runs.
    return _withUnprotectedUnsafePointer(to: context) {
      body(HookRegisters(context: $0, insteadDepth: 0))
    }
  }

  fileprivate init(context: UnsafePointer<Context>, insteadDepth: Int) {
    self.context = context
    self.insteadDepth = insteadDepth
  }

  /// The call's registers.
  @usableFromInline
  var call: RegisterCall {
    @inline(__always) get { context.pointee.call }
  }

  /// Calls what the `instead` hook running replaced, with the registers as they are now: the
  /// next `instead` hook, or the original implementation. Its result is then in the result word.
  @inlinable
  func invokeOriginal() {
    let next = insteadDepth &+ 1
    // From the last link (the usual chain has one), straight to the original.
    if next == context.pointee.chainLength {
      callOriginalOfChain(context)
    } else {
      proceedInChain(context, from: next)
    }
  }

  /// Runs the call's `instead` chain from its outermost hook.
  func runInsteadChain() {
    proceedInChain(context, from: 0)
  }

  /// Drops the reference the result word holds, if the method returns an object and the word
  /// holds one, and empties the word.
  @usableFromInline
  func releaseReturnedObject() {
    guard context.pointee.site._withUnsafeGuaranteedRef({ $0.returnsObject }) else { return }
    if let object = call.resultSlot.load(as: UnsafeRawPointer?.self) {
      Unmanaged<AnyObject>.fromOpaque(object).release()
    }
    call.resultSlot.storeBytes(of: UnsafeRawPointer?.none, as: UnsafeRawPointer?.self)
  }
}

// The chain's two steps are free functions, not static methods: a static method's metatype is a
// dead argument, and the optimizer's copy without it left the public symbol a thunk that every
// call from a hook's body went through (four instructions).

/// Runs the `instead` hook at `depth` of the chain of the call `context` lays out, or the
/// original when the chain is done, as ``HookInvocation`` runs it over a frame.
///
/// Out of line, so that the calls without `instead` hooks do not pay for its frame; with each
/// link's two-word view made for it; and ending in a call of the hook's body or of the original,
/// with nothing left to do after it, so that it saves only the register the body's context
/// travels in.
@usableFromInline @inline(never)
internal func proceedInChain(_ context: UnsafePointer<HookRegisters.Context>, from depth: Int) {
  guard
    let entry = HookList.insteadEntry(
      at: depth, context.pointee.classHooks, context.pointee.objectHooks)
  else {
    return callOriginalOfChain(context)
  }
  BorrowedReference(entry).with {
    $0.runInChain(HookRegisters(context: context, insteadDepth: depth))
  }
}

/// Calls the original, at the end of the `instead` chain, with the registers as the chain left
/// them, and keeps its result in the result word.
@usableFromInline @inline(never)
internal func callOriginalOfChain(_ context: UnsafePointer<HookRegisters.Context>) {
  HookRegisters(context: context, insteadDepth: 0).releaseReturnedObject()
  // The superclass is asked only when the hooked class inherits the method. The implementation
  // first, then the call's words: read in that order, only the context is kept across the first
  // call, and only the words across the second.
  let original =
    context.pointee.original
    ?? context.pointee.site._withUnsafeGuaranteedRef { $0.originalImplementation(nil) }
  let call = context.pointee.call
  call.resultWord = call.callOriginal(original)
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
  var method: MethodReference { context.pointee.site._withUnsafeGuaranteedRef { $0.method } }
}
