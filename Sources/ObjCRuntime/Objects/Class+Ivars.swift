// A class's ivars (declared, added at run time, laid out), and reading and writing them on an
// object.

extension Class {
  /// The ivar named `name` in this class or its superclasses. The corresponding objc4 function
  /// is `class_getInstanceVariable`.
  public func instanceVariable(named name: String) -> Ivar? {
    Runtime.state.withLock { _ in
      for cls in lineage {
        if let ivar = cls.ivarList.first(where: { $0.name == name }) { return ivar }
      }
      return nil
    }
  }

  /// The class's own ivars, in declaration order. The corresponding objc4 function is
  /// `class_copyIvarList`.
  public var ivars: [Ivar] {
    Runtime.state.withLock { _ in ivarList }
  }

  /// The size of an instance in bytes: the Swift instance size of ``storageType``, plus the ivars
  /// added at run time. The corresponding objc4 function is `class_getInstanceSize`.
  public var instanceSize: Int {
    Runtime.state.withLock { _ in
      addedInstanceSize ?? SwiftClassLayout.instanceSize(of: storageType)
    }
  }

  /// Adds an ivar to a class under construction. objc4's rule: only between
  /// `objc_allocateClassPair` and `objc_registerClassPair`; its offset is the end of the instance
  /// so far, aligned to `alignment` (a power of two, given as its log2, as objc4 takes it).
  ///
  /// - Throws: ``ObjCRuntimeError/invalidIvar(className:name:reason:)`` when the class is
  ///   registered or was not made at run time, the name is taken, or the encoding is malformed.
  public func addIvar(
    _ name: String, size: Int, alignment log2Alignment: UInt8, types: String
  ) throws(ObjCRuntimeError) {
    func refuse(_ reason: String) -> ObjCRuntimeError {
      .invalidIvar(className: self.name, name: name, reason: reason)
    }
    guard !name.isEmpty else { throw refuse("an ivar needs a name") }
    // objc4 keeps instance sizes in 32 bits; checking here, before the lock, also keeps every
    // sum below from overflowing.
    guard size >= 0, size <= Int(UInt32.max), log2Alignment < 16 else {
      throw refuse(
        "size \(size) or alignment 2^\(log2Alignment) out of range (at most \(UInt32.max) bytes,"
          + " aligned to at most 2^15)")
    }
    var parser = TypeEncodingParser(types)
    guard (try? parser.parseType()) != nil, parser.atEnd else {
      throw refuse("\(String(reflecting: types)) is not one type encoding")
    }
    let failure = Runtime.state.withLock { tables -> ObjCRuntimeError? in
      guard tables.constructing[ObjectIdentifier(self)] != nil else {
        return refuse(
          "ivars can only be added between objc_allocateClassPair and "
            + "objc_registerClassPair, as in objc4")
      }
      guard !lineage.contains(where: { cls in cls.ivarList.contains { $0.name == name } }) else {
        return refuse("the class or a superclass already has an ivar with that name")
      }
      let start =
        addedInstanceSize
        ?? superclass.map {
          $0.addedInstanceSize ?? SwiftClassLayout.instanceSize(of: $0.storageType)
        }
        ?? SwiftClassLayout.instanceSize(of: storageType)
      let alignment = 1 << Int(log2Alignment)
      let offset = (start + alignment - 1) & ~(alignment - 1)
      // start, size and alignment are below 2^32, so these sums cannot overflow an Int.
      guard offset + size <= Int(UInt32.max) else {
        return refuse(
          "the instance would be \(offset + size) bytes; objc4 allows at most \(UInt32.max)")
      }
      ivarList.append(
        Ivar(name: name, typeEncoding: types, offset: offset, owner: self, storage: .sideTable))
      addedInstanceSize = offset + size
      return nil
    }
    if let failure { throw failure }
  }
}

/// What the Swift runtime's class metadata says about a class's layout.
internal enum SwiftClassLayout {
  /// The instance size stored in the class metadata (`TargetClassMetadata::InstanceSize`, a
  /// 32-bit field after the kind, superclass, flags and instance address point words on
  /// platforms without Objective-C interop).
  static func instanceSize(of type: AnyClass) -> Int {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
  }
}

extension ObjCObject {
  /// The value of `ivar` in this object.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidIvar(className:name:reason:)`` when the ivar belongs to
  ///   a class that is not the object's class or a superclass of it.
  public final func value(of ivar: Ivar) throws(ObjCRuntimeError) -> Any? {
    try checkOwnership(of: ivar)
    switch ivar.storage {
    case .property(let accessors): return accessors.get(self)
    case .sideTable: return Associations.get(self, key: ivar.address)
    }
  }

  /// Sets the value of `ivar` in this object.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidIvar(className:name:reason:)`` when the ivar is not the
  ///   object's, is read-only, or `value` is not of its type.
  public final func setValue(_ value: Any?, of ivar: Ivar) throws(ObjCRuntimeError) {
    try checkOwnership(of: ivar)
    switch ivar.storage {
    case .property(let accessors):
      guard let set = accessors.set else {
        throw .invalidIvar(className: ivar.owner.name, name: ivar.name, reason: "it is read-only")
      }
      guard set(self, value) else {
        throw .invalidIvar(
          className: ivar.owner.name, name: ivar.name,
          reason:
            "\(value.map { "\(type(of: $0))" } ?? "nil") is not its type (\(ivar.typeEncoding))")
      }
    case .sideTable:
      try setAssociatedValue(value, forKey: ivar.address, policy: .retain)
    }
  }

  private func checkOwnership(of ivar: Ivar) throws(ObjCRuntimeError) {
    // The object's class, borrowed: the object keeps it alive.
    guard isa._withUnsafeGuaranteedRef({ $0.inherits(from: ivar.owner) }) else {
      throw .invalidIvar(
        className: ivar.owner.name, name: ivar.name,
        reason: "the object is a \(isa.takeUnretainedValue().name), which does not have it")
    }
  }
}

extension Ivar {
  /// The key under which a side-table ivar's value is stored.
  internal var address: UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
  }
}
