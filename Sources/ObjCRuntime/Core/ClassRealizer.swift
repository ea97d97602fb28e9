// Making the runtime class of a Swift type on first use, with its metaclass and declared methods,
// and realizing every class of the loaded images when the class list is asked for.
import Synchronization

/// Builds the runtime class of a Swift subclass of `ObjCObject` the first time it is needed.
///
/// The superclass chain is realized first, so a class's superclass is always the runtime class of
/// its Swift superclass. The declaration is read outside the runtime lock (it is user code and
/// may itself use the runtime), then the class and its metaclass are built and published under
/// the lock; if two threads realize the same type at once, the first to publish wins and the
/// other's work is dropped.
internal enum ClassRealizer {
  /// Realized classes by Swift type metadata, read without a lock: every object's init looks its
  /// class up here. Written under the runtime lock, never emptied (classes live as long as the
  /// process).
  private static let realized = AddressMap()

  /// The address of `type`'s runtime class, realizing it on first use: what `ObjCObject.init`
  /// stores in the isa word, without the retain and release a `Class` reference would cost.
  @inline(__always)
  static func realizedAddress(of type: ObjCObject.Type) -> UnsafeRawPointer {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    if let hit = realized.lookup(metadata) { return hit }
    return UnsafeRawPointer(Unmanaged.passUnretained(realize(type)).toOpaque())
  }

  static func realize(_ type: ObjCObject.Type) -> Class {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    if let hit = realized.lookup(metadata) {
      return Unmanaged<Class>.fromOpaque(hit).takeUnretainedValue()
    }
    let key = ObjectIdentifier(type)
    if let known = Runtime.state.withLock({ tables -> Class? in
      guard let known = tables.classesBySwiftType[key] else { return nil }
      realized.insert(metadata, UnsafeRawPointer(Unmanaged.passUnretained(known).toOpaque()))
      return known
    }) {
      return known
    }
    if type == Class.self {
      return realize(ObjCObject.self).metaclass
    }
    let superclass = superclassType(of: type).map { realize($0) }
    let members = declaredMembers(of: type)
    let result = Runtime.state.withLock { tables -> (Class, isNew: Bool) in
      if let known = tables.classesBySwiftType[key] {
        return (known, false)
      }
      let cls = build(type, superclass: superclass, members: members, tables: &tables)
      // Recorded before the class is published: a thread that finds it realized finds its
      // problems recorded too (they are printed below, outside the lock).
      DeclarationProblems.record(members.problems)
      realized.insert(
        unsafeBitCast(type, to: UnsafeRawPointer.self),
        UnsafeRawPointer(Unmanaged.passUnretained(cls).toOpaque()))
      return (cls, true)
    }
    if result.isNew {
      InternalChecks.checkShape(of: result.0)
      for problem in members.problems {
        Diagnostics.warn("\(problem)", kind: .declaration)
      }
      Tracing.emit(.classRealized(result.0))
    }
    return result.0
  }

  // MARK: Every class of every loaded image

  /// The load generation (``SwiftImages/loadGeneration``) the class list was last completed
  /// for; `UInt64.max` before the first scan.
  private static let listedGeneration = Atomic<UInt64>(.max)
  /// Serializes scans, and holds the images whose classes were realized.
  private static let scan = RuntimeLock<Set<UInt>>([])
  /// Set while this thread scans: a declaration read during the scan (user code) that asks for
  /// the class list must not start a second scan.
  @TaskLocal private static var isScanning = false

  /// Realizes every ``ObjCObject`` subclass of every application image not realized yet, as
  /// objc4 realizes every class of an image when asked for the class list. Cheap when no image
  /// was loaded since the last call: one read of the load generation.
  ///
  /// Nothing is realized inside the runtime lock but the publication of each class; a class's
  /// declaration (user code) runs outside it, as on first use.
  static func realizeLoadedClasses() {
    let generation = SwiftImages.loadGeneration
    guard listedGeneration.load(ordering: .acquiring) != generation, !isScanning else { return }
    $isScanning.withValue(true) {
      scan.withLock { scanned in
        guard listedGeneration.load(ordering: .acquiring) != generation else { return }
        for image in (try? ApplicationImages.current()) ?? []
        where scanned.insert(image.base).inserted {
          for cls in SwiftImages.classes(in: image) {
            if let type = objcObjectType(cls) { _ = realize(type) }
          }
        }
        listedGeneration.store(generation, ordering: .releasing)
      }
    }
  }

  /// `cls` as a subclass of ``ObjCObject``, found by walking its superclasses (no dynamic cast);
  /// nil for other classes and for ``Class``, whose instances are the runtime's own.
  private static func objcObjectType(_ cls: AnyClass) -> ObjCObject.Type? {
    let root = ObjectIdentifier(ObjCObject.self)
    guard ObjectIdentifier(cls) != ObjectIdentifier(Class.self) else { return nil }
    var current: AnyClass? = cls
    while let type = current {
      if ObjectIdentifier(type) == root { return unsafeBitCast(cls, to: ObjCObject.Type.self) }
      current = _getSuperclass(type)
    }
    return nil
  }

  private static func superclassType(of type: ObjCObject.Type) -> ObjCObject.Type? {
    guard type != ObjCObject.self else { return nil }
    return _getSuperclass(type) as? ObjCObject.Type
  }

