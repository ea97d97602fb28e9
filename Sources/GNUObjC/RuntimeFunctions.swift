// The runtime's C-level functions for gcc's code (`<objc/runtime.h>`): the C symbols live in
// CObjCGNU (Swift reserves their names) and call these, which convert what C passes (an
// object's or class's address, a selector reference, a C string) and call the runtime's Swift
// function of the same name.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

internal import CObjCGNU
import ObjCRuntime
import Synchronization

enum RuntimeFunctions {
  /// Installs the functions behind the C symbols (once).
  static func install() {
    _ = installed
  }

  private static let installed: Bool = {
    let table = UnsafeMutablePointer<swk_gnu_runtime_functions>.allocate(capacity: 1)
    table.initialize(
      to: swk_gnu_runtime_functions(
        class_getInstanceMethod: { CFunctions.class_getInstanceMethod($0, $1) },
        class_getClassMethod: { CFunctions.class_getClassMethod($0, $1) },
        method_exchangeImplementations: { CFunctions.method_exchangeImplementations($0, $1, $2) },
        method_getImplementation: { CFunctions.method_getImplementation($0) },
        method_setImplementation: { CFunctions.method_setImplementation($0, $1, $2) },
        method_getName: { CFunctions.method_getName($0) },
        method_getTypeEncoding: { CFunctions.method_getTypeEncoding($0) },
        class_addMethod: { CFunctions.class_addMethod($0, $1, $2, $3, $4) },
        class_replaceMethod: { CFunctions.class_replaceMethod($0, $1, $2, $3, $4) },
        class_getMethodImplementation: { CFunctions.class_getMethodImplementation($0, $1) },
        class_respondsToSelector: { CFunctions.class_respondsToSelector($0, $1) },
        class_getName: { CFunctions.class_getName($0) },
        class_getSuperclass: { CFunctions.class_getSuperclass($0) },
        class_isMetaClass: { CFunctions.class_isMetaClass($0) },
        object_getClass: { CFunctions.object_getClass($0) },
        object_getClassName: { CFunctions.object_getClassName($0) },
        object_setClass: { CFunctions.object_setClass($0, $1) },
        sel_getName: { CFunctions.sel_getName($0) },
        sel_registerName: { CFunctions.sel_registerName($0) },
        sel_getUid: { CFunctions.sel_getUid($0) },
        sel_isEqual: { CFunctions.sel_isEqual($0, $1) },
        objc_setAssociatedObject: { CFunctions.objc_setAssociatedObject($0, $1, $2, $3) },
        objc_getAssociatedObject: { CFunctions.objc_getAssociatedObject($0, $1) },
        objc_removeAssociatedObjects: { CFunctions.objc_removeAssociatedObjects($0) }))
    swk_gnu_install_runtime_functions(table)
    return true
  }()
}

/// C's view of the runtime's values: objects, classes and methods are addresses.
enum CValues {
  static func object(_ pointer: UnsafeMutableRawPointer?) -> ObjCObject? {
    pointer.map { Unmanaged<ObjCObject>.fromOpaque($0).takeUnretainedValue() }
  }

  static func cls(_ pointer: UnsafeMutableRawPointer?) -> Class? {
    object(pointer) as? Class
  }

  static func method(_ pointer: UnsafeMutableRawPointer?) -> Method? {
    pointer.map { Unmanaged<Method>.fromOpaque($0).takeUnretainedValue() }
  }

  static func selector(_ pointer: UnsafeRawPointer?) -> Selector? {
    pointer.map { Selector($0.assumingMemoryBound(to: objc_selector.self)) }
  }

  static func address(_ object: AnyObject?) -> UnsafeMutableRawPointer? {
    object.map { Unmanaged.passUnretained($0).toOpaque() }
  }

  static func imp(_ pointer: UnsafeMutableRawPointer?) -> IMP? {
    pointer.map { IMP(rawValue: UnsafeRawPointer($0)) }
  }

