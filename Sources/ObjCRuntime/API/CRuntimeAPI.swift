// objc4's C-level API, with objc4's names, argument order and results, over the typed layer.
//
// Each function tolerates nil where objc4 does and reports failure as objc4 does (nil, NO, or
// nothing); the typed layer it calls throws the reason instead.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

// MARK: - Selectors

/// Registers `name` and returns its selector. The corresponding objc4 function is
/// `sel_registerName`.
public func sel_registerName(_ name: String) -> Selector {
  Selector(name)
}

/// The name of `selector`. The corresponding objc4 function is `sel_getName`.
public func sel_getName(_ selector: Selector) -> String {
  selector.name
}

/// Whether two selectors are the same. The corresponding objc4 function is `sel_isEqual`.
public func sel_isEqual(_ lhs: Selector, _ rhs: Selector) -> Bool {
  lhs == rhs
}

/// The selector named `name`, registered if it was not: the same as ``sel_registerName(_:)``.
/// The corresponding Foundation function is `NSSelectorFromString`, which Apple's Swift overlay
/// declares with a non-optional result, as here (an empty name is the selector named "", which
/// no method has; ``Selector/init(validating:)`` refuses names no method could have).
public func NSSelectorFromString(_ name: String) -> Selector {
  Selector(name)
}

/// The name of `selector`. The corresponding Foundation function is `NSStringFromSelector`.
public func NSStringFromSelector(_ selector: Selector) -> String {
  selector.name
}

// MARK: - Objects

/// The object's runtime class (its isa), nil for nil. The corresponding objc4 function is
/// `object_getClass`.
public func object_getClass(_ object: ObjCObject?) -> Class? {
  object?.isa.takeUnretainedValue()
}

/// Changes the object's runtime class and returns the old one; nil when `object` or `cls` is nil
/// or when the class is incompatible with the object's storage (the object is then unchanged;
/// ``ObjCObject/setClass(_:fileID:line:)`` says why). The corresponding objc4 function is
/// `object_setClass`.
@discardableResult
public func object_setClass(
  _ object: ObjCObject?, _ cls: Class?, fileID: String = #fileID, line: Int = #line
) -> Class? {
  guard let object, let cls else { return nil }
  return try? object.setClass(cls, fileID: fileID, line: line)
}

// MARK: - Classes

/// The class named `name`, or nil. The corresponding objc4 function is `objc_getClass`.
///
/// Every ``ObjCObject`` subclass of every loaded image is found, used or not: a name the runtime
/// does not know yet makes it realize the classes of the images loaded since it last looked
/// (see `Docs/Architecture.md`). Module-qualified names (`MyModule.Greeter`) always resolve.
public func objc_getClass(_ name: String) -> Class? {
  if let known = Runtime.state.withLock({ $0.classesByName[name] }) { return known }
  ClassRealizer.realizeLoadedClasses()
  return Runtime.state.withLock { $0.classesByName[name] }
}

/// The class named `name`, or nil; the same as ``objc_getClass(_:)`` here. The corresponding
/// objc4 function is `objc_lookUpClass` (which, unlike `objc_getClass`, never calls a class
/// handler; SwizzleKit has none).
public func objc_lookUpClass(_ name: String) -> Class? {
  objc_getClass(name)
}

/// The runtime class named `name`, or nil; the same as ``objc_getClass(_:)``. The corresponding
/// Foundation function is `NSClassFromString`.
///
/// Foundation on Linux has a function of this name that answers Swift types (`AnyClass`); where
/// both modules are imported, a call resolves by the type it is given to (`let cls: Class? =
/// NSClassFromString("UIView")`), or name this one `ObjCRuntime.NSClassFromString`.
public func NSClassFromString(_ name: String) -> Class? {
  objc_getClass(name)
}

/// The metaclass of the class named `name`, or nil. The corresponding objc4 function is
/// `objc_getMetaClass`.
public func objc_getMetaClass(_ name: String) -> Class? {
  objc_getClass(name)?.metaclass
}

