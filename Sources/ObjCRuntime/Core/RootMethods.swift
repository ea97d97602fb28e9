// The methods of the root class, ObjCObject, as they sit in its method list.

/// The root class's method list: what every object answers.
internal enum RootMethods {
  static let classSelector: Selector = "class"
  static let isEqualSelector: Selector = "isEqual:"
  static let hashSelector: Selector = "hash"
  static let initializeSelector: Selector = "initialize"

  /// The root declaration, built once: every Swift subclass that does not declare methods of its
  /// own inherits `objcDeclaration` and so asks for it when it is realized, and realizing every
  /// class of an image (the class list) asks for it once per such class.
  // nonisolated(unsafe): written once by Swift's lazy initialization of a global (swift_once),
  // then only read; ObjCClassDeclaration is an immutable value whose members are immutable too.
  nonisolated(unsafe) static let declaration: ObjCClassDeclaration = makeDeclaration()

  private static func makeDeclaration() -> ObjCClassDeclaration {
    ObjCClassDeclaration(ObjCObject.self) {
      ObjCMethodDeclaration("class", instanceClass)
      ObjCMethodDeclaration("self", selfIMP)
      ObjCMethodDeclaration("dealloc", deallocation)
      ObjCMethodDeclaration("isEqual:", isEqual, swiftEntry: isEqualEntry)
      ObjCMethodDeclaration("hash", hash, swiftEntry: hashEntry)
      ObjCMethodDeclaration("respondsToSelector:", respondsToSelector)
      ObjCMethodDeclaration("isKindOfClass:", isKindOfClass)
      ObjCMethodDeclaration("isMemberOfClass:", isMemberOfClass)
      ObjCMethodDeclaration("performSelector:", performSelector)
      ObjCMethodDeclaration("performSelector:withObject:", performSelectorWithObject)
      ObjCMethodDeclaration(
        "forwardingTargetForSelector:", forwardingTarget, swiftEntry: forwardingTargetEntry)
      ObjCMethodDeclaration(
        "methodSignatureForSelector:", methodSignature, swiftEntry: methodSignatureEntry)
      ObjCMethodDeclaration(
        "forwardInvocation:", forwardInvocation, swiftEntry: forwardInvocationEntry)
      ObjCMethodDeclaration.classMethod("class", classClass)
      ObjCMethodDeclaration.classMethod("initialize", classInitialize)
      ObjCMethodDeclaration.classMethod("resolveInstanceMethod:", resolveInstanceMethod)
      ObjCMethodDeclaration.classMethod("resolveClassMethod:", resolveClassMethod)
    }
  }

  static let deallocSelector: Selector = "dealloc"
  /// The root's `-dealloc`: nothing; Swift's deinit does the work. It is here so that `dealloc`
  /// can be hooked or swizzled, and is sent from deinit once someone did.
  static let deallocation: @convention(c) (id, SEL) -> Void = { _, _ in }
  static let deallocIMP = IMP(rawValue: unsafeBitCast(deallocation, to: UnsafeRawPointer.self))

  static let forwardingTargetSelector: Selector = "forwardingTargetForSelector:"
  static let methodSignatureSelector: Selector = "methodSignatureForSelector:"
  static let forwardInvocationSelector: Selector = "forwardInvocation:"

  /// `+resolveInstanceMethod:` asks the Swift class, so that `override class func` works.
  /// The root's `+initialize`: the Swift class's `initialize()` (a class made at run time runs
  /// its nearest Swift ancestor's).
  static let classInitialize: @convention(c) (id, SEL) -> Void = { me, _ in
    me.takeUnretainedObject(as: Class.self)?.storageType.initialize()
  }

  static let resolveInstanceMethod: @convention(c) (id, SEL, SEL) -> Bool = { me, _, selector in
    guard let cls = me.takeUnretainedObject(as: Class.self) else { return false }
    return cls.storageType.resolveInstanceMethod(Selector(selector))
  }

  static let resolveClassMethod: @convention(c) (id, SEL, SEL) -> Bool = { me, _, selector in
    guard let cls = me.takeUnretainedObject(as: Class.self) else { return false }
    return cls.storageType.resolveClassMethod(Selector(selector))
  }

  /// The root's `-forwardingTargetForSelector:`: no other target.
  static let forwardingTarget: @convention(c) (id, SEL, SEL) -> id? = { _, _, _ in nil }