  /// A C string that lives as long as the process, one per distinct text (class names, type
  /// encodings).
  static func cString(_ text: String) -> UnsafePointer<CChar> {
    strings.withLock { strings in
      if let known = strings[text] { return UnsafePointer(known) }
      let copy = UnsafeMutablePointer<CChar>.allocate(capacity: text.utf8.count + 1)
      text.withCString { copy.initialize(from: $0, count: text.utf8.count + 1) }
      strings[text] = copy
      return UnsafePointer(copy)
    }
  }

  private static let strings = Mutex<[String: UnsafeMutablePointer<CChar>]>(
    [:])
}

/// The functions behind the C symbols, with objc4's names.
enum CFunctions {
  static func class_getInstanceMethod(_ cls: UnsafeMutableRawPointer?, _ sel: UnsafeRawPointer?)
    -> UnsafeMutableRawPointer?
  {
    guard let cls = CValues.cls(cls), let selector = CValues.selector(sel) else { return nil }
    return CValues.address(ObjCRuntime.class_getInstanceMethod(cls, selector))
  }

  static func class_getClassMethod(_ cls: UnsafeMutableRawPointer?, _ sel: UnsafeRawPointer?)
    -> UnsafeMutableRawPointer?
  {
    guard let cls = CValues.cls(cls), let selector = CValues.selector(sel) else { return nil }
    return CValues.address(ObjCRuntime.class_getClassMethod(cls, selector))
  }

  static func method_exchangeImplementations(
    _ first: UnsafeMutableRawPointer?, _ second: UnsafeMutableRawPointer?,
    _ caller: UnsafeRawPointer?
  ) {
    ObjCRuntime.method_exchangeImplementations(
      CValues.method(first), CValues.method(second), fileID: Origins.file(of: caller), line: 0)
  }

  static func method_getImplementation(_ method: UnsafeMutableRawPointer?)
    -> UnsafeMutableRawPointer?
  {
    ObjCRuntime.method_getImplementation(CValues.method(method)).map {
      UnsafeMutableRawPointer(mutating: $0.rawValue)
    }
  }

  static func method_setImplementation(
    _ method: UnsafeMutableRawPointer?, _ imp: UnsafeMutableRawPointer?,
    _ caller: UnsafeRawPointer?
  ) -> UnsafeMutableRawPointer? {
    ObjCRuntime.method_setImplementation(
      CValues.method(method), CValues.imp(imp), fileID: Origins.file(of: caller), line: 0
    ).map {
      UnsafeMutableRawPointer(mutating: $0.rawValue)
    }
  }

  static func method_getName(_ method: UnsafeMutableRawPointer?) -> UnsafeRawPointer? {
    ObjCRuntime.method_getName(CValues.method(method)).map { UnsafeRawPointer($0.sel) }
  }

  static func method_getTypeEncoding(_ method: UnsafeMutableRawPointer?) -> UnsafePointer<CChar>? {
    ObjCRuntime.method_getTypeEncoding(CValues.method(method)).map(CValues.cString)
  }

  static func class_addMethod(
    _ cls: UnsafeMutableRawPointer?, _ sel: UnsafeRawPointer?, _ imp: UnsafeMutableRawPointer?,
    _ types: UnsafePointer<CChar>?,
    _ caller: UnsafeRawPointer?
  ) -> Bool {
    guard let selector = CValues.selector(sel), let types else { return false }
    return ObjCRuntime.class_addMethod(
      CValues.cls(cls), selector, CValues.imp(imp), String(cString: types),
      fileID: Origins.file(of: caller), line: 0)
  }

  static func class_replaceMethod(
    _ cls: UnsafeMutableRawPointer?, _ sel: UnsafeRawPointer?, _ imp: UnsafeMutableRawPointer?,
    _ types: UnsafePointer<CChar>?,
    _ caller: UnsafeRawPointer?
  ) -> UnsafeMutableRawPointer? {
    guard let selector = CValues.selector(sel), let types else { return nil }
    return ObjCRuntime.class_replaceMethod(
      CValues.cls(cls), selector, CValues.imp(imp), String(cString: types),
      fileID: Origins.file(of: caller), line: 0
    ).map { UnsafeMutableRawPointer(mutating: $0.rawValue) }
  }

