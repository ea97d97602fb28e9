// One intercepted call whose every argument travels in a general-purpose register, as the stub
// handed it over: read without a call frame, forwarded without a register-shape dispatch.

/// A call caught by an ``Interceptor`` of a method whose explicit arguments are at most three
/// integer-class values (integers, `Bool`, pointers, objects, selectors), as it arrived: the
/// receiver, `_cmd` and the three argument registers.
///
/// A handler that only reads arguments works on the registers; one that must see or change the
/// call as a whole asks for ``withFrame(_:)``, the ``InterceptedCall`` every other call gets.
/// Valid only while the handler runs.
@usableFromInline
package struct RegisterCall: CallArguments {
  // Unmanaged, and read as a guaranteed reference: the interceptor owns the layout and outlives
  // every call it handles, and an `unowned(unsafe)` one was retained on each read.
  @usableFromInline let layout: Unmanaged<CallLayout>
  /// The receiver (`self`), unretained: the caller keeps it alive for the call.
  @usableFromInline package let receiver: id
  /// `_cmd`, as the caller passed it.
  @usableFromInline package let selector: SEL
  /// The three argument registers, stored on the interceptor's stack, and a result word after
  /// them: typed readers load their values from memory through the type's conformance, as from
  /// a frame, and a hook that calls the original with other arguments writes them here.
  @usableFromInline let words: UnsafeMutablePointer<UInt64>

  internal init(
    layout: CallLayout, receiver: id, selector: SEL, words: UnsafeMutablePointer<UInt64>
  ) {
    self.layout = Unmanaged.passUnretained(layout)
    self.receiver = receiver
    self.selector = selector
    self.words = words
  }

  /// A word for the handler to keep the result in, zero when the call arrives. Read and written
  /// untyped, as a frame's return slot is: a result is loaded from it as an object, and a
  /// typed `UInt64` store between a load and its retain let the optimizer move the retain past
  /// the release of the slot's reference.
  @inlinable
  package var resultSlot: UnsafeMutableRawPointer { UnsafeMutableRawPointer(words + 3) }

  /// The result word's bits.
  @inlinable
  package var resultWord: UInt64 {
    get { resultSlot.load(as: UInt64.self) }
    nonmutating set { resultSlot.storeBytes(of: newValue, as: UInt64.self) }
  }

  /// The receiver, borrowed without reference counting.
  @inlinable
  package var borrowedReceiver: BorrowedReference<ObjCObject> {
    BorrowedReference(Unmanaged.fromOpaque(UnsafeRawPointer(receiver)))
  }

  /// The register argument `index` travelled in (2 is the first after `self` and `_cmd`, as
  /// ``InterceptedCall`` counts).
  @inlinable @inline(__always)
  package func word(at index: Int) -> UInt64 {
    words[index - 2]
  }

  /// Argument `index` as an object address; nil for `nil`.
  ///
  /// - Precondition: argument `index` is an object.
  @inlinable @inline(__always)
  package func uncheckedObjectAddress(at index: Int) -> UnsafeRawPointer? {
    UnsafeRawPointer(bitPattern: UInt(word(at: index)))
  }

  /// Argument `index` read through `T`'s conformance from the low bytes of its register, as a
  /// C callee reads it: what typed hooks use inside parameter packs.
  ///
  /// - Precondition: `index` is in range and `T` is laid out as the argument is
  ///   (``MethodSignature/argument(at:accepts:)``), which makes it an integer-class value.
  @inlinable @inline(__always)
  package func uncheckedEncodableArgument<T: ObjCTypeEncodable>(at index: Int, as type: T.Type)
    -> T
  {
    T.objcValue(at: UnsafeRawPointer(words + (index - 2)))
  }

  /// Replaces argument `index` for what runs after: its register takes the value's bytes,
  /// widened as a C caller widens a narrow integer. An object is not retained.
  ///
  /// - Precondition: as for ``uncheckedEncodableArgument(at:as:)``.
  @usableFromInline package func uncheckedSetArgument<T>(_ value: T, at index: Int) {
    let word = words + (index - 2)
    InvocationFrame.write(value, to: UnsafeMutableRawPointer(word), capacity: 8)
    word.pointee = layout._withUnsafeGuaranteedRef {
      $0.registerShape.unsafelyUnwrapped.widen(word.pointee, at: index - 2)
    }
  }

  /// The bits `value` travels back in as the method's result: an object retained for the
  /// caller, a narrow integer widened, as ``InterceptedCall/setReturnValue(_:)`` writes it.
  ///
  /// - Precondition: `T` is laid out as the return type is
  ///   (``MethodSignature/returnType(accepts:)``).
  @usableFromInline package func resultBits<T>(of value: T) -> UInt64 {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 1) { slot in
      let address = slot.baseAddress.unsafelyUnwrapped
      address.initialize(to: 0)
      layout._withUnsafeGuaranteedRef {
        InterceptedCall.storeResult(
          value, to: UnsafeMutableRawPointer(address), signature: $0.signature, capacity: 8)
      }
      return address.pointee
    }
  }

  /// Calls `imp` with the call's registers (as they arrived, widened by the caller, or as a hook
  /// replaced them) and returns its result register's bits (an object result retained, as IMPs
  /// return them). When `imp` is ``IMP/forward``, the call goes down the forwarding chain
  /// through a frame, as ``InterceptedCall/forward(to:)`` sends it.
  package func callOriginal(_ imp: IMP) -> UInt64 {
    if imp.isForward { return forwardIntoForwarding() }
    return callIMP3(
      imp.rawValue, receiver, selector, .general, words[0], .general, words[1], .general, words[2],
      layout._withUnsafeGuaranteedRef { $0.registerShape.unsafelyUnwrapped.result })
  }

  // Out of line: its frame would cost every call a stack check.
  @inline(never)
  private func forwardIntoForwarding() -> UInt64 {
    withFrame { $0.forward(to: .forward) }
  }

  /// Lays the registers out as a call frame on the stack, runs `body` with the call view of it,
  /// and returns the result word `body` left in its return slot.
  package func withFrame(_ body: (InterceptedCall) -> Void) -> UInt64 {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: RegisterCall.frameWords) { frame in
      let base = frame.baseAddress.unsafelyUnwrapped
      body(layOut(in: base))
      return RegisterCall.result(in: base)
    }
  }

  /// Lays the registers out as a call frame in `base` (``frameWords`` words, on the caller's
  /// stack) and returns the call view of it; after the call, its result is
  /// ``result(in:)``. Inlined, so that a handler that lays out a frame only sometimes pays no
  /// call for it.
  @inlinable @inline(__always)
  package func layOut(in base: UnsafeMutablePointer<UInt64>) -> InterceptedCall {
    base[0] = UInt64(UInt(bitPattern: receiver))
    base[1] = UInt64(UInt(bitPattern: selector))
    base[2] = words[0]
    base[3] = words[1]
    base[4] = words[2]
    return RegisterCall.frame(at: base, layout: layout)
  }

  /// The words of a register frame: `self`, `_cmd` and six argument words, the result word, then
  /// eight argument pointers. A constant the client compiles in, so that its frame is a fixed
  /// stack allocation.
  @inlinable
  package static var frameWords: Int { 17 }

  /// The result word of the frame at `base`.
  @inlinable @inline(__always)
  package static func result(in base: UnsafeMutablePointer<UInt64>) -> UInt64 { base[8] }

  /// The call view of the frame at `base` (``frameWords`` words, the first eight set by the
  /// caller: `self`, `_cmd` and six argument words; the result word and the argument pointers
  /// are set here).
  @inlinable @inline(__always)
  internal static func frame(at base: UnsafeMutablePointer<UInt64>, layout: Unmanaged<CallLayout>)
    -> InterceptedCall
  {
    base[8] = 0
    let pointers = UnsafeMutableRawPointer(base + 9).assumingMemoryBound(
      to: UnsafeMutableRawPointer?.self)
    pointers[0] = UnsafeMutableRawPointer(base)
    pointers[1] = UnsafeMutableRawPointer(base + 1)
    pointers[2] = UnsafeMutableRawPointer(base + 2)
    pointers[3] = UnsafeMutableRawPointer(base + 3)
    pointers[4] = UnsafeMutableRawPointer(base + 4)
    pointers[5] = UnsafeMutableRawPointer(base + 5)
    pointers[6] = UnsafeMutableRawPointer(base + 6)
    pointers[7] = UnsafeMutableRawPointer(base + 7)
    return InterceptedCall(
      layout: layout, arguments: pointers, returnSlot: UnsafeMutableRawPointer(base + 8))
  }
}

/// What a typed reader of a call needs, whether the call is laid out as a frame
/// (``InterceptedCall``) or arrived as registers (``RegisterCall``).
@usableFromInline
package protocol CallArguments {
  /// The receiver, borrowed without reference counting.
  var borrowedReceiver: BorrowedReference<ObjCObject> { get }
  /// Argument `index` (2 is the first after `self` and `_cmd`) read through `T`'s conformance.
  func uncheckedEncodableArgument<T: ObjCTypeEncodable>(at index: Int, as type: T.Type) -> T
  /// Object argument `index`'s address; nil for `nil`.
  func uncheckedObjectAddress(at index: Int) -> UnsafeRawPointer?
}

extension CallArguments {
  /// The receiver's identity, read without touching it.
  @inlinable
  package var receiverIdentity: ObjectIdentifier { borrowedReceiver.identity }
}
