// Ports of objc4's association.m and libobjc2's AssociatedObject checks, plus the policy matrix.
import Dispatch
import Testing

@testable import ObjCRuntime

/// Records deinits, so that tests can see when a value or holder is released, and in what order.
private final class DeinitLog: Sendable {
  private let entries = RuntimeLock<[String]>([])
  func record(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
  func count(of entry: String) -> Int { all.filter { $0 == entry }.count }
}

private final class Tracked: ObjCCopying {
  let name: String
  let log: DeinitLog
  init(_ name: String, _ log: DeinitLog) {
    self.name = name
    self.log = log
  }
  func copy() -> AnyObject { Tracked(name + " copy", log) }
  deinit { log.record(name) }
}

private final class NotCopyable {}

private final class Holder: ObjCObject {
  var log: DeinitLog?
  deinit { log?.record("holder") }
}

nonisolated(unsafe) private var staticKey: UInt8 = 0
// nonisolated(unsafe): never read or written; only its address is used, as a key.
nonisolated(unsafe) private var otherKey: UInt8 = 0
// nonisolated(unsafe): as `staticKey`, only its address is used.

private let colorKey = AssociatedKey<String>(default: "white")
private let optionalKey = AssociatedKey<Tracked?>()
private let holderKey = AssociatedKey<Holder>(default: Holder())

@Suite("Associated objects", .serialized)
struct AssociatedObjectTests {
  @Test("RETAIN keeps the value alive until the holder dies")
  func retainKeepsAlive() {
    let log = DeinitLog()
    var holder: Holder? = Holder()
    holder?.log = log
    objc_setAssociatedObject(holder, &staticKey, Tracked("value", log), .retain)
    #expect(log.all.isEmpty)
    #expect((objc_getAssociatedObject(holder, &staticKey) as? Tracked)?.name == "value")
    holder = nil
    #expect(log.all == ["holder", "value"])
  }

  @Test("an object inside an existential (a class-bound protocol's, Any's) is stored as itself")
  func objectInsideExistential() {
    let log = DeinitLog()
    var holder: Holder? = Holder()
    holder?.log = log
    // A generic wrapper called with V = Any, or with a protocol existential, hands the setter
    // an Any that holds an existential, not the class.
    func keep<Value>(_ value: Value, _ key: UnsafeRawPointer) {
      objc_setAssociatedObject(holder, key, value, .retain)
    }
    do {
      let boxed: Any = Tracked("inside Any", log)
      keep(boxed, &staticKey)
      let bound: any ObjCCopying = Tracked("inside a protocol", log)
      keep(bound, &otherKey)
    }
    #expect((objc_getAssociatedObject(holder, &staticKey) as? Tracked)?.name == "inside Any")
    #expect((objc_getAssociatedObject(holder, &otherKey) as? Tracked)?.name == "inside a protocol")
    holder = nil
    #expect(log.count(of: "inside Any") == 1 && log.count(of: "inside a protocol") == 1)
  }

  @Test("ASSIGN does not retain: a read after the value died returns nil, not a dangling pointer")
  func assignDoesNotRetain() {
    let log = DeinitLog()
    let holder = Holder()
    var value: Tracked? = Tracked("value", log)
    objc_setAssociatedObject(holder, &staticKey, value, .assign)
    #expect(objc_getAssociatedObject(holder, &staticKey) as? Tracked === value)
    value = nil
    #expect(log.all == ["value"])
    #expect(objc_getAssociatedObject(holder, &staticKey) == nil)
  }

  @Test("COPY stores a copy; a value that cannot be copied is refused and changes nothing")
  func copyPolicy() throws {
    let log = DeinitLog()
    let holder = Holder()
    let original = Tracked("original", log)
    for policy in [objc_AssociationPolicy.copy, .copyNonatomic] {
      objc_setAssociatedObject(holder, &staticKey, original, policy)
      let stored = objc_getAssociatedObject(holder, &staticKey) as? Tracked
      #expect(stored !== original)
      #expect(stored?.name == "original copy")
    }
    #expect(throws: ObjCRuntimeError.notCopyable(valueType: "NotCopyable", objectClass: "Holder")) {
      try holder.setAssociatedValue(NotCopyable(), forKey: &staticKey, policy: .copy)
    }
    #expect((objc_getAssociatedObject(holder, &staticKey) as? Tracked)?.name == "original copy")
  }

  @Test("value types are stored as values under every policy")
  func valueTypes() {
    let holder = Holder()
    for policy in [objc_AssociationPolicy.assign, .retainNonatomic, .copyNonatomic, .retain, .copy]
    {
      objc_setAssociatedObject(holder, &staticKey, 1223, policy)
      #expect(objc_getAssociatedObject(holder, &staticKey) as? Int == 1223)
    }
    objc_setAssociatedObject(holder, &staticKey, "text", .retain)
    #expect(objc_getAssociatedObject(holder, &staticKey) as? String == "text")
  }