  static func class_getMethodImplementation(
    _ cls: UnsafeMutableRawPointer?, _ sel: UnsafeRawPointer?
  )
    -> UnsafeMutableRawPointer?
  {
    guard let selector = CValues.selector(sel) else { return nil }
    return ObjCRuntime.class_getMethodImplementation(CValues.cls(cls), selector).map {
      UnsafeMutableRawPointer(mutating: $0.rawValue)
    }
  }

  static func class_respondsToSelector(_ cls: UnsafeMutableRawPointer?, _ sel: UnsafeRawPointer?)
    -> Bool
  {
    guard let selector = CValues.selector(sel) else { return false }
    return ObjCRuntime.class_respondsToSelector(CValues.cls(cls), selector)
  }

  static func class_getName(_ cls: UnsafeMutableRawPointer?) -> UnsafePointer<CChar>? {
    CValues.cString(CValues.cls(cls).map { ObjCRuntime.class_getName($0) } ?? "nil")
  }

  static func class_getSuperclass(_ cls: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    CValues.address(ObjCRuntime.class_getSuperclass(CValues.cls(cls)))
  }

  static func class_isMetaClass(_ cls: UnsafeMutableRawPointer?) -> Bool {
    ObjCRuntime.class_isMetaClass(CValues.cls(cls))
  }

  static func object_getClass(_ object: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    CValues.address(ObjCRuntime.object_getClass(CValues.object(object)))
  }

  static func object_getClassName(_ object: UnsafeMutableRawPointer?) -> UnsafePointer<CChar>? {
    class_getName(object_getClass(object))
  }

  static func object_setClass(_ object: UnsafeMutableRawPointer?, _ cls: UnsafeMutableRawPointer?)
    -> UnsafeMutableRawPointer?
  {
    guard let cls = CValues.cls(cls) else { return nil }
    return CValues.address(ObjCRuntime.object_setClass(CValues.object(object), cls))
  }

  static func sel_getName(_ sel: UnsafeRawPointer?) -> UnsafePointer<CChar>? {
    CValues.selector(sel).map { UnsafeRawPointer($0.sel).assumingMemoryBound(to: CChar.self) }
  }

  static func sel_registerName(_ name: UnsafePointer<CChar>?) -> UnsafeRawPointer? {
    name.map { UnsafeRawPointer(ObjCRuntime.sel_registerName(String(cString: $0)).sel) }
  }

  static func sel_getUid(_ name: UnsafePointer<CChar>?) -> UnsafeRawPointer? {
    sel_registerName(name)
  }

  static func sel_isEqual(_ first: UnsafeRawPointer?, _ second: UnsafeRawPointer?) -> Bool {
    CValues.selector(first) == CValues.selector(second)
  }

  /// A key as C passes it: a static variable's address, or a selector (`_cmd`,
  /// `@selector(x)`), which stands for its selector whichever form it comes in.
  private static func associationKey(_ key: UnsafeRawPointer) -> UnsafeRawPointer {
    UnsafeRawPointer(Selector(key.assumingMemoryBound(to: objc_selector.self)).sel)
  }

  static func objc_setAssociatedObject(
    _ object: UnsafeMutableRawPointer?, _ key: UnsafeRawPointer?, _ value: UnsafeMutableRawPointer?,
    _ policy: UInt
  ) {
    guard let key, let policy = objc_AssociationPolicy(rawValue: policy) else {
      Diagnostics.warn(
        "objc_setAssociatedObject: a nil key or an unknown policy \(policy); nothing set")
      return
    }
    ObjCRuntime.objc_setAssociatedObject(
      CValues.object(object), associationKey(key), CValues.object(value), policy)
  }

  static func objc_getAssociatedObject(_ object: UnsafeMutableRawPointer?, _ key: UnsafeRawPointer?)
    -> UnsafeMutableRawPointer?
  {
    guard let key else { return nil }
    let value = ObjCRuntime.objc_getAssociatedObject(CValues.object(object), associationKey(key))
    return CValues.address(value as? ObjCObject)
  }

  static func objc_removeAssociatedObjects(_ object: UnsafeMutableRawPointer?) {
    ObjCRuntime.objc_removeAssociatedObjects(CValues.object(object))
  }

}