  static let forwardingTargetEntry: @convention(c) (id, SEL, SEL) -> id? = { me, _, selector in
    me.takeUnretainedObject().forwardingTarget(for: Selector(selector))?.passRetained()
  }

  /// The root's `-methodSignatureForSelector:`: the signature of the method the class has.
  static let methodSignature: @convention(c) (id, SEL, SEL) -> id? = { me, _, selector in
    let cls = me.takeUnretainedObject().isa.takeUnretainedValue()
    return cls.instanceMethod(for: Selector(selector)).map { MethodSignature($0).passRetained() }
  }

  static let methodSignatureEntry: @convention(c) (id, SEL, SEL) -> id? = { me, _, selector in
    me.takeUnretainedObject().methodSignature(for: Selector(selector))?.passRetained()
  }

  /// The root's `-forwardInvocation:` does not answer: the runtime then calls
  /// `doesNotRecognizeSelector(_:)`, as objc4's NSObject does from its own.
  static let forwardInvocation: @convention(c) (id, SEL, id?) -> Void = { _, _, invocation in
    invocation?.takeUnretainedObject(as: Invocation.self)?.markUnanswered()
  }

  static let forwardInvocationEntry: @convention(c) (id, SEL, id?) -> Void = { me, _, invocation in
    guard let invocation = invocation?.takeUnretainedObject(as: Invocation.self) else { return }
    me.takeUnretainedObject().forwardInvocation(invocation)
  }

  /// `-class`: the isa, or the class below it when it is an isa layer (`Class.isIsaLayer`).
  /// Objects are returned retained (+1).
  static let instanceClass: @convention(c) (id, SEL) -> id = { me, _ in
    // Never an isa layer: a layer answers `-class` itself, but a send that found this root
    // method just before an observer or a hook put its layer on would read the layer here.
    me.takeUnretainedObject().isa.takeUnretainedValue().shownClass(answer: nil).passRetained()
  }

  /// `+class`: the class itself, not its metaclass.
  static let classClass: @convention(c) (id, SEL) -> id = { me, _ in
    me.takeUnretainedObject().passRetained()
  }

  static let selfIMP: @convention(c) (id, SEL) -> id = { me, _ in
    me.takeUnretainedObject().passRetained()
  }

  static let isEqual: @convention(c) (id, SEL, id?) -> Bool = { me, _, other in
    UnsafeRawPointer(me) == other.map { UnsafeRawPointer($0) }
  }

  static let isEqualEntry: @convention(c) (id, SEL, id?) -> Bool = { me, _, other in
    me.takeUnretainedObject().isEqual(other?.takeUnretainedObject())
  }

  static let hash: @convention(c) (id, SEL) -> UInt = { me, _ in
    UInt(bitPattern: UnsafeRawPointer(me))
  }

  static let hashEntry: @convention(c) (id, SEL) -> UInt = { me, _ in
    UInt(bitPattern: me.takeUnretainedObject().hash)
  }

  static let respondsToSelector: @convention(c) (id, SEL, SEL) -> Bool = { me, _, selector in
    me.takeUnretainedObject().responds(to: Selector(selector))
  }

  static let isKindOfClass: @convention(c) (id, SEL, id?) -> Bool = { me, _, cls in
    guard let cls = cls?.takeUnretainedObject(as: Class.self) else { return false }
    return me.takeUnretainedObject().isKind(of: cls)
  }

  static let isMemberOfClass: @convention(c) (id, SEL, id?) -> Bool = { me, _, cls in
    guard let cls = cls?.takeUnretainedObject(as: Class.self) else { return false }
    return me.takeUnretainedObject().isMember(of: cls)
  }

  /// `-performSelector:`; a failure (no such method) returns nil, as a C caller cannot catch.
  static let performSelector: @convention(c) (id, SEL, SEL) -> id? = { me, _, selector in
    (try? me.takeUnretainedObject().perform(Selector(selector)))?.passRetained()
  }

  static let performSelectorWithObject: @convention(c) (id, SEL, SEL, id?) -> id? = {
    me, _, selector, object in
    (try? me.takeUnretainedObject().perform(
      Selector(selector), with: object?.takeUnretainedObject()))?
      .passRetained()
  }
}
