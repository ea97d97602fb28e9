// Static objects: records foreign code laid out, made immortal objects of the runtime in place.
import ObjCRuntime
import Testing

@Suite("StaticObjects")
struct StaticObjectsTests {
  @Test("a zeroed record is no static object, before and after one was made")
  func zeroedRecord() throws {
    let zeroed = UnsafeMutableRawPointer.allocate(byteCount: StaticObjects.size, alignment: 8)
    defer { zeroed.deallocate() }
    zeroed.initializeMemory(as: UInt8.self, repeating: 0, count: StaticObjects.size)
    #expect(!StaticObjects.isStatic(at: zeroed))
    let record = UnsafeMutableRawPointer.allocate(byteCount: StaticObjects.size, alignment: 8)
    // Never freed: a static object lives as long as the process.
    _ = try StaticObjects.make(at: record, class: ObjCObject.runtimeClass)
    #expect(StaticObjects.isStatic(at: record))
    #expect(!StaticObjects.isStatic(at: zeroed))
  }

  @Test("a static object answers sends, survives retains and releases, and refuses associations")
  func behavesAsAnObject() throws {
    let record = UnsafeMutableRawPointer.allocate(byteCount: StaticObjects.size, alignment: 8)
    let object = try StaticObjects.make(at: record, class: ObjCObject.runtimeClass)
    #expect(StaticObjects.isStatic(object))
    #expect(object.objcClass === ObjCObject.runtimeClass)
    #expect(try objc_msgSend(object, "hash") as UInt == UInt(bitPattern: record))
    for _ in 0..<3 { _ = Unmanaged.passUnretained(object).retain() }
    for _ in 0..<5 { Unmanaged.passUnretained(object).release() }
    #expect(object.isKind(of: ObjCObject.runtimeClass))
    objc_setAssociatedObject(object, "key", 1, .OBJC_ASSOCIATION_RETAIN)
    #expect(objc_getAssociatedObject(object, "key") == nil)
  }

  @Test("misaligned memory and a metaclass are refused, nothing written")
  func refusals() {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 8)
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 32)
    #expect(throws: ObjCRuntimeError.self) {
      try StaticObjects.make(at: buffer + 1, class: ObjCObject.runtimeClass)
    }
    #expect(throws: ObjCRuntimeError.self) {
      try StaticObjects.make(at: buffer, class: ObjCObject.runtimeClass.metaclass)
    }
    #expect(buffer.load(as: UInt.self) == 0)
  }
}
