// Making classes at run time: objc_allocateClassPair and objc_registerClassPair.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CObjCRuntime

extension RuntimeTables {
  /// Whether `name` is taken by a registered class or one under construction.
  func isNameInUse(_ name: String) -> Bool {
    classesByName[name] != nil || constructingNames.contains(name)
  }
}

/// Makes a class and its metaclass at run time, below `superclass` (or as a new root class when
/// nil), and returns the class, under construction; nil when `name` is in use or `superclass` is
/// itself under construction.
///
/// Add methods with `class_addMethod`, then call ``objc_registerClassPair(_:)`` to make the class
/// visible to `objc_getClass`. The class's instances are instances of the nearest Swift ancestor
/// (``Class/storageType``) whose isa points at the new class, typically through `object_setClass`,
/// as KVO does. `extraBytes` is accepted for fidelity and ignored: Swift objects cannot grow. The
/// corresponding objc4 function is `objc_allocateClassPair`.
public func objc_allocateClassPair(_ superclass: Class?, _ name: String, _ extraBytes: Int)
  -> Class?
{
  guard Selector.problem(with: name) == nil else { return nil }
  let root = superclass == nil ? nil : Runtime.rootClass
  return Runtime.state.withLock { tables -> Class? in
    guard !tables.isNameInUse(name) else { return nil }
    if let superclass, tables.constructing.contains(ObjectIdentifier(superclass)) {
      return nil
    }
    let storageType = superclass?.storageType ?? ObjCObject.self
    let cls = Class(
      name: name, superclass: superclass, isMetaClass: false, storageType: storageType)
    let metaclass: Class
    if let superclass {
      metaclass = Class(
        name: name, superclass: superclass.metaclass, isMetaClass: true, storageType: Class.self)
      metaclass.setIsa((root ?? superclass).metaclass)
      superclass.subclasses.append(cls)
      superclass.metaclass.subclasses.append(metaclass)
    } else {
      metaclass = Class(name: name, superclass: cls, isMetaClass: true, storageType: Class.self)
      metaclass.setIsa(metaclass)
      cls.subclasses.append(metaclass)
    }
    cls.setIsa(metaclass)
    tables.constructing.insert(ObjectIdentifier(cls))
    tables.constructingNames.insert(name)
    return cls
  }
}

/// Finishes a class made with ``objc_allocateClassPair(_:_:_:)``: it becomes visible to
/// `objc_getClass` and `objc_getClassList`. Registering a class twice, or one that was not
/// allocated this way, does nothing, as in objc4 (which only logs). The corresponding objc4
/// function is `objc_registerClassPair`.
public func objc_registerClassPair(_ cls: Class?) {
  guard let cls else { return }
  let registered = Runtime.state.withLock { tables -> Bool in
    guard tables.constructing.remove(ObjectIdentifier(cls)) != nil else { return false }
    tables.constructingNames.remove(cls.name)
    tables.classesByName[cls.name] = cls
    tables.classes.append(cls)
    return true
  }
  if registered {
    Tracing.emit(.classRealized(cls))
  } else {
    Diagnostics.warn("objc_registerClassPair: \(cls.name) is not a class under construction")
  }
}
