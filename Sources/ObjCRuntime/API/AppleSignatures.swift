// The C-level API with the types Apple's Swift overlay gives it, so that iOS Swift code calls it
// unchanged: Swift metatypes where the overlay takes `AnyClass` (`UINavigationController.self`),
// the class list into an `AutoreleasingUnsafeMutablePointer<AnyClass>`, identity of metatypes.
//
// On Apple platforms a class *is* its Swift metatype; here a runtime class is an object
// (`Class`) and a Swift subclass of `ObjCObject` gets one on first use (`runtimeClass`). Each
// function below maps the metatype to its runtime class and calls the `Class` form. A metatype
// of a Swift class that does not inherit from `ObjCObject` has no runtime class: the functions
// answer as objc4 answers for Nil.
//
// The `AnyClass` overloads are disfavoured so that a `nil` class keeps meaning the `Class?`
// form, whose behaviour for nil is objc4's. `objc_getClassList` is the exception: there the
// `Class?` form is disfavoured, so that `objc_getClassList(nil, 0)` counts what the seeds' walk
// writes (the Swift classes); the `Class?` form counts every class, those made at run time too,
// so size its buffer with `objc_copyClassList().count`.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

extension ObjCObject {
  /// The runtime class of a Swift metatype: nil for a metatype that does not inherit from
  /// ``ObjCObject``, or for nil.
  @inlinable
  public static func runtimeClass(of type: AnyClass?) -> Class? {
    (type as? ObjCObject.Type)?.runtimeClass
  }

  /// The implementation a send of `selector` to the receiver would run now, to keep and call
  /// directly: Foundation's `-methodForSelector:` (`method(for:)` in Apple's overlay), which is
  /// `class_getMethodImplementation(object_getClass(self), selector)`. The forward IMP when no
  /// method answers. A later swizzle does not change an IMP already taken.
  public final func method(for selector: Selector) -> IMP {
    class_getMethodImplementation(object_getClass(self), selector) ?? .forward
  }

  /// Whether the receiver is an instance of `type` or of a subclass of it, judged from its class
  /// as `-class` reports it: Apple's `isKind(of: UIView.self)`. False for a metatype that has no
  /// runtime class.
  @_disfavoredOverload
  public final func isKind(of type: AnyClass) -> Bool {
    guard let cls = ObjCObject.runtimeClass(of: type) else { return false }
    return isKind(of: cls)
  }

  /// Whether the receiver's class, as `-class` reports it, is exactly `type`: Apple's
  /// `isMember(of: UIView.self)`.
  @_disfavoredOverload
  public final func isMember(of type: AnyClass) -> Bool {
    guard let cls = ObjCObject.runtimeClass(of: type) else { return false }
    return isMember(of: cls)
  }
}

// MARK: - Identity of classes

/// Whether two metatypes are the same class, as `===` compares classes on Apple platforms
/// (`self === UINavigationController.self` in a class method). Both nil are the same.
public func === (lhs: AnyClass?, rhs: AnyClass?) -> Bool {
  switch (lhs, rhs) {
  case (nil, nil): true
  case (let lhs?, let rhs?): ObjectIdentifier(lhs) == ObjectIdentifier(rhs)
  default: false
  }
}

/// Whether two metatypes are different classes: the negation of ``===(_:_:)``.
public func !== (lhs: AnyClass?, rhs: AnyClass?) -> Bool {
  !(lhs === rhs)
}

// MARK: - Classes and methods, from a metatype

/// `class_getInstanceMethod` with a metatype, as Apple's overlay takes it:
/// `class_getInstanceMethod(UINavigationController.self, sel)`.
@_disfavoredOverload
public func class_getInstanceMethod(_ cls: AnyClass?, _ name: Selector) -> Method? {
  class_getInstanceMethod(ObjCObject.runtimeClass(of: cls), name)
}

/// `class_getClassMethod` with a metatype.
@_disfavoredOverload
public func class_getClassMethod(_ cls: AnyClass?, _ name: Selector) -> Method? {
  class_getClassMethod(ObjCObject.runtimeClass(of: cls), name)
}

/// `class_addMethod` with a metatype; false for a metatype without a runtime class.
@_disfavoredOverload
@discardableResult
public func class_addMethod(
  _ cls: AnyClass?, _ name: Selector, _ imp: IMP?, _ types: String?,
  fileID: String = #fileID, line: Int = #line
) -> Bool {
  class_addMethod(ObjCObject.runtimeClass(of: cls), name, imp, types, fileID: fileID, line: line)
}

/// `class_replaceMethod` with a metatype.
@_disfavoredOverload
@discardableResult
public func class_replaceMethod(
  _ cls: AnyClass?, _ name: Selector, _ imp: IMP?, _ types: String?,
  fileID: String = #fileID, line: Int = #line
) -> IMP? {
  class_replaceMethod(
    ObjCObject.runtimeClass(of: cls), name, imp, types, fileID: fileID, line: line)
}

