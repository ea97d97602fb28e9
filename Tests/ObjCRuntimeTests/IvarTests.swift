// Ivars and key-value coding: declared ivars, ivars added at run time, Foundation's search order.
import ObjCRuntime
import Testing

/// A UINavigationController-like class with private-looking ivars.
private class Navigator: ObjCObject {
  var isTransitioning = false
  var shadowView: ObjCObject?
  var title = "root"
  let depth = 3

  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Navigator.self) {
      ObjCIvarDeclaration("_isTransitioning", \Navigator.isTransitioning)
      ObjCIvarDeclaration("_shadowView", \Navigator.shadowView)
      ObjCIvarDeclaration("_title", \Navigator.title)
      ObjCIvarDeclaration("_depth", readOnly: \Navigator.depth)
    }
  }
}

private final class SubNavigator: Navigator {}

/// Accessors of every kind, each answering with a different value so the search order shows.
private final class Accessors: ObjCObject {
  var stored = 0
  var backing = 10
  var _hidden = 77

  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Accessors.self) {
      ObjCMethodDeclaration("getSpeed", Accessors.getSpeed)
      ObjCMethodDeclaration("speed", Accessors.speed)
      ObjCMethodDeclaration("isSpeed", Accessors.isSpeed)
      ObjCMethodDeclaration("color", Accessors.color)
      ObjCMethodDeclaration("isEnabled", Accessors.isEnabled)
      ObjCMethodDeclaration("setLevel:", Accessors.setLevel)
      ObjCMethodDeclaration("_setLevel:", Accessors.underscoreSetLevel)
      ObjCMethodDeclaration("ratio", Accessors.ratio)
      ObjCMethodDeclaration("setRatio:", Accessors.setRatio)
      ObjCMethodDeclaration("setSmall:", Accessors.setSmall)
      ObjCIvarDeclaration("_backing", \Accessors.backing)
      ObjCIvarDeclaration("_isHidden", \Accessors._hidden)
    }
  }

  static let getSpeed: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
  static let speed: @convention(c) (id, SEL) -> Int = { _, _ in 2 }
  static let isSpeed: @convention(c) (id, SEL) -> Int = { _, _ in 3 }
  static let color: @convention(c) (id, SEL) -> id? = { me, _ in
    me.takeUnretainedObject().passRetained()
  }
  static let isEnabled: @convention(c) (id, SEL) -> Bool = { _, _ in true }
  static let setLevel: @convention(c) (id, SEL, Int) -> Void = { me, _, level in
    me.takeUnretainedObject(as: Accessors.self)?.stored = level
  }
  static let underscoreSetLevel: @convention(c) (id, SEL, Int) -> Void = { me, _, _ in
    me.takeUnretainedObject(as: Accessors.self)?.stored = -1
  }
  static let ratio: @convention(c) (id, SEL) -> Double = { me, _ in
    Double(me.takeUnretainedObject(as: Accessors.self)?.stored ?? 0) / 4
  }
  static let setSmall: @convention(c) (id, SEL, Int8) -> Void = { me, _, small in
    me.takeUnretainedObject(as: Accessors.self)?.stored = Int(small)
  }
  static let setRatio: @convention(c) (id, SEL, Double) -> Void = { me, _, ratio in
    me.takeUnretainedObject(as: Accessors.self)?.stored = Int(ratio * 4)
  }
}

private final class NoDirectAccess: ObjCObject {
  var value = 5
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(NoDirectAccess.self) {
      ObjCIvarDeclaration("_value", \NoDirectAccess.value)
    }
  }
  override class var accessInstanceVariablesDirectly: Bool { false }
}

