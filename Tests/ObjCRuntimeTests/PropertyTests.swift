// Declared properties, as objc4 keeps them: a class's own list, a lookup that climbs to the
// superclasses, the attribute string and its parts, and bad input refused with the class
// unchanged.
import ObjCRuntime
import Testing

private class Badge: ObjCObject {
  var count = 0
  let title = "new"
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Badge.self) {
      ObjCPropertyDeclaration("count", \Badge.count)
      ObjCPropertyDeclaration("title", \Badge.title)
      ObjCPropertyDeclaration("label", attributes: #"T@"NSString",C,N,V_label"#)
    }
  }
}

private final class RoundBadge: Badge {
  var radius = 4.0
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(RoundBadge.self) {
      ObjCPropertyDeclaration("radius", \RoundBadge.radius)
      ObjCPropertyDeclaration("broken", attributes: "N,C")
      ObjCPropertyDeclaration("radius", attributes: "Td")
      ObjCPropertyDeclaration("twice", attributes: "Tq,Td")
    }
  }
}

@Suite("Declared properties")
struct PropertyTests {
  @Test("a class lists its own properties, in order, with objc4's attribute strings")
  func ownList() {
    let list = class_copyPropertyList(Badge.runtimeClass)
    #expect(list.map(\.name) == ["count", "title", "label"])
    #expect(
      list.map { property_getAttributes($0) } == ["Tq,N", "T?,R,N", #"T@"NSString",C,N,V_label"#])
    #expect(property_copyAttributeValue(list[2], "V") == "_label")
    #expect(property_copyAttributeValue(list[2], "T") == #"@"NSString""#)
    #expect(property_copyAttributeValue(list[0], "C") == nil)
    #expect(property_copyAttributeList(list[1]).map(\.name) == ["T", "R", "N"])
  }

  @Test("class_getProperty climbs to the superclasses; the list holds the class's own only")
  func inheritance() {
    let round = RoundBadge.runtimeClass
    #expect(class_copyPropertyList(round).map(\.name) == ["radius"])
    #expect(property_getName(class_getProperty(round, "count")) == "count")
    #expect(class_getProperty(round, "radius")?.attributeString == "Td,N")
    #expect(class_getProperty(round, "missing") == nil)
    #expect(class_getProperty(nil, "count") == nil)
  }

  @Test("a declaration without the type, or declared twice, is reported and left out")
  func badDeclarations() {
    _ = RoundBadge.runtimeClass
    let problems = DeclarationProblems.all.map(\.description)
    #expect(problems.contains { $0.contains("'broken'") && $0.contains("write the type first") })
    #expect(problems.contains { $0.contains("property 'radius' is declared twice") })
    #expect(problems.contains { $0.contains("property 'twice': the attribute T is given twice") })
    #expect(class_getProperty(RoundBadge.runtimeClass, "twice") == nil)
  }

  @Test("class_addProperty adds once; class_replaceProperty replaces; bad input changes nothing")
  func addAndReplace() throws {
    let cls = try #require(objc_allocateClassPair(ObjCObject.runtimeClass, "PropertyHolder", 0))
    objc_registerClassPair(cls)
    let type = objc_property_attribute_t(name: "T", value: "d")
    #expect(class_addProperty(cls, "width", [type, .init(name: "N")]))
    #expect(!class_addProperty(cls, "width", [type]), "a second add is refused")
    class_replaceProperty(cls, "width", [type, .init(name: "R")])
    #expect(class_getProperty(cls, "width")?.attributeString == "Td,R")
    #expect(!class_addProperty(cls, "", [type]))
    #expect(!class_addProperty(cls, "height", [.init(name: "N")]), "no type")
    #expect(
      !class_addProperty(cls, "depth", [type, .init(name: "")]), "an attribute without a letter")
    #expect(class_copyPropertyList(cls).map(\.name) == ["width"])
    #expect(throws: ObjCRuntimeError.self) {
      try cls.addProperty("width", attributes: [type])
    }
    objc_disposeClassPair(cls)
  }

  @Test("attribute names of one character, values without the separator, each name once")
  func attributeShapes() throws {
    let cls = try #require(objc_allocateClassPair(ObjCObject.runtimeClass, "PropertyShapes", 0))
    objc_registerClassPair(cls)
    defer { objc_disposeClassPair(cls) }
    let type = objc_property_attribute_t(name: "T", value: "d")
    for (attributes, why) in [
      ([type, .init(name: "NC")], "a name of two letters"),
      ([type, .init(name: "é")], "a name that is not ASCII"),
      ([type, .init(name: ",")], "the separator as a name"),
      ([type, .init(name: " ")], "a blank name"),
      ([type, .init(name: "V", value: "_a,N")], "a value holding the separator"),
      ([type, .init(name: "V", value: "_a\0b")], "a value holding a NUL"),
      ([type, .init(name: "N"), .init(name: "N")], "a name given twice"),
      ([type, .init(name: "T", value: "q")], "the type given twice"),
    ] {
      #expect(!class_addProperty(cls, "depth", attributes), "\(why)")
    }
    #expect(!class_addProperty(cls, "a\0b", [type]), "a NUL in the name")
    #expect(class_copyPropertyList(cls).isEmpty, "nothing was added")
    #expect(
      class_addProperty(cls, "depth", [type, .init(name: "&"), .init(name: "V", value: "_d")]))
    #expect(class_getProperty(cls, "depth")?.attributeString == "Td,&,V_d")
  }

  @Test("a disposed class takes no new property")
  func disposedClass() throws {
    let cls = try #require(objc_allocateClassPair(ObjCObject.runtimeClass, "PropertyGone", 0))
    objc_registerClassPair(cls)
    objc_disposeClassPair(cls)
    #expect(throws: ObjCRuntimeError.classDisposed(className: "PropertyGone")) {
      try cls.addProperty("late", attributes: [.init(name: "T", value: "q")])
    }
  }
}
