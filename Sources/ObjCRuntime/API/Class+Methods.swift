// The typed layer over method lists: adding, replacing, looking up and swizzling methods.

extension Class {
  /// The class named `name`.
  ///
  /// - Throws: ``ObjCRuntimeError/classNotFound(_:)`` when no class has that name (a Swift class
  ///   gets its name the first time it is used). The corresponding objc4 function is
  ///   `objc_getClass`, which answers nil instead.
  public static func named(_ name: String) throws(ObjCRuntimeError) -> Class {
    guard let cls = Runtime.state.withLock({ $0.classesByName[name] }) else {
      throw .classNotFound(name)
    }
    return cls
  }

  /// The method a send of `selector` to an instance would find in the method tables: the
  /// receiver's own or the nearest superclass's `Method` (the superclass's very object, not a
  /// copy). The corresponding objc4 function is `class_getInstanceMethod`.
  public func instanceMethod(for selector: Selector) -> Method? {
    Runtime.state.withLock { _ in findMethod(selector, includingEntries: false) }
  }

  /// The class method for `selector`, looked up in the metaclass chain. The corresponding objc4
  /// function is `class_getClassMethod`.
  public func classMethod(for selector: Selector) -> Method? {
    (isMetaClass ? self : metaclass).instanceMethod(for: selector)
  }

  /// The methods the class itself declares or was given, newest first. The corresponding objc4
  /// function is `class_copyMethodList`.
  public var methods: [Method] {
    Runtime.state.withLock { _ in methodList.reversed() }
  }

  /// Whether instances respond to `selector`. The corresponding objc4 function is
  /// `class_respondsToSelector`.
  public func instancesRespond(to selector: Selector) -> Bool {
    guard let method = Runtime.state.withLock({ _ in findMethod(selector, includingEntries: true) })
    else { return false }
    return method.implementation != nil
  }

  /// The method the class's send cache holds for `selector`, or nil when a send of it would miss
  /// and look it up: for tools, and for learning how a cache fills and empties. The cache keeps
  /// the `Method` a lookup found (its owner may be a superclass), and a send reads the method's
  /// current IMP, so this never answers with a stale implementation. objc4's private
  /// `cache_getImp` answers the same question with the cached IMP.
  public func cachedMethod(for selector: Selector) -> Method? {
    sendCache.lookup(selector).map { Unmanaged<Method>.fromOpaque($0).takeUnretainedValue() }
  }

  /// How many slots of the send cache a send of `selector` reads before it hits or misses (1 when
  /// the first slot answers): for the benchmark and the tests that hold the cache's hash to short
  /// probe runs on classes of thousands of methods.
  package func cacheProbeLength(for selector: Selector) -> Int {
    sendCache.probeLength(selector)
  }

  /// How many method caches the process flushed so far, any class's: a test that finds an
  /// entry gone tells a flush (this changed) from an entry the cache lost (it did not).
  package static var cacheFlushCount: Int { MethodCache.flushes.load(ordering: .relaxed) }

  /// Empties the method caches of this class and of every class below it, as objc4's
  /// `_objc_flush_caches` does: the next send of each selector looks it up in the tables again.
  /// Nothing changes but the cost of those sends; the benchmark measures the first send after a
  /// flush with it.
  package func flushCaches() {
    Runtime.state.withLock { _ in _ = flushCachesOfSubtree() }
  }

  /// The IMP the method tables hold for `selector`, or ``IMP/forward`` when there is none.
  ///
  /// A Swift entry point in front of the table is not returned: calling the result from a
  /// replacement IMP must not re-enter a Swift override. The corresponding objc4 function is
  /// `class_getMethodImplementation`.
  public func methodImplementation(for selector: Selector) -> IMP {
    // The cache first, without the lock, as a send does: hooks ask this on every call.
    if let hit = tableCache.lookup(selector) {
      let word = Unmanaged<Method>.fromOpaque(hit)._withUnsafeGuaranteedRef {
        $0.impWord.load(ordering: .acquiring)
      }
      if let imp = IMP(word: word) { return imp }
    }
    return Dispatch.lookUp(self, selector, .table)?.implementation ?? .forward
  }

