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

/// Two unrelated classes whose IMPs read their own stored properties.
private final class Thermostat: ObjCObject {
  var celsius = 21.5
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Thermostat.self) { ObjCMethodDeclaration("reading", Thermostat.reading) }
  }
  static let reading: @convention(c) (id, SEL) -> Double = { me, _ in
    unsafeDowncast(me.takeUnretainedObject(), to: Thermostat.self).celsius
  }
}

private final class Wallet: ObjCObject {
  var coins: [Double] = [1, 2]
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Wallet.self) { ObjCMethodDeclaration("total", Wallet.total) }
  }
  static let total: @convention(c) (id, SEL) -> Double = { me, _ in
    unsafeDowncast(me.takeUnretainedObject(), to: Wallet.self).coins.reduce(0, +)
  }
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

  @Test("an IMP is never exchanged or set into a method of an unrelated Swift class")
  func unrelatedStorage() throws {
    let reading = try #require(class_getInstanceMethod(Thermostat.runtimeClass, "reading"))
    let total = try #require(class_getInstanceMethod(Wallet.runtimeClass, "total"))
    let readingIMP = try #require(reading.implementation)
    let totalIMP = try #require(total.implementation)
    #expect(throws: ObjCRuntimeError.self) { try reading.exchangeImplementation(with: total) }
    let (_, refused) = Diagnostics.collecting(kind: .refusedCall) {
      method_exchangeImplementations(reading, total)
      #expect(method_setImplementation(total, readingIMP) == nil)
    }
    let mine = refused.filter { ["reading", "total"].contains($0.method?.selectorName) }
    #expect(mine.count == 2, "both calls refused, each naming its method")
    #expect(!total.setImplementation(readingIMP, ifCurrent: totalIMP))
    #expect(reading.implementation == readingIMP && total.implementation == totalIMP)
    #expect(try objc_msgSend(Wallet(), "total") as Double == 3, "the wallet still adds coins")
    // A closure IMP checks its receiver on each call, so it may go anywhere.
    let closure = try imp_implementationWithBlock { (_: ObjCObject) -> Double in 7 }
    defer { imp_removeBlock(closure) }
    let replaced = try total.setImplementation(closure)
    #expect(try objc_msgSend(Wallet(), "total") as Double == 7)
    _ = try total.setImplementation(try #require(replaced))
  }

  @Test("a disposed class pair is freed once nobody holds it; a method held keeps it valid")
  func disposedClassesAreFreed() throws {
    weak var freed: Class?
    var method: Method?
    do {
      let cls = try #require(
        objc_allocateClassPair(TestObject.runtimeClass, UniqueName.make("Freed"), 0))
      #expect(class_addMethod(cls, "one", Constant.imp(Constant.one), "q@:"))
      objc_registerClassPair(cls)
      method = class_getInstanceMethod(cls, "one")
      try cls.dispose()
      freed = cls
    }
    #expect(freed != nil, "the method held keeps its class")
    #expect(method?.owner.name.hasPrefix("Freed") == true)
    method = nil
    #expect(freed == nil, "then the class pair goes")
  }

  #if DEBUG
    @Test("a raw function pointer given to the wrong class stops with both classes named")
    func receiverCheck() async {
      await #expect(processExitsWith: .failure) {
        // Never declared, so the runtime cannot know whose receiver this function expects.
        let raw: @convention(c) (id, SEL) -> Double = { me, _ in
          me.receiver(as: Wallet.self).coins.reduce(0, +)
        }
        let method = class_getInstanceMethod(Thermostat.runtimeClass, "reading")!
        _ = try method.setImplementation(
          IMP(rawValue: unsafeBitCast(raw, to: UnsafeRawPointer.self)))
        _ = try objc_msgSend(Thermostat(), "reading") as Double
      }
    }
  #endif
}