/// Writes up to `bufferCount` classes (never metaclasses) into `buffer` and returns the total
/// number of classes, as objc4 does. The corresponding objc4 function is `objc_getClassList`.
///
/// This form lists every class, those made at run time too, as runtime objects; the form Apple's
/// Swift overlay has, with an `AutoreleasingUnsafeMutablePointer<AnyClass>`, lists the Swift
/// classes as metatypes, and is the one a nil buffer selects (`objc_getClassList(nil, 0)` counts
/// what that form writes: size this form's buffer with `objc_copyClassList().count`, which
/// counts every class). The buffer is
/// written without being read, as objc4's C function writes it, so it may be uninitialized; what
/// was there is not released (classes live as long as the process).
@_disfavoredOverload
@discardableResult
public func objc_getClassList(_ buffer: UnsafeMutablePointer<Class?>?, _ bufferCount: Int32)
  -> Int32
{
  let classes = objc_copyClassList()
  if let buffer, bufferCount > 0 {
    for (index, cls) in classes.prefix(Int(bufferCount)).enumerated() {
      (buffer + index).initialize(to: cls)
    }
  }
  return Int32(clamping: classes.count)
}

/// Every class (never metaclasses), in the order they were made: every ``ObjCObject`` subclass
/// of every loaded image, used or not (the first call realizes them, later calls only the classes
/// of images loaded since), and the classes made at run time. The Swift form of objc4's
/// `objc_copyClassList`.
public func objc_copyClassList() -> [Class] {
  ClassRealizer.realizeLoadedClasses()
  return Runtime.state.withLock { $0.classes }
}

/// The class's name, or `"nil"` for nil, as objc4 answers. The corresponding objc4 function is
/// `class_getName`.
public func class_getName(_ cls: Class?) -> String {
  cls?.name ?? "nil"
}

/// The superclass, nil for a root class or nil. The corresponding objc4 function is
/// `class_getSuperclass`.
public func class_getSuperclass(_ cls: Class?) -> Class? {
  cls?.superclass
}

/// Whether `cls` is a metaclass; false for nil. The corresponding objc4 function is
/// `class_isMetaClass`.
public func class_isMetaClass(_ cls: Class?) -> Bool {
  cls?.isMetaClass ?? false
}

/// The method instances of `cls` use for `name`: the class's own or the nearest superclass's
/// very `Method`. The corresponding objc4 function is `class_getInstanceMethod`.
public func class_getInstanceMethod(_ cls: Class?, _ name: Selector) -> Method? {
  cls?.instanceMethod(for: name)
}

/// The class method of `cls` for `name`, from the metaclass chain. The corresponding objc4
/// function is `class_getClassMethod`.
public func class_getClassMethod(_ cls: Class?, _ name: Selector) -> Method? {
  cls?.classMethod(for: name)
}

/// Adds a method; returns false when the class itself already has `name` (an inherited method
/// is overridden, and true returned), and for nil or bad input. The corresponding objc4
/// function is `class_addMethod`.
///
/// objc4 answers NO only for a selector the class has; bad input (an empty selector, a malformed
/// encoding, an IMP made for other types than `types` say) is refused here too, and a warning
/// says why, since a false result alone does not (``Class/addMethod(_:implementation:types:fileID:line:)``
/// throws the same reason).
@discardableResult
public func class_addMethod(
  _ cls: Class?, _ name: Selector, _ imp: IMP?, _ types: String?,
  fileID: String = #fileID, line: Int = #line
) -> Bool {
  guard let cls, let types else { return false }
  do {
    try cls.addMethod(name, implementation: imp, types: types, fileID: fileID, line: line)
    return true
  } catch .methodAlreadyExists {
    return false
  } catch {
    Diagnostics.warn("class_addMethod", refused: error)
    return false
  }
}

/// Replaces the class's own implementation of `name` and returns the old one, or adds the method
/// (even when a superclass has it) and returns nil. `types` is ignored when replacing. The
/// corresponding objc4 function is `class_replaceMethod`.
@discardableResult
public func class_replaceMethod(
  _ cls: Class?, _ name: Selector, _ imp: IMP?, _ types: String?,
  fileID: String = #fileID, line: Int = #line
) -> IMP? {
  guard let cls, let imp else { return nil }
  return try? cls.replaceMethod(
    name, implementation: imp, types: types ?? "", fileID: fileID, line: line)
}

