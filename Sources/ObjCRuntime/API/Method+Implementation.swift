// The typed layer over implementations: setting and exchanging IMPs.
import Synchronization

extension Method {
  /// Sets the implementation and returns the previous one: ``IMP/forward`` when the method had
  /// none (this runtime stores `_objc_msgForward` set by Aspects and a method added without an
  /// implementation alike, as "none": both forward).
  ///
  /// Every class that dispatches to this method (its owner and the subclasses that do not
  /// override it) runs the new IMP from the next send on; caches hold methods, not IMPs, so
  /// nothing needs flushing. The corresponding objc4 function is `method_setImplementation`.
  ///
  /// - Throws: ``ObjCRuntimeError/incompatibleImplementation(_:implementationFor:receivers:)``
  ///   when `implementation` was declared for instances of a Swift class that this method's
  ///   receivers are not (its code would read their memory as that class's); nothing changes.
  @discardableResult
  public func setImplementation(
    _ implementation: IMP, fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> IMP? {
    try IMPReceivers.check(implementation, for: self)
    // A method without an implementation forwards: "the old one" is then the forward IMP (objc4
    // returns the `_objc_msgForward` Aspects stored), so a swizzle that calls it forwards too.
    let old = Runtime.state.withLock { _ -> IMP in
      let old = self.implementation ?? .forward
      storeImplementation(implementation)
      return old
    }
    Tracing.emit(
      .implementationSet(
        self, old: old, new: implementation, by: SourceLocation(fileID: fileID, line: line)))
    return old
  }

  /// Sets the implementation to `implementation` only if it is still `expected`, in one step
  /// under the runtime lock; returns whether it did.
  ///
  /// This is how a hook restores the implementation it replaced without clobbering someone who
  /// swizzled on top of it since (InterposeKit's rule): check and set cannot be separated by
  /// another thread's `method_setImplementation`.
  ///
  /// An implementation declared for instances of a Swift class that this method's receivers are
  /// not is never set (false), as ``setImplementation(_:fileID:line:)`` refuses it.
  @discardableResult
  public func setImplementation(
    _ implementation: IMP, ifCurrent expected: IMP, fileID: String = #fileID, line: Int = #line
  ) -> Bool {
    guard (try? IMPReceivers.check(implementation, for: self)) != nil else { return false }
    let swapped = Runtime.state.withLock { _ -> Bool in
      guard self.implementation == expected else { return false }
      storeImplementation(implementation)
      return true
    }
    if swapped {
      Tracing.emit(
        .implementationSet(
          self, old: expected, new: implementation, by: SourceLocation(fileID: fileID, line: line)))
    }
    return swapped
  }

  /// Swaps this method's implementation with `other`'s; selectors and encodings stay put.
  ///
  /// Every class that inherits either method sees the swap. The corresponding objc4 function is
  /// `method_exchangeImplementations`.
  ///
  /// - Throws: ``ObjCRuntimeError/exchangeWithItself(_:)`` when `other` is this method,
  ///   ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when the encodings differ, and
  ///   ``ObjCRuntimeError/incompatibleImplementation(_:implementationFor:receivers:)`` when
  ///   either implementation was declared for a Swift class the other method's receivers are
  ///   not; nothing changes.
  public func exchangeImplementation(
    with other: Method, fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) {
    guard other !== self else {
      throw .exchangeWithItself(MethodReference(owner: owner, selector: selector))
    }
    guard MethodTableEdits.sameSignature(typeEncoding, other.typeEncoding) else {
      throw .signatureMismatch(
        MethodReference(owner: other.owner, selector: other.selector),
        method: other.typeEncoding, call: typeEncoding)
    }
    try exchangeCheckingReceivers(with: other, fileID: fileID, line: line)
  }

  /// The exchange as objc4 does it (no check of the encodings), but never one that would give an
  /// implementation receivers of a Swift class it was not written for.
  internal func exchangeCheckingReceivers(with other: Method, fileID: String, line: Int)
    throws(ObjCRuntimeError)
  {
    guard other !== self else { return }
    let failure = Runtime.state.withLock { _ -> ObjCRuntimeError? in
      let mine = impWord.load(ordering: .acquiring)
      let theirs = other.impWord.load(ordering: .acquiring)
      // Checked under the lock, against the IMPs being swapped, so that no change in between
      // can slip an unchecked IMP through.
      do throws(ObjCRuntimeError) {
        if let imp = UnsafeRawPointer(bitPattern: theirs) {
          try IMPReceivers.check(IMP(rawValue: imp), for: self)
        }
        if let imp = UnsafeRawPointer(bitPattern: mine) {
          try IMPReceivers.check(IMP(rawValue: imp), for: other)
        }
      } catch {
        return error
      }
      impWord.store(theirs, ordering: .releasing)
      other.impWord.store(mine, ordering: .releasing)
      noteDeallocChange()
      other.noteDeallocChange()
      return nil
    }
    if let failure { throw failure }
    Tracing.emit(
      .implementationsExchanged(self, other, by: SourceLocation(fileID: fileID, line: line)))
  }
}

extension ObjCObject {
  /// Changes the object's runtime class and returns the old one.
  ///
  /// The object's Swift type does not change, so the new class must describe an object with the
  /// same storage: its ``Class/storageType`` must be the object's Swift type or a superclass of
  /// it. Caches are per class, so nothing is flushed. The corresponding objc4 function is
  /// `object_setClass`.
  ///
  /// - Throws: ``ObjCRuntimeError/incompatibleClass(objectType:targetClass:storageClass:)`` when
  ///   the class needs storage the object lacks, ``ObjCRuntimeError/classDisposed(className:)``
  ///   for a class disposed of; the object is unchanged.
  @discardableResult
  public func setClass(_ cls: Class, fileID: String = #fileID, line: Int = #line)
    throws(ObjCRuntimeError) -> Class
  {
    let old = try setClassUnsettled(cls, fileID: fileID, line: line)
    // Back on an isa-swizzler's layer that nobody needs any more (a hook library taking its
    // class off an object whose last observer went meanwhile): on to the class below.
    if cls.isIsaLayer { IsaLayers.arrived(self, at: cls) }
    return old
  }

  /// ``setClass(_:fileID:line:)`` without telling the layer's owner (``IsaLayers``): what an
  /// isa-swizzler uses to put its own layer on, or to take it off under its own lock.
  package func setClassUnsettled(
    _ cls: Class, fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> Class {
    guard isSwiftClass(type(of: self), inheritingFrom: cls.storageType) else {
      throw .incompatibleClass(
        objectType: _typeName(type(of: self), qualified: false), targetClass: cls.name,
        storageClass: _typeName(cls.storageType, qualified: false))
    }
    if cls.isRuntimeMade {
      // Counted first, then the flag read: see Class.isDisposed.
      cls.liveInstances.add(1, ordering: .sequentiallyConsistent)
      guard !cls.isDisposed.load(ordering: .sequentiallyConsistent) else {
        cls.liveInstances.subtract(1, ordering: .sequentiallyConsistent)
        throw .classDisposed(className: cls.name)
      }
    }
    let old = isa.takeUnretainedValue()
    setIsa(cls)
    if old.isRuntimeMade { old.liveInstances.subtract(1, ordering: .releasing) }
    Tracing.emit(
      .classSet(
        object: description, from: old, to: cls, by: SourceLocation(fileID: fileID, line: line)))
    return old
  }
}
