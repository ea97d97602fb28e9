// Making classes at run time: objc_allocateClassPair and objc_registerClassPair.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

import Synchronization

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
    if let superclass, tables.constructing[ObjectIdentifier(superclass)] != nil {
      return nil
    }
    let storageType = superclass?.storageType ?? ObjCObject.self
    let cls = Class(
      name: name, superclass: superclass, isMetaClass: false, storageType: storageType,
      isRuntimeMade: true)
    let metaclass: Class
    if let superclass {
      metaclass = Class(
        name: name, superclass: superclass.metaclass, isMetaClass: true, storageType: Class.self,
        isRuntimeMade: true)
      metaclass.setIsa((root ?? superclass).metaclass)
      superclass.subclasses.append(cls)
      superclass.metaclass.subclasses.append(metaclass)
    } else {
      metaclass = Class(
        name: name, superclass: cls, isMetaClass: true, storageType: Class.self,
        isRuntimeMade: true)
      metaclass.setIsa(metaclass)
      cls.subclasses.append(metaclass)
    }
    cls.setIsa(metaclass)
    cls.retainedMetaclass = metaclass
    tables.constructing[ObjectIdentifier(cls)] = cls
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
    guard tables.constructing.removeValue(forKey: ObjectIdentifier(cls)) != nil else {
      return false
    }
    tables.constructingNames.remove(cls.name)
    tables.classesByName[cls.name] = cls
    tables.classes.append(cls)
    return true
  }
  if registered {
    InternalChecks.checkShape(of: cls)
    Tracing.emit(.classRealized(cls))
  } else {
    Diagnostics.warn(
      "objc_registerClassPair: \(cls.name) is not a class under construction", kind: .refusedCall)
  }
}

extension Class {
  /// Removes a class made at run time, and its metaclass: it disappears from `objc_getClass` and
  /// the class list, loses its methods and ivars, and the associations on the class and metaclass
  /// are released. Its name can be used again.
  ///
  /// objc4 leaves disposing of a class in use undefined; we refuse. References to the `Class`,
  /// or to one of its `Method`s, held elsewhere stay valid (a method holds its class); once none
  /// is left, the class pair is freed, so making and disposing of classes in a loop keeps memory
  /// bounded.
  ///
  /// - Throws: ``ObjCRuntimeError/cannotDispose(className:reason:)`` for a metaclass, a class not
  ///   made by `objc_allocateClassPair`, a class with subclasses, or one with live instances;
  ///   ``ObjCRuntimeError/classDisposed(className:)`` for a class disposed of already.
  public func dispose(fileID: String = #fileID, line: Int = #line) throws(ObjCRuntimeError) {
    func refuse(_ reason: String) -> ObjCRuntimeError {
      .cannotDispose(className: name, reason: reason)
    }
    guard !isMetaClass else { throw refuse("it is a metaclass; dispose of its class") }
    guard isRuntimeMade else {
      throw refuse("only classes made by objc_allocateClassPair can be disposed of")
    }
    let failure = Runtime.state.withLock { tables -> ObjCRuntimeError? in
      guard !isDisposed.load(ordering: .sequentiallyConsistent) else {
        return .classDisposed(className: name)
      }
      if let subclass = subclasses.first(where: { $0 !== metaclass }) {
        return refuse("\(subclass.name) still inherits from it; dispose of the subclasses first")
      }
      // The flag first, then the count read: see Class.isDisposed.
      isDisposed.store(true, ordering: .sequentiallyConsistent)
      let live = liveInstances.load(ordering: .sequentiallyConsistent)
      guard live == 0 else {
        isDisposed.store(false, ordering: .sequentiallyConsistent)
        return refuse(
          "\(live) object(s) still have it as their class; set them another class first")
      }
      if tables.classesByName[name] === self { tables.classesByName[name] = nil }
      tables.classes.removeAll { $0 === self }
      if tables.constructing.removeValue(forKey: ObjectIdentifier(self)) != nil {
        tables.constructingNames.remove(name)
      }
      if let superclass {
        superclass.subclasses.removeAll { $0 === self }
        superclass.metaclass.subclasses.removeAll { $0 === metaclass }
      }
      // Break the cycles between the classes and their methods and ivars (each holds its owner),
      // so that the class pair is freed once nobody holds it or one of its methods, and empty
      // the caches, whose entries hold the methods unretained.
      for cls in [self, metaclass] {
        cls.methodTable.removeAll()
        cls.methodList.removeAll()
        cls.swiftEntries.removeAll()
        cls.ivarList.removeAll()
        cls.sendCache.flush()
        cls.tableCache.flush()
      }
      return nil
    }
    if let failure { throw failure }
    Associations.removeAll(self)
    Associations.removeAll(metaclass)
    Tracing.emit(.classDisposed(self, by: SourceLocation(fileID: fileID, line: line)))
  }
}

extension Class {
  /// A name for a subclass made at run time: `prefix` and this class's name, with every
  /// character a class name cannot have made `_` (a private Swift class's name holds
  /// `(unknown context at $...)`). How key-value observing names `NSKVONotifying_Thermostat` and
  /// the hook framework its per-object classes.
  public func subclassName(prefix: String) -> String {
    prefix + String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
  }
}

/// Removes a class made by ``objc_allocateClassPair(_:_:_:)``; a class in use (with instances or
/// subclasses) is refused with a warning and left alone (``Class/dispose(fileID:line:)`` throws
/// the reason). The corresponding objc4 function is `objc_disposeClassPair`.
public func objc_disposeClassPair(_ cls: Class?, fileID: String = #fileID, line: Int = #line) {
  guard let cls else { return }
  do {
    try cls.dispose(fileID: fileID, line: line)
  } catch {
    Diagnostics.warn("objc_disposeClassPair", refused: error)
  }
}
