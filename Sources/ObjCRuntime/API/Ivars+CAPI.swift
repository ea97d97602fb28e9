// objc4's C-level ivar functions, over the typed layer of `Ivar` and `Class`.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

/// The ivar named `name` in `cls` or its superclasses, nil for nil. The corresponding objc4
/// function is `class_getInstanceVariable`.
public func class_getInstanceVariable(_ cls: Class?, _ name: String) -> Ivar? {
  cls?.instanceVariable(named: name)
}

/// The class's own ivars; empty for nil. The Swift form of objc4's `class_copyIvarList`.
public func class_copyIvarList(_ cls: Class?) -> [Ivar] {
  cls?.ivars ?? []
}

/// Adds an ivar to a class under construction; false when that is not allowed (see
/// ``Class/addIvar(_:size:alignment:types:)``). The corresponding objc4 function is
/// `class_addIvar`.
@discardableResult
public func class_addIvar(
  _ cls: Class?, _ name: String, _ size: Int, _ alignment: UInt8, _ types: String
) -> Bool {
  guard let cls else { return false }
  return (try? cls.addIvar(name, size: size, alignment: alignment, types: types)) != nil
}

/// The size of an instance; 0 for nil. The corresponding objc4 function is
/// `class_getInstanceSize`.
public func class_getInstanceSize(_ cls: Class?) -> Int {
  cls?.instanceSize ?? 0
}

/// The ivar's name. The corresponding objc4 function is `ivar_getName`.
public func ivar_getName(_ ivar: Ivar?) -> String? {
  ivar?.name
}

/// The ivar's type encoding. The corresponding objc4 function is `ivar_getTypeEncoding`.
public func ivar_getTypeEncoding(_ ivar: Ivar?) -> String? {
  ivar?.typeEncoding
}

/// The ivar's offset; 0 for nil and for ivars Swift lays out. The corresponding objc4 function
/// is `ivar_getOffset`.
public func ivar_getOffset(_ ivar: Ivar?) -> Int {
  ivar?.offset ?? 0
}

/// The value of `ivar` in `object`; nil for nil arguments or an ivar of another class. The
/// corresponding objc4 function is `object_getIvar`.
public func object_getIvar(_ object: ObjCObject?, _ ivar: Ivar?) -> Any? {
  guard let object, let ivar else { return nil }
  // Borrowed: the caller keeps both alive for the call (`try?` made owned copies of them).
  do {
    return try object.value(of: ivar)
  } catch {
    return nil
  }
}

/// Sets the value of `ivar` in `object`; does nothing for nil arguments, an ivar of another
/// class, or a value of the wrong type (``ObjCObject/setValue(_:of:)`` says why). The
/// corresponding objc4 function is `object_setIvar`.
public func object_setIvar(_ object: ObjCObject?, _ ivar: Ivar?, _ value: Any?) {
  guard let object, let ivar else { return }
  do {
    try object.setValue(value, of: ivar)
  } catch {
    Diagnostics.warn("object_setIvar", refused: error)
  }
}