  @Test("an ASSIGN value survives class_addMethod on the holder's class (libobjc2)")
  func survivesAddMethod() {
    let cls = makeClass("AssociationAddMethod")
    let holder = instance(of: cls)
    objc_setAssociatedObject(holder, &staticKey, 1223, .assign)
    class_addMethod(cls, "added", Constant.imp(Constant.one), "q@:")
    #expect(objc_getAssociatedObject(holder, &staticKey) as? Int == 1223)
  }

  @Test("setting nil erases the key and releases the old value at once")
  func settingNil() {
    let log = DeinitLog()
    let holder = Holder()
    objc_setAssociatedObject(holder, &staticKey, Tracked("value", log), .retain)
    objc_setAssociatedObject(holder, &staticKey, nil, .assign)
    #expect(log.all == ["value"])
    #expect(objc_getAssociatedObject(holder, &staticKey) == nil)
  }

  @Test("overwriting releases the old value")
  func overwriting() {
    let log = DeinitLog()
    let holder = Holder()
    objc_setAssociatedObject(holder, &staticKey, Tracked("first", log), .retain)
    objc_setAssociatedObject(holder, &staticKey, Tracked("second", log), .retain)
    #expect(log.all == ["first"])
  }

  @Test("20 keys on one object each hold their own value, and all are released on dealloc")
  func twentyKeys() {
    let log = DeinitLog()
    var holder: Holder? = Holder()
    let keys = (0..<20).map { Selector("association.key\($0)") }
    var values: [Tracked]? = (0..<20).map { Tracked("value\($0)", log) }
    for (key, value) in zip(keys, values!) {
      objc_setAssociatedObject(holder, key, value, .retain)
    }
    for (key, value) in zip(keys, values!) {
      #expect(objc_getAssociatedObject(holder, key) as? Tracked === value)
    }
    values = nil
    #expect(log.all.isEmpty)  // the associations alone keep the twenty values alive
    holder = nil
    #expect(Set(log.all) == Set((0..<20).map { "value\($0)" }))
  }

  @Test("associations survive isa-swizzling, in both orders")
  func surviveSetClass() throws {
    let log = DeinitLog()
    let dynamic = makeClass("AssociationDynamic")
    let first = instance(of: makeClass("AssociationPlain"))
    objc_setAssociatedObject(first, &staticKey, Tracked("before", log), .retain)
    object_setClass(first, dynamic)
    #expect((objc_getAssociatedObject(first, &staticKey) as? Tracked)?.name == "before")

    let second = instance(of: dynamic)
    object_setClass(second, TestObject.runtimeClass)
    objc_setAssociatedObject(second, &staticKey, Tracked("after", log), .retain)
    object_setClass(second, dynamic)
    #expect((objc_getAssociatedObject(second, &staticKey) as? Tracked)?.name == "after")
  }

  @Test("keys are compared by address: a static, a selector and a typed key never collide")
  func keysByAddress() {
    let holder = Holder()
    let selectorKey = UnsafeRawPointer(Selector("association.selectorKey").sel)
    objc_setAssociatedObject(holder, &staticKey, 1, .retain)
    objc_setAssociatedObject(holder, selectorKey, 2, .retain)
    holder[colorKey] = "blue"
    #expect(objc_getAssociatedObject(holder, &staticKey) as? Int == 1)
    #expect(objc_getAssociatedObject(holder, selectorKey) as? Int == 2)
    #expect(objc_getAssociatedObject(holder, colorKey.address) as? String == "blue")
  }

  @Test("a typed key reads its default until set, and nil erases an optional one")
  func typedKeys() {
    let log = DeinitLog()
    let holder = Holder()
    #expect(holder[colorKey] == "white")
    holder[colorKey] = "black"
    #expect(holder[colorKey] == "black")
    #expect(holder[optionalKey] == nil)
    holder[optionalKey] = Tracked("tracked", log)
    #expect(holder[optionalKey]?.name == "tracked")
    holder[optionalKey] = nil
    #expect(log.all == ["tracked"])
    #expect(holder[optionalKey] == nil)
  }

