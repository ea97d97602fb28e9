// Inputs that used to crash the process or corrupt memory, found by a hostile user: each now gets
// a typed error and changes nothing.
import ObjCRuntime
import Testing

/// The encodings a hostile user builds: nesting `depth` levels deep, balanced or not.
private func deepEncodings(depth: Int) -> [(String, String)] {
  [
    (
      "balanced structs",
      String(repeating: "{a=", count: depth) + "i"
        + String(repeating: "}", count: depth)
    ),
    ("unbalanced structs", String(repeating: "{a=", count: depth)),
    ("pointers", String(repeating: "^", count: depth) + "i"),
    ("arrays", String(repeating: "[1", count: depth) + "i" + String(repeating: "]", count: depth)),
    ("unions", String(repeating: "(u=", count: depth) + "i" + String(repeating: ")", count: depth)),
  ]
}

@Suite("Reliability")
struct ReliabilityTests {
  @Test(
    "encodings nested thousands of levels deep are refused with the limit named, never a crash",
    arguments: [65, 2_000, 100_000])
  func deepNesting(depth: Int) throws {
    let cls = makeClass("DeepNesting")
    for (kind, nested) in deepEncodings(depth: depth) {
      let method = "v@:" + nested
      do {
        _ = try MethodEncoding(parsing: method)
        Issue.record("\(kind): parsed")
      } catch {
        guard case .malformedTypeEncoding(_, _, let expected) = error else {
          Issue.record("\(kind): \(error)")
          continue
        }
        #expect(expected.contains("at most 64 levels"), "\(kind)")
        #expect(error.description.count < 400, "\(kind): the message shows the start only")
      }
      #expect(!class_addMethod(cls, "deep", Constant.imp(Constant.one), method), "\(kind)")
      #expect(throws: ObjCRuntimeError.self, "\(kind)") {
        try cls.addMethod("deep", implementation: nil, types: method)
      }
      #expect(throws: ObjCRuntimeError.self, "\(kind)") { try MethodSignature(types: method) }
      #expect(throws: ObjCRuntimeError.self, "\(kind)") {
        try Interceptor(types: method) { _ in }
      }
    }
    #expect(class_copyMethodList(cls).isEmpty, "nothing was added")
  }

  @Test("64 levels are accepted; the 65th is refused")
  func depthLimit() throws {
    let accepted = String(repeating: "^", count: 63) + "{a=i}"
    #expect(throws: Never.self) { try MethodEncoding(parsing: "v@:" + accepted) }
    #expect(TypeEncodingLimits.maximumDepth == 64)
    #expect(throws: ObjCRuntimeError.self) { try MethodEncoding(parsing: "v@:^" + accepted) }
  }

  @Test("sizes that overflow are refused; the largest type that fits parses")
  func hugeSizes() throws {
    for encoding in [
      "v@:{a=[16777216[16777216[16777216c]]]}", "v@:[16777216[16777216[16777216q]]]",
      "v@:{a=[16777216[16777216c]][16777216[16777216c]]}",
    ] {
      #expect(throws: ObjCRuntimeError.self, "\(encoding)") {
        try MethodEncoding(parsing: encoding)
      }
    }
    let large = try MethodEncoding(parsing: "v@:{a=[16777216[64c]]}")
    #expect(large.argumentDescriptors[2].size == 1 << 30)
    #expect(ObjCTypeDescriptor.array(count: .max, element: .double).size == .max, "saturates")
  }

  @Test("a struct too large to pass by value is refused by invocations and interceptors")
  func largeByValue() throws {
    let types = "v@:{big=[100000c]}"
    let signature = try MethodSignature(types: types)
    #expect(throws: ObjCRuntimeError.self) { try Invocation(methodSignature: signature) }
    #expect(throws: ObjCRuntimeError.self) { try Interceptor(types: types) { _ in } }
    let many = "v@:" + String(repeating: "i", count: 1_000)
    #expect(throws: ObjCRuntimeError.self) { try Interceptor(types: many) { _ in } }
  }

  @Test("class_addIvar with a size near Int.max is refused, and the class is unchanged")
  func ivarOverflow() throws {
    let cls = try #require(objc_allocateClassPair(TestObject.runtimeClass, "IvarOverflow", 0))
    defer { objc_disposeClassPair(cls) }
    let before = class_getInstanceSize(cls)
    for size in [Int.max, Int.max - 8, Int(UInt32.max) + 1, -1] {
      #expect(!class_addIvar(cls, "huge", size, 3, "c"), "\(size)")
    }
    #expect(class_addIvar(cls, "small", 8, 3, "q"))
    #expect(!class_addIvar(cls, "almost", Int(UInt32.max) - 4, 0, "c"), "the sum is too large")
    #expect(class_copyIvarList(cls).map(\.name) == ["small"])
    #expect(class_getInstanceSize(cls) == (before + 7) / 8 * 8 + 8, "only the small ivar counts")
  }

  @Test("disposing of a class twice is refused; a disposed class cannot be set on an object")
  func disposedClasses() throws {
    let cls = try #require(
      objc_allocateClassPair(TestObject.runtimeClass, UniqueName.make("Disposed"), 0))
    objc_registerClassPair(cls)
    try cls.dispose()
    #expect(throws: ObjCRuntimeError.classDisposed(className: cls.name)) { try cls.dispose() }
    let object = TestObject()
    let original = object_getClass(object)
    #expect(throws: ObjCRuntimeError.classDisposed(className: cls.name)) {
      try object.setClass(cls)
    }
    #expect(object_setClass(object, cls) == nil)
    #expect(object_getClass(object) === original, "the object keeps its class")
  }
}
