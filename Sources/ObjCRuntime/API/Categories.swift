// Categories: methods attached to a class after it was made, in front of its own, as objc4's
// loader attaches the categories of an image it loads.

/// One method of a category: its selector, implementation and type encoding.
public struct CategoryMethod: Sendable {
  /// The method's selector.
  public let selector: Selector
  /// Its implementation.
  public let implementation: IMP
  /// Its type encoding, such as `v@:`.
  public let types: String

  /// A method of a category.
  public init(_ selector: Selector, _ implementation: IMP, _ types: String) {
    self.selector = selector
    self.implementation = implementation
    self.types = types
  }
}

extension Class {
  /// Attaches the methods of the category `name` to this class, as objc4's loader attaches a
  /// category of an image it loads: each goes in front of the class's own methods, so a send
  /// finds it first, even for a selector the class (or an earlier category) already has. The
  /// method it shadows stays in the class's list (``methods`` lists both, newest first), but no
  /// send reaches it: of two categories that define one method, the one attached last wins, and
  /// the class's own implementation is lost to sends. Caches below the class are flushed.
  ///
  /// objc4 has no public function for this (its loader calls `attachCategories`); code compiled
  /// from Objective-C categories gets it from the image loader.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidDeclaration(className:reason:)`` when the category
  ///   names one selector twice, and the errors of ``addMethod(_:implementation:types:fileID:line:)``
  ///   for a bad selector, encoding or implementation; nothing is attached then.
  public func attachCategory(
    _ name: String, methods: [CategoryMethod], fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) {
    var seen: Set<Selector> = []
    var signatures: [ParsedSignature] = []
    for method in methods {
      guard seen.insert(method.selector).inserted else {
        throw .invalidDeclaration(
          className: self.name,
          reason: "the category \(name) defines \(method.selector) twice; define it once")
      }
      signatures.append(
        try MethodTableEdits.validate(method.selector, method.implementation, method.types, self))
    }
    guard !methods.isEmpty else { return }
    let (attached, flushed) = Runtime.state.withLock { _ -> ([Method], [Class]) in
      let attached = zip(methods, signatures).map { method, signature in
        Method(
          selector: method.selector, signature: signature, imp: method.implementation,
          owner: self)
      }
      for method in attached { appendMethod(method) }
      return (attached, flushCachesOfSubtree())
    }
    let location = SourceLocation(fileID: fileID, line: line)
    for (method, declared) in zip(attached, methods) {
      IMPReceivers.widen(declared.implementation, to: storageType)
      Tracing.emit(.methodAdded(method, by: location))
    }
    MethodTableEdits.reportFlushes(flushed, reason: "attached the category \(name)")
  }
}
