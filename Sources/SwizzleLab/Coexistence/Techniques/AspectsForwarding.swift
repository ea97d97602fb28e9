// Aspects' forwarding hooks, for every instance of a class (`+aspect_hookSelector:…`), as its
// source does them: `forwardInvocation:` replaced in place (the old one kept as
// `__aspects_forwardInvocation:`), the method's IMP kept as `aspects__setTag:` and replaced with
// `_objc_msgForward`, so every call arrives in the replaced `forwardInvocation:`, which runs the
// hooks registered for the alias of the invocation's selector and invokes the alias. A selector is
// hooked once per class hierarchy. Removing the hook puts the alias's IMP back only if the method
// still forwards, and gives `forwardInvocation:` back when the class's last hook goes.
import ObjCRuntime

extension Technique {
  static let aspects = Technique(
    name: "aspects",
    summary: "Aspects: the IMP set to _objc_msgForward and forwardInvocation: replaced",
    isPerObject: false
  ) { site in
    try AspectsModel.hook(site)
  }
}

/// The state Aspects keeps in a process: which selectors each class has hooked (its
/// `AspectTracker`s) and the hooks (its containers, by class and alias selector).
private enum AspectsModel {
  static let forwardInvocation: Selector = "forwardInvocation:"
  static let keptForwardInvocation: Selector = "__aspects_forwardInvocation:"
  /// Class name → the selectors hooked there, each with the label its hook records.
  static let tracked = RuntimeLock<[String: [Selector: String]]>([:])

  static func alias(_ selector: Selector) -> Selector { Selector("aspects__" + selector.name) }

  static func hook(_ site: CoexistenceSite) throws -> TechniqueInstall {
    try track(site.cls, site.selector, label: site.label)
    swizzleForwardInvocation(site.cls)
    let method = class_getInstanceMethod(site.cls, site.selector)
    let imp = method_getImplementation(method)
    if imp != IMP.forward {
      let alias = alias(site.selector)
      if !class_respondsToSelector(site.cls, alias) {
        class_addMethod(site.cls, alias, imp, site.types)
      }
      class_replaceMethod(site.cls, site.selector, .forward, site.types)
    }
    return TechniqueInstall { remove(site) }
  }

  /// `aspect_isSelectorAllowedAndTrack`: refused when a subclass or a superclass hooked it.
  static func track(_ cls: Class, _ selector: Selector, label: String) throws {
    try tracked.withLock { tracked in
      var current: Class? = cls
      while let klass = current {
        if tracked[klass.name]?[selector] != nil, klass !== cls {
          throw TechniqueRefusal(
            description: "Aspects: \(selector) already hooked in \(klass.name). A method can "
              + "only be hooked once per class hierarchy.")
        }
        current = klass.superclass
      }
      for (name, selectors) in tracked where selectors[selector] != nil && name != cls.name {
        if let other = objc_getClass(name), other.inherits(from: cls) {
          throw TechniqueRefusal(
            description: "Aspects: \(selector) already hooked in subclass \(name). A method "
              + "can only be hooked once per class hierarchy.")
        }
      }
      tracked[cls.name, default: [:]][selector] = label
    }
  }

  /// `aspect_swizzleForwardInvocation`.
  static func swizzleForwardInvocation(_ cls: Class) {
    guard method_getImplementation(class_getInstanceMethod(cls, forwardInvocation)) != handler
    else { return }
    if let kept = class_replaceMethod(cls, forwardInvocation, handler, "v@:@") {
      class_addMethod(cls, keptForwardInvocation, kept, "v@:@")
    }
  }

  /// `__ASPECTS_ARE_BEING_CALLED__`.
  static let handler: IMP = {
    let called: @convention(c) (id, SEL, id?) -> Void = { me, _, argument in
      guard let invocation = argument?.takeUnretainedObject(as: Invocation.self) else { return }
      let object = me.takeUnretainedObject()
      let original = invocation.selector
      let alias = alias(original)
      invocation.selector = alias
      if let label = hookLabel(object_getClass(object), original) {
        guard LayerLog.enter(label, original) else { return }
      }
      var klass = object_getClass(object)
      while let current = klass {
        if class_respondsToSelector(current, alias) {
          do { try invocation.invoke() } catch { fatalError("\(error)") }
          return
        }
        klass = current.superclass
      }
      // No alias: the original forwardInvocation:, usually to raise.
      invocation.selector = original
      if class_respondsToSelector(object_getClass(object), keptForwardInvocation) {
        do {
          try objc_msgSend(object, keptForwardInvocation, invocation as ObjCObject?) as Void
        } catch { fatalError("\(error)") }
      } else {
        do { try object.doesNotRecognizeSelector(original) } catch { fatalError("\(error)") }
      }
    }
    // A C function of the declared signature: never refused.
    return try! IMP(called)
  }()

  /// The label of the first hook of `selector` from `cls` up, the container
  /// `aspect_getContainerForClass` finds; nil when there is none.
  static func hookLabel(_ cls: Class?, _ selector: Selector) -> String? {
    tracked.withLock { tracked in
      var current = cls
      while let klass = current {
        if let label = tracked[klass.name]?[selector] { return label }
        current = klass.superclass
      }
      return nil
    }
  }

  /// `aspect_cleanupHookedClassAndSelector`.
  static func remove(_ site: CoexistenceSite) {
    let method = class_getInstanceMethod(site.cls, site.selector)
    if method_getImplementation(method) == IMP.forward {
      let original = method_getImplementation(
        class_getInstanceMethod(site.cls, alias(site.selector)))
      class_replaceMethod(site.cls, site.selector, original, site.types)
    }
    let empty = tracked.withLock { tracked in
      tracked[site.cls.name]?[site.selector] = nil
      return tracked[site.cls.name]?.isEmpty ?? true
    }
    guard empty else { return }
    // `aspect_undoSwizzleForwardInvocation`: the kept one, or the root's (no removeMethod).
    let kept =
      class_getInstanceMethod(site.cls, keptForwardInvocation)
      ?? class_getInstanceMethod(ObjCObject.runtimeClass, forwardInvocation)
    class_replaceMethod(site.cls, forwardInvocation, method_getImplementation(kept), "v@:@")
  }
}