/// `class_copyMethodList` with a metatype.
@_disfavoredOverload
public func class_copyMethodList(_ cls: AnyClass?) -> [Method] {
  class_copyMethodList(ObjCObject.runtimeClass(of: cls))
}

/// `class_respondsToSelector` with a metatype.
@_disfavoredOverload
public func class_respondsToSelector(_ cls: AnyClass?, _ sel: Selector) -> Bool {
  class_respondsToSelector(ObjCObject.runtimeClass(of: cls), sel)
}

/// `class_getMethodImplementation` with a metatype.
@_disfavoredOverload
public func class_getMethodImplementation(_ cls: AnyClass?, _ name: Selector) -> IMP? {
  class_getMethodImplementation(ObjCObject.runtimeClass(of: cls), name)
}

/// `class_getName` with a metatype: the runtime class's name, `"nil"` for a metatype without
/// one.
@_disfavoredOverload
public func class_getName(_ cls: AnyClass?) -> String {
  class_getName(ObjCObject.runtimeClass(of: cls))
}

/// `class_isMetaClass` with a metatype: false, as a Swift metatype names a class.
@_disfavoredOverload
public func class_isMetaClass(_ cls: AnyClass?) -> Bool {
  class_isMetaClass(ObjCObject.runtimeClass(of: cls))
}

// MARK: - The class list

/// A pointer to object references that the callee writes without releasing what was there:
/// the type Apple's overlay gives `objc_getClassList`'s buffer.
///
/// On Apple platforms the standard library has this type for Objective-C's `__autoreleasing`
/// out-parameters; Linux Swift has no Objective-C interoperability and so no such type, and
/// SwizzleKit provides it for the one function that takes it here. A write stores the new value
/// without reading the old one (the memory may be uninitialized, as a fresh `allocate` leaves
/// it); the caller owns the memory and deinitializes it as it would any buffer. For a pointee
/// that is an object, a write retains the new value and never releases the old one, so the
/// caller deinitializes what was written; metatypes (`AnyClass`, all the runtime writes) need
/// nothing.
@frozen
public struct AutoreleasingUnsafeMutablePointer<Pointee>: Equatable, Hashable {
  /// The memory, as a typed pointer.
  public let pointer: UnsafeMutablePointer<Pointee>

  /// The same memory as `pointer`, with the element type this pointer writes: the form
  /// `AutoreleasingUnsafeMutablePointer<AnyClass>(types)` of the seeds, where `types` is an
  /// `UnsafeMutablePointer<AnyClass?>`. The two element types must have the same size.
  @inlinable
  public init<U>(_ pointer: UnsafeMutablePointer<U>) {
    precondition(
      MemoryLayout<U>.stride == MemoryLayout<Pointee>.stride,
      "AutoreleasingUnsafeMutablePointer: \(U.self) and \(Pointee.self) differ in size")
    self.pointer = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: Pointee.self)
  }

  /// The value at `index`; setting it writes without releasing the old value.
  @inlinable
  public subscript(index: Int) -> Pointee {
    get { pointer[index] }
    nonmutating set { (pointer + index).initialize(to: newValue) }
  }

  /// The value pointed to; setting it writes without releasing the old value.
  @inlinable
  public var pointee: Pointee {
    get { pointer.pointee }
    nonmutating set { pointer.initialize(to: newValue) }
  }
}

/// Writes up to `bufferCount` classes into `buffer`, as Swift metatypes, and returns how many
/// classes there are; with nil, the count alone. Apple's overlay signature, so that the seeds'
/// `SelfAware` walk compiles unchanged:
///
/// ```swift
/// let count = Int(objc_getClassList(nil, 0))
/// let types = UnsafeMutablePointer<AnyClass?>.allocate(capacity: count)
/// objc_getClassList(AutoreleasingUnsafeMutablePointer<AnyClass>(types), Int32(count))
/// for index in 0..<count { (types[index] as? SelfAware.Type)?.awake() }
/// types.deallocate()
/// ```
///
/// The classes are the Swift subclasses of ``ObjCObject`` of every loaded image (a class made at
/// run time with `objc_allocateClassPair` has no Swift metatype, and is listed only by the
/// `Class?` form and by ``objc_copyClassList()``). The buffer is written without being read,
/// as objc4's C function writes it: a freshly allocated, uninitialized buffer is what the seeds
/// pass. A negative or zero `bufferCount` writes nothing.
@discardableResult
public func objc_getClassList(
  _ buffer: AutoreleasingUnsafeMutablePointer<AnyClass>?, _ bufferCount: Int32
) -> Int32 {
  let classes = objc_copyClassList().compactMap(\.swiftClass)
  if let buffer, bufferCount > 0 {
    for (index, cls) in classes.prefix(Int(bufferCount)).enumerated() {
      buffer[index] = cls
    }
  }
  return Int32(clamping: classes.count)
}