  @Test("a typed key answers its default for a value of another type set through the C API")
  func typedKeysCheckTheType() {
    let log = DeinitLog()
    let holder = Holder()
    let other = Holder()
    objc_setAssociatedObject(holder, optionalKey.address, Holder(), .retain)
    #expect(holder[optionalKey] == nil, "a Holder is not a Tracked")
    objc_setAssociatedObject(holder, holderKey.address, Tracked("other", log), .retain)
    #expect(holder[holderKey] === holderKey.defaultValue)
    holder[holderKey] = other
    #expect(holder[holderKey] === other)
    objc_setAssociatedObject(holder, colorKey.address, 42, .retain)
    #expect(holder[colorKey] == "white", "an Int is not a String")
    objc_setAssociatedObject(holder, colorKey.address, "set through the C API", .retain)
    #expect(holder[colorKey] == "set through the C API")
  }

  @Test("objc_removeAssociatedObjects releases every value; nil objects are tolerated")
  func removeAll() {
    let log = DeinitLog()
    let holder = Holder()
    objc_setAssociatedObject(holder, &staticKey, Tracked("a", log), .retain)
    holder[optionalKey] = Tracked("b", log)
    objc_removeAssociatedObjects(holder)
    #expect(Set(log.all) == ["a", "b"])
    #expect(objc_getAssociatedObject(holder, &staticKey) == nil)
    objc_setAssociatedObject(nil, &staticKey, 1, .retain)
    #expect(objc_getAssociatedObject(nil, &staticKey) == nil)
    objc_removeAssociatedObjects(nil)
  }

  @Test("the non-atomic read returns the object itself without retaining it")
  func unretainedRead() {
    let log = DeinitLog()
    let holder = Holder()
    var value = Tracked("value", log)
    objc_setAssociatedObject(holder, &staticKey, value, .retainNonatomic)
    let read = holder.unretainedAssociatedObject(forKey: &staticKey)
    #expect(read?.toOpaque() == Unmanaged.passUnretained(value).toOpaque())
    // Only the association holds the value besides `value`: reading took no reference.
    objc_setAssociatedObject(holder, &staticKey, nil, .retainNonatomic)
    #expect(isKnownUniquelyReferenced(&value))
    #expect(holder.unretainedAssociatedObject(forKey: &staticKey) == nil)
  }

  @Test("the non-atomic read is nil for values, missing keys and dead ASSIGN objects")
  func unretainedReadMisses() {
    let log = DeinitLog()
    let holder = Holder()
    objc_setAssociatedObject(holder, &staticKey, 42, .retain)
    #expect(holder.unretainedAssociatedObject(forKey: &staticKey) == nil)
    #expect(holder.unretainedAssociatedObject(forKey: colorKey.address) == nil)
    var value: Tracked? = Tracked("value", log)
    objc_setAssociatedObject(holder, &staticKey, value, .assign)
    #expect(
      holder.unretainedAssociatedObject(forKey: &staticKey)?.toOpaque()
        == value.map { Unmanaged.passUnretained($0).toOpaque() })
    value = nil
    #expect(holder.unretainedAssociatedObject(forKey: &staticKey) == nil)
  }

  @Test("100,000 objects with 3 associations each leave no live association behind")
  func noLeaks() {
    let before = Associations.liveCount
    let log = DeinitLog()
    var shared = Tracked("shared", log)
    for index in 0..<100_000 {
      let holder = Holder()
      objc_setAssociatedObject(holder, &staticKey, shared, .retain)
      holder[colorKey] = "red"
      objc_setAssociatedObject(
        holder, UnsafeRawPointer(bitPattern: 0x1000 + index % 7)!, index, .assign)
    }
    // Other suites running in parallel make and drop associations of their own (one holds 10,000
    // at a time, which a run under ThreadSanitizer on a wide pool overlapped); a leak here would
    // leave 300,000.
    #expect(abs(Associations.liveCount - before) < 100_000)
    #expect(isKnownUniquelyReferenced(&shared), "no association still retains the shared value")
    #expect(log.all.isEmpty)
  }

  @Test("concurrent set, get and remove, with values dying under readers, stay consistent")
  func concurrency() {
    let log = DeinitLog()
    let holders = Shared(value: HolderList((0..<4).map { _ in Holder() }))
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for round in 0..<5_000 {
        let holder = holders.value.items[round % 4]
        switch (worker + round) % 4 {
        case 0: objc_setAssociatedObject(holder, &staticKey, Tracked("v", log), .retain)
        case 1: _ = (objc_getAssociatedObject(holder, &staticKey) as? Tracked)?.name.count
        case 2: holder[colorKey] = "c\(round)"
        default:
          if round % 100 == 0 { objc_removeAssociatedObjects(holder) }
          _ = holder[colorKey]
        }
      }
    }
    for holder in holders.value.items { objc_removeAssociatedObjects(holder) }
    #expect(log.count(of: "v") > 0)
  }
}

/// An immutable list of holders to share with worker threads.
private final class HolderList {
  let items: [Holder]
  init(_ items: [Holder]) { self.items = items }
}
