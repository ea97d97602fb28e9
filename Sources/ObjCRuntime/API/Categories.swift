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
    try attachCategory(name, methods: methods, classMethods: [], fileID: fileID, line: line)
  }

  /// Attaches a category's instance methods to this class and its class methods to the
  /// metaclass, as ``attachCategory(_:methods:fileID:line:)`` does for each, in one step: both
  /// lists are checked first, so that either both are attached or neither is.
  ///
  /// - Throws: as ``attachCategory(_:methods:fileID:line:)``, for either list; nothing is
  ///   attached then.
  public func attachCategory(
    _ name: String, methods: [CategoryMethod], classMethods: [CategoryMethod],
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) {
    let tables = isMetaClass ? [(self, methods)] : [(self, methods), (metaclass, classMethods)]
    var checked: [(Class, [CategoryMethod], [ParsedSignature])] = []
    for (cls, list) in tables where !list.isEmpty {
      var seen: Set<Selector> = []
      var signatures: [ParsedSignature] = []
      for method in list {
        guard seen.insert(method.selector).inserted else {
          throw .invalidDeclaration(
            className: cls.name,
            reason: "the category \(name) defines \(method.selector) twice; define it once")
        }
        signatures.append(
          try MethodTableEdits.validate(method.selector, method.implementation, method.types, cls))
      }
      checked.append((cls, list, signatures))
    }
    guard !checked.isEmpty else { return }
    let (attached, flushed) = Runtime.state.withLock {
      _ -> ([(Method, CategoryMethod, Class)], [Class]) in
      var attached: [(Method, CategoryMethod, Class)] = []
      var flushed: [Class] = []
      for (cls, list, signatures) in checked {
        for (method, signature) in zip(list, signatures) {
          let made = Method(
            selector: method.selector, signature: signature, imp: method.implementation,
            owner: cls)
          cls.appendMethod(made)
          attached.append((made, method, cls))
        }
        flushed += cls.flushCachesOfSubtree()
      }
      return (attached, flushed)
    }
    let location = SourceLocation(fileID: fileID, line: line)
    for (method, declared, cls) in attached {
      IMPReceivers.widen(declared.implementation, to: cls.storageType)
      Tracing.emit(.methodAdded(method, by: location))
    }
    MethodTableEdits.reportFlushes(flushed, reason: "attached the category \(name)")
  }
}