  /// The names the class is known by: its Swift name without the module (`Outer.Nested`) when
  /// that is free, else the module-qualified one (`MyModule.Outer.Nested`); the qualified name
  /// resolves too. Private types carry a discriminator in their full name, which is dropped unless
  /// it is the only way to tell two classes apart.
  private static func names(
    of type: ObjCObject.Type, explicit: String?, tables: borrowing RuntimeTables
  ) -> (primary: String, aliases: [String]) {
    let full = _typeName(type, qualified: true)
    let qualified = full.split(separator: ".", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("(unknown context at ") }.joined(separator: ".")
    let plain =
      qualified.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init)
      ?? qualified
    let candidates = [explicit, plain, qualified, full].compactMap { $0 }
    let primary = candidates.first { !tables.isNameInUse($0) } ?? full
    let aliases = [qualified].filter { $0 != primary && !tables.isNameInUse($0) }
    return (primary, aliases)
  }

  private static func build(
    _ type: ObjCObject.Type, superclass: Class?, members: DeclaredMembers,
    tables: inout RuntimeTables
  ) -> Class {
    let names = names(of: type, explicit: members.runtimeName, tables: tables)
    let cls = Class(
      name: names.primary, superclass: superclass, isMetaClass: false, storageType: type)
    let metaclass: Class
    if let superclass {
      metaclass = Class(
        name: names.primary, superclass: superclass.metaclass, isMetaClass: true,
        storageType: Class.self)
      metaclass.setIsa(superclass.metaclass.rootMetaclass)
      superclass.subclasses.append(cls)
      superclass.metaclass.subclasses.append(metaclass)
    } else {
      // The root: its metaclass's superclass is the root class itself, and the root metaclass
      // is its own isa.
      metaclass = Class(
        name: names.primary, superclass: cls, isMetaClass: true, storageType: Class.self)
      metaclass.setIsa(metaclass)
      cls.subclasses.append(metaclass)
    }
    cls.setIsa(metaclass)
    cls.retainedMetaclass = metaclass
    for declaration in members.instanceMethods {
      install(declaration, in: cls)
    }
    for declaration in members.classMethods {
      install(declaration, in: metaclass)
    }
    cls.propertyList = members.properties
    cls.ivarList = members.ivars.map { ivar in
      Ivar(
        name: ivar.name, typeEncoding: ivar.typeEncoding, offset: nil, owner: cls,
        storage: .property(ivar.accessors))
    }
    tables.classesByName[names.primary] = cls
    for alias in names.aliases where tables.classesByName[alias] == nil {
      tables.classesByName[alias] = cls
    }
    tables.classesBySwiftType[ObjectIdentifier(type)] = cls
    tables.classes.append(cls)
    return cls
  }

  private static func install(_ declaration: ValidMethodDeclaration, in cls: Class) {
    IMPReceivers.record(declaration.implementation, receivers: cls.storageType)
    if let entry = declaration.swiftEntry {
      IMPReceivers.record(entry, receivers: cls.storageType)
    }
    cls.appendMethod(
      Method(
        selector: declaration.selector, signature: declaration.signature,
        imp: declaration.implementation, owner: cls))
    if let entry = declaration.swiftEntry {
      cls.swiftEntries[declaration.selector] = Method(
        selector: declaration.selector, signature: declaration.signature, imp: entry,
        owner: cls, isSwiftEntry: true)
    }
  }

  /// The declaration's methods, checked; invalid ones are set aside as problems.
  private static func declaredMembers(of type: ObjCObject.Type) -> DeclaredMembers {
    let declaration = type.objcDeclaration
    let className = _typeName(type, qualified: false)
    guard declaration.owner == type else {
      // A class that does not override `objcDeclaration` inherits its superclass's, whose owner
      // is the superclass: it declares nothing of its own.
      return DeclaredMembers(
        runtimeName: nil, instanceMethods: [], classMethods: [], ivars: [], properties: [],
        problems: [])
    }
    var members = DeclaredMembers(
      runtimeName: declaration.runtimeName, instanceMethods: [], classMethods: [],
      ivars: declaration.ivars, properties: [], problems: [])
    for property in declaration.properties {
      switch property.attributes {
      case .failure(.invalidDeclaration(_, let reason)):
        members.problems.append(.invalidDeclaration(className: className, reason: reason))
      case .failure(let problem):
        members.problems.append(problem)
      case .success(let attributes):
        if members.properties.contains(where: { $0.name == property.name }) {
          members.problems.append(
            .invalidDeclaration(
              className: className, reason: "property '\(property.name)' is declared twice"))
        } else {
          members.properties.append(Property(name: property.name, attributes: attributes))
        }
      }
    }
    var seen: Set<Selector> = []
    var seenClass: Set<Selector> = []
    for method in declaration.methods {
      switch method.validated(className: className) {
      case .failure(let problem):
        members.problems.append(problem)
      case .success(let valid):
        let isNew =
          valid.isClassMethod
          ? seenClass.insert(valid.selector).inserted : seen.insert(valid.selector).inserted
        if !isNew {
          let marker = valid.isClassMethod ? "+" : "-"
          members.problems.append(
            .invalidDeclaration(
              className: className, reason: "\(marker)\(valid.selector) is declared twice"))
        } else if valid.isClassMethod {
          members.classMethods.append(valid)
        } else {
          members.instanceMethods.append(valid)
        }
      }
    }
    return members
  }
}

private struct DeclaredMembers {
  var runtimeName: String?
  var instanceMethods: [ValidMethodDeclaration]
  var classMethods: [ValidMethodDeclaration]
  var ivars: [ObjCIvarDeclaration]
  var properties: [Property]
  var problems: [ObjCRuntimeError]
}

extension Class {
  /// The metaclass at the top of the metaclass chain.
  internal var rootMetaclass: Class {
    isMetaClass ? isa.takeUnretainedValue() : metaclass.isa.takeUnretainedValue()
  }
}
