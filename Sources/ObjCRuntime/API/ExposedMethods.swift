// What `@objc` does for a method declared in a Swift extension on Apple platforms: put it in the
// class's method table under a selector, so that `class_getInstanceMethod` finds it, an exchange
// can swap it and a send reaches it. Linux Swift has no `@objc`; one line does it here.

extension ObjCObject {
  /// Adds a Swift method of the class to its method table under `selector`: what `@objc` on a
  /// method of an extension does on Apple platforms.
  ///
  /// ```swift
  /// extension UINavigationController {
  ///   func em_popToRoot(animated: Bool) -> ObjCObject? { ... }   // `@objc` on iOS
  /// }
  /// try UINavigationController.exposeMethod(
  ///   "em_popToRootViewControllerAnimated:", UINavigationController.em_popToRoot)
  /// ```
  ///
  /// The method's encoding comes from its Swift types. Call it once, before the code that looks
  /// the method up (where the seeds exchange, in their `static let`). A send to the selector
  /// calls the Swift method; after an exchange, the selector runs what was exchanged in, and a
  /// Swift call of the method still runs the Swift body (a Swift call is not a send: where iOS
  /// code calls the swapped method to reach the original, send the selector instead).
  ///
  /// - Throws: ``ObjCRuntimeError/methodAlreadyExists(_:)`` when the class itself already has
  ///   `selector` (exposing twice, or a selector of the class's own), and the errors of
  ///   ``Class/addMethod(_:implementation:types:fileID:line:)`` for a bad selector. Nothing is
  ///   added then.
  @discardableResult
  public static func exposeMethod<R: ObjCScalar>(
    _ selector: Selector, _ method: @escaping (Self) -> () -> R,
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> Method {
    try expose(
      selector, imp_implementationWithBlock { (me: Self) in method(me)() },
      fileID: fileID, line: line)
  }

  /// Adds a Swift method that returns nothing, as the form without arguments does.
  @discardableResult
  public static func exposeMethod(
    _ selector: Selector, _ method: @escaping (Self) -> () -> Void,
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> Method {
    try expose(
      selector, imp_implementationWithBlock { (me: Self) in method(me)() },
      fileID: fileID, line: line)
  }

  /// Adds a Swift method of one argument, as the form without arguments does.
  @discardableResult
  public static func exposeMethod<A0: ObjCScalar, R: ObjCScalar>(
    _ selector: Selector, _ method: @escaping (Self) -> (A0) -> R,
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> Method {
    try expose(
      selector, imp_implementationWithBlock { (me: Self, a0: A0) in method(me)(a0) },
      fileID: fileID, line: line)
  }

  /// Adds a Swift method of one argument that returns nothing, as the form
  /// without arguments does.
  @discardableResult
  public static func exposeMethod<A0: ObjCScalar>(
    _ selector: Selector, _ method: @escaping (Self) -> (A0) -> Void,
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> Method {
    try expose(
      selector, imp_implementationWithBlock { (me: Self, a0: A0) in method(me)(a0) },
      fileID: fileID, line: line)
  }

  /// Adds a Swift method of two arguments, as the form without arguments does.
  @discardableResult
  public static func exposeMethod<A0: ObjCScalar, A1: ObjCScalar, R: ObjCScalar>(
    _ selector: Selector, _ method: @escaping (Self) -> (A0, A1) -> R,
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> Method {
    try expose(
      selector,
      imp_implementationWithBlock { (me: Self, a0: A0, a1: A1) in method(me)(a0, a1) },
      fileID: fileID, line: line)
  }

  /// Adds a Swift method of two arguments that returns nothing, as the form
  /// without arguments does.
  @discardableResult
  public static func exposeMethod<A0: ObjCScalar, A1: ObjCScalar>(
    _ selector: Selector, _ method: @escaping (Self) -> (A0, A1) -> Void,
    fileID: String = #fileID, line: Int = #line
  ) throws(ObjCRuntimeError) -> Method {
    try expose(
      selector,
      imp_implementationWithBlock { (me: Self, a0: A0, a1: A1) in method(me)(a0, a1) },
      fileID: fileID, line: line)
  }

  /// Adds `imp` under `selector` with the encoding its closure implies; frees it when refused.
  private static func expose(
    _ selector: Selector, _ imp: IMP, fileID: String, line: Int
  ) throws(ObjCRuntimeError) -> Method {
    guard let types = IMPSignatures.shared.encoding(of: imp) else {
      imp_removeBlock(imp)
      throw .invalidImplementation(
        "-[\(runtimeClass.name) \(selector.name)]: the closure has no encoding")
    }
    do {
      return try runtimeClass.addMethod(
        selector, implementation: imp, types: types, fileID: fileID, line: line)
    } catch {
      imp_removeBlock(imp)
      throw error
    }
  }
}