/// The class's own methods, newest first; empty for nil. The Swift form of objc4's
/// `class_copyMethodList`.
public func class_copyMethodList(_ cls: Class?) -> [Method] {
  cls?.methods ?? []
}

/// Whether instances of `cls` respond to `sel`; false for nil. The corresponding objc4 function
/// is `class_respondsToSelector`.
public func class_respondsToSelector(_ cls: Class?, _ sel: Selector) -> Bool {
  cls?.instancesRespond(to: sel) ?? false
}

/// The IMP the method tables hold for `name`, ``IMP/forward`` when there is none, nil for a nil
/// class. The corresponding objc4 function is `class_getMethodImplementation`.
public func class_getMethodImplementation(_ cls: Class?, _ name: Selector) -> IMP? {
  cls?.methodImplementation(for: name)
}

// MARK: - Methods

/// The method's selector. The corresponding objc4 function is `method_getName`.
public func method_getName(_ m: Method?) -> Selector? {
  m?.selector
}

/// The method's implementation; nil for nil. A method whose implementation is objc4's
/// `_objc_msgForward` (as Aspects sets it) answers ``IMP/forward``, which forwards the message
/// when called; so does a method added without one, which this runtime stores alike (objc4 would
/// answer NULL for it). The corresponding objc4 function is `method_getImplementation`.
public func method_getImplementation(_ m: Method?) -> IMP? {
  m.map { $0.implementation ?? .forward }
}

/// Sets the method's implementation and returns the old one; nil and no change when either
/// argument is nil, or when `imp` was declared for a Swift class the method's receivers are not
/// (a warning says so; ``Method/setImplementation(_:fileID:line:)`` throws the reason). The
/// corresponding objc4 function is `method_setImplementation`.
@discardableResult
public func method_setImplementation(
  _ m: Method?, _ imp: IMP?, fileID: String = #fileID, line: Int = #line
) -> IMP? {
  guard let m, let imp else { return nil }
  do {
    return try m.setImplementation(imp, fileID: fileID, line: line)
  } catch {
    Diagnostics.warn("method_setImplementation", refused: error)
    return nil
  }
}

/// Swaps the two methods' implementations; does nothing when either is nil or both are the same
/// method. The corresponding objc4 function is `method_exchangeImplementations`.
///
/// Like objc4 it does not compare the encodings; ``Method/exchangeImplementation(with:fileID:line:)``
/// does. Unlike objc4 it never gives an implementation declared for instances of one Swift class
/// to a method whose receivers are of an unrelated one: that exchange is refused with a warning,
/// as `object_setClass` refuses an incompatible class.
public func method_exchangeImplementations(
  _ m1: Method?, _ m2: Method?, fileID: String = #fileID, line: Int = #line
) {
  guard let m1, let m2 else { return }
  do {
    try m1.exchangeCheckingReceivers(with: m2, fileID: fileID, line: line)
  } catch {
    Diagnostics.warn("method_exchangeImplementations", refused: error)
  }
}

/// The method's type encoding, nil for nil. The corresponding objc4 function is
/// `method_getTypeEncoding`.
public func method_getTypeEncoding(_ m: Method?) -> String? {
  m?.typeEncoding
}

/// The number of arguments, `self` and `_cmd` included; 0 for nil. The corresponding objc4
/// function is `method_getNumberOfArguments`.
public func method_getNumberOfArguments(_ m: Method?) -> UInt32 {
  UInt32(m?.parsedEncoding?.argumentTypes.count ?? 0)
}

/// The encoding of the method's return type, nil for nil. The Swift form of objc4's
/// `method_getReturnType` and `method_copyReturnType`.
public func method_getReturnType(_ m: Method?) -> String? {
  m?.parsedEncoding?.returnType
}

/// The encoding of argument `index` (0 is `self`, 1 is `_cmd`), nil when out of range. The Swift
/// form of objc4's `method_getArgumentType` and `method_copyArgumentType`.
public func method_getArgumentType(_ m: Method?, _ index: UInt32) -> String? {
  guard let types = m?.parsedEncoding?.argumentTypes, Int(index) < types.count else { return nil }
  return types[Int(index)]
}