  /// Adds a method for `selector` to this class, overriding an inherited one if there is one.
  ///
  /// - Parameters:
  ///   - selector: The method's selector.
  ///   - implementation: The IMP; nil adds a method without implementation, which hides an
  ///     inherited one and sends every call into forwarding (objc4 accepts this too).
  ///   - types: The method's type encoding. When `implementation` was made from a Swift function,
  ///     its signature must agree.
  ///   - fileID: Where the call is, for the trace and the hook map (the default is the caller's).
  ///   - line: The line of the call.
  /// - Returns: The new method.
  /// - Throws: ``ObjCRuntimeError/methodAlreadyExists(_:)`` when the class itself has the
  ///   selector (objc4's `class_addMethod` returns NO), and errors for a bad selector, a malformed
  ///   encoding or an encoding that does not match the IMP. Nothing changes on error.
  @discardableResult
  public func addMethod(
    _ selector: Selector, implementation: IMP?, types: String,
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> Method {
    let signature = try MethodTableEdits.validate(selector, implementation, types, self)
    let outcome = Runtime.state.withLock { _ -> Result<(Method, [Class]), ObjCRuntimeError> in
      if methodTable[selector] != nil {
        return .failure(.methodAlreadyExists(MethodReference(owner: self, selector: selector)))
      }
      let method = Method(
        selector: selector, signature: signature, imp: implementation, owner: self)
      appendMethod(method)
      return .success((method, flushCachesOfSubtree()))
    }
    let (method, flushed) = try outcome.get()
    // Adding a declared IMP to another class says its code works for that class's instances
    // too: later exchanges and sets accept them.
    if let implementation { IMPReceivers.widen(implementation, to: storageType) }
    let location = SourceLocation(fileID: fileID, line: line)
    Tracing.emit(.methodAdded(method, by: location))
    MethodTableEdits.reportFlushes(flushed, reason: "added \(method)")
    return method
  }

  /// Replaces the implementation of this class's own method for `selector`, or adds the method
  /// when the class only inherits it (or lacks it). Superclasses are never changed.
  ///
  /// - Returns: The previous implementation when the class had its own method (`types` is then
  ///   ignored, as in objc4), nil when the method was added.
  /// - Throws: Errors for a bad selector, and on the add path for a malformed encoding or one
  ///   that does not match the IMP. The corresponding objc4 function is `class_replaceMethod`.
  @discardableResult
  public func replaceMethod(
    _ selector: Selector, implementation: IMP, types: String,
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> IMP? {
    if let own = Runtime.state.withLock({ _ in methodTable[selector] }) {
      try MethodTableEdits.checkImplementation(
        implementation, against: own.typeEncoding, self, selector)
      return try own.setImplementation(implementation, fileID: fileID, line: line)
    }
    do {
      try addMethod(
        selector, implementation: implementation, types: types, fileID: fileID, line: line)
      return nil
    } catch .methodAlreadyExists {
      // Another thread added the method between the check and the add: replace it instead.
      return try replaceMethod(
        selector, implementation: implementation, types: types, fileID: fileID, line: line)
    }
  }

  /// Exchanges the implementations of `first` and `second`, after checking that both belong to
  /// this class or its superclasses.
  ///
  /// - Throws: ``ObjCRuntimeError/methodNotInClass(_:className:)`` for a method from elsewhere,
  ///   ``ObjCRuntimeError/exchangeWithItself(_:)`` when both are the same method, and
  ///   ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when their encodings differ (the
  ///   swapped IMPs would be called with the wrong types).
  public func exchangeImplementations(
    _ first: Method, _ second: Method, fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) {
    for method in [first, second] where !inherits(from: method.owner) {
      throw .methodNotInClass(
        MethodReference(owner: method.owner, selector: method.selector), className: name)
    }
    try first.exchangeImplementation(with: second, fileID: fileID, line: line)
  }

  /// Swizzles an instance method with the safe pattern: `original` now runs `replacement`'s
  /// implementation and `replacement` runs the original one, in this class only.
  ///
  /// When the class only inherits `original`, the pattern first adds an override, so the
  /// superclass and its other subclasses are untouched; the naive
  /// `method_exchangeImplementations` would swap the superclass's own method instead.
  ///
  /// - Throws: ``ObjCRuntimeError/methodNotFound(_:)`` when either selector has no method, and
  ///   ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when their encodings differ.
  public func swizzleInstanceMethod(
    _ original: Selector, with replacement: Selector, fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) {
    guard let originalMethod = instanceMethod(for: original) else {
      throw .methodNotFound(MethodReference(owner: self, selector: original))
    }
    guard let replacementMethod = instanceMethod(for: replacement) else {
      throw .methodNotFound(MethodReference(owner: self, selector: replacement))
    }
    guard
      MethodTableEdits.sameSignature(originalMethod.typeEncoding, replacementMethod.typeEncoding)
    else {
      throw .signatureMismatch(
        MethodReference(owner: self, selector: replacement),
        method: replacementMethod.typeEncoding, call: originalMethod.typeEncoding)
    }
    let replacementIMP = replacementMethod.implementation
    do {
      try addMethod(
        original, implementation: replacementIMP, types: originalMethod.typeEncoding,
        fileID: fileID, line: line)
      if let originalIMP = originalMethod.implementation {
        try replaceMethod(
          replacement, implementation: originalIMP, types: replacementMethod.typeEncoding,
          fileID: fileID, line: line)
      }
    } catch .methodAlreadyExists {
      try originalMethod.exchangeImplementation(with: replacementMethod, fileID: fileID, line: line)
    }
  }
}

/// Checks shared by the method-table edits.
internal enum MethodTableEdits {
  static func validate(
    _ selector: Selector, _ implementation: IMP?, _ types: String, _ cls: Class
  ) throws(ObjCRuntimeError) -> ParsedSignature {
    if let problem = selector.problem {
      throw .invalidSelectorName(selector.name, reason: problem)
    }
    let signature = try ParsedSignature.of(types)
    guard signature.encoding.argumentTypes.count >= 2 else {
      throw .malformedTypeEncoding(
        types, position: types.utf8.count, expected: "the self and _cmd arguments (\"@:\")")
    }
    if let implementation {
      try checkImplementation(implementation, against: types, cls, selector)
    }
    return signature
  }

  /// Refuses an IMP whose declared Swift signature disagrees with `types`.
  static func checkImplementation(
    _ implementation: IMP, against types: String, _ cls: Class, _ selector: Selector
  ) throws(ObjCRuntimeError) {
    guard let declared = implementation.declaredTypeEncoding,
      !sameSignature(declared, types)
    else { return }
    throw .implementationMismatch(
      MethodReference(owner: cls, selector: selector), encoding: types, implementation: declared)
  }

  /// Whether two encodings describe the same call: the same number of arguments, each passed
  /// the same way.
  static func sameSignature(_ first: String, _ second: String) -> Bool {
    if first == second { return true }
    guard let a = try? ParsedSignature.of(first).encoding,
      let b = try? ParsedSignature.of(second).encoding,
      a.argumentTypes.count == b.argumentTypes.count
    else { return false }
    for (left, right) in zip([a.returnType] + a.argumentTypes, [b.returnType] + b.argumentTypes) {
      let leftCode = SignatureCode.code(of: left)
      let rightCode = SignatureCode.code(of: right)
      if leftCode == nil && rightCode == nil {
        if strippingQualifiers(left) != strippingQualifiers(right) { return false }
      } else if leftCode != rightCode {
        return false
      }
    }
    return true
  }

  private static func strippingQualifiers(_ type: String) -> Substring {
    type.drop { "rnNoORV".contains($0) }
  }

  static func reportFlushes(_ classes: [Class], reason: @autoclosure () -> String) {
    for cls in classes {
      Tracing.emit(.cacheFlushed(cls, reason: reason()))
    }
  }
}