@Suite("Ivars")
struct IvarTests {
  @Test("declared ivars are found by name, in the class and its subclasses")
  func lookup() throws {
    let ivar = try #require(class_getInstanceVariable(Navigator.runtimeClass, "_isTransitioning"))
    #expect(ivar_getName(ivar) == "_isTransitioning")
    #expect(ivar_getTypeEncoding(ivar) == "B")
    #expect(class_getInstanceVariable(SubNavigator.runtimeClass, "_isTransitioning") === ivar)
    #expect(
      ivar_getTypeEncoding(class_getInstanceVariable(Navigator.runtimeClass, "_shadowView")) == "@")
    #expect(
      class_copyIvarList(Navigator.runtimeClass).map(\.name) == [
        "_isTransitioning", "_shadowView", "_title", "_depth",
      ])
    #expect(class_copyIvarList(SubNavigator.runtimeClass).isEmpty)
    #expect(class_getInstanceVariable(Navigator.runtimeClass, "_missing") == nil)
  }

  @Test("object_getIvar and object_setIvar read and write the Swift property")
  func readAndWrite() throws {
    let navigator = SubNavigator()
    let transitioning = class_getInstanceVariable(Navigator.runtimeClass, "_isTransitioning")
    #expect(object_getIvar(navigator, transitioning) as? Bool == false)
    object_setIvar(navigator, transitioning, true)
    #expect(navigator.isTransitioning)
    let shadow = class_getInstanceVariable(Navigator.runtimeClass, "_shadowView")
    #expect(object_getIvar(navigator, shadow) == nil)
    let view = ObjCObject()
    object_setIvar(navigator, shadow, view)
    #expect(object_getIvar(navigator, shadow) as? ObjCObject === view)
    object_setIvar(navigator, shadow, nil)
    #expect(navigator.shadowView == nil)
  }

  @Test("wrong types, read-only ivars and ivars of other classes are refused")
  func refusals() throws {
    let navigator = Navigator()
    let transitioning = try #require(
      class_getInstanceVariable(Navigator.runtimeClass, "_isTransitioning"))
    #expect(throws: ObjCRuntimeError.self) { try navigator.setValue("yes", of: transitioning) }
    #expect(!navigator.isTransitioning)
    let depth = try #require(class_getInstanceVariable(Navigator.runtimeClass, "_depth"))
    #expect(throws: ObjCRuntimeError.self) { try navigator.setValue(4, of: depth) }
    #expect(try navigator.value(of: depth) as? Int == 3)
    #expect(throws: ObjCRuntimeError.self) { try Accessors().value(of: transitioning) }
    #expect(object_getIvar(Accessors(), transitioning) == nil)
  }

  @Test("class_addIvar works only before registration, at objc4's offsets")
  func addIvar() throws {
    let cls = try #require(
      objc_allocateClassPair(TestObject.runtimeClass, UniqueName.make("WithIvars"), 0))
    let base = class_getInstanceSize(TestObject.runtimeClass)
    #expect(base == 32)  // Swift's object header, the isa word and the association word
    #expect(class_addIvar(cls, "_count", 4, 2, "i"))
    #expect(class_addIvar(cls, "_object", 8, 3, "@"))
    #expect(!class_addIvar(cls, "_count", 4, 2, "i"))
    #expect(!class_addIvar(cls, "_bad", 4, 2, "{unclosed"))
    objc_registerClassPair(cls)
    #expect(!class_addIvar(cls, "_late", 8, 3, "q"))

    let count = try #require(class_getInstanceVariable(cls, "_count"))
    let object = try #require(class_getInstanceVariable(cls, "_object"))
    #expect(ivar_getOffset(count) == base)
    #expect(ivar_getOffset(object) == base + 8)
    #expect(class_getInstanceSize(cls) == base + 16)

    let instance = instance(of: cls)
    object_setIvar(instance, count, 41)
    #expect(object_getIvar(instance, count) as? Int == 41)
    #expect(try instance.value(forKey: "count") as? Int == 41)
    #expect(object_getIvar(TestObject(), count) == nil)
  }

  @Test("a root class made at run time starts its ivars after the object header")
  func rootOffsets() throws {
    let root = try #require(objc_allocateClassPair(nil, UniqueName.make("IvarRoot"), 0))
    #expect(class_addIvar(root, "_first", 1, 0, "c"))
    #expect(
      ivar_getOffset(class_getInstanceVariable(root, "_first"))
        == class_getInstanceSize(ObjCObject.runtimeClass))
  }
}

@Suite("Key-value coding")
struct KeyValueCodingTests {
  @Test("getters are searched as get<Key>, <key>, is<Key>, then _<key>")
  func getterOrder() throws {
    let object = Accessors()
    #expect(try object.value(forKey: "speed") as? Int == 1)
    #expect(try object.value(forKey: "enabled") as? Bool == true)
    #expect(try object.value(forKey: "color") as? ObjCObject === object)
  }

  @Test("after accessors come the ivars _<key>, _is<Key>, <key>, is<Key>")
  func ivarOrder() throws {
    let object = Accessors()
    #expect(try object.value(forKey: "backing") as? Int == 10)
    #expect(try object.value(forKey: "hidden") as? Int == 77)
    try object.setValue(11, forKey: "backing")
    #expect(object.backing == 11)
  }

  @Test("setters are searched as set<Key>: then _set<Key>:, converting numbers")
  func setters() throws {
    let object = Accessors()
    try object.setValue(5, forKey: "level")
    #expect(object.stored == 5)
    try object.setValue(2.5, forKey: "ratio")
    #expect(object.stored == 10)
    #expect(try object.value(forKey: "ratio") as? Double == 2.5)
    #expect(throws: ObjCRuntimeError.self) { try object.setValue("five", forKey: "level") }
    #expect(object.stored == 10)
    // A narrow setter takes numbers it holds exactly, and refuses the others.
    try object.setValue(-5, forKey: "small")
    #expect(object.stored == -5)
    #expect(throws: ObjCRuntimeError.self) { try object.setValue(300, forKey: "small") }
    #expect(throws: ObjCRuntimeError.self) { try object.setValue(2.5, forKey: "small") }
    #expect(object.stored == -5)
  }

  @Test("private ivars are reachable through KVC, as the navigation-bar libraries use them")
  func privateIvars() throws {
    let navigator = Navigator()
    navigator.isTransitioning = true
    #expect(try navigator.value(forKey: "isTransitioning") as? Bool == true)
    #expect(try navigator.value(forKey: "shadowView") == nil)
    try navigator.setValue("pushed", forKey: "title")
    #expect(navigator.title == "pushed")
  }

  @Test("an undefined key is a thrown error naming the class and the key, never a crash")
  func undefinedKey() {
    let navigator = Navigator()
    #expect(throws: ObjCRuntimeError.undefinedKey(className: "Navigator", key: "titleView")) {
      try navigator.value(forKey: "titleView")
    }
    #expect(throws: ObjCRuntimeError.undefinedKey(className: "Navigator", key: "titleView")) {
      try navigator.setValue(1, forKey: "titleView")
    }
  }

  @Test("accessInstanceVariablesDirectly = false hides the ivars")
  func noDirectAccess() {
    #expect(throws: ObjCRuntimeError.self) { try NoDirectAccess().value(forKey: "value") }
  }
}
