// Sends racing exchanges, adds and cache flushes: every result is the old IMP's or the new one's.
import Dispatch
import Synchronization
import Testing

@testable import ObjCRuntime

@Suite("Concurrency")
struct ConcurrencyTests {
  @Test("1,000,000 sends on 3 threads race 100,000 exchanges on a 4th; every result is valid")
  func sendsRaceExchanges() {
    // IMPs of this test's own: the shared `Constant`s may be declared elsewhere for other
    // receivers, and the runtime then refuses to exchange them here (the receivers rule), which
    // would leave nothing racing.
    let cls = makeClass("Racing", methods: [("first", RacingIMPs.one), ("second", RacingIMPs.two)])
    let object = instance(of: cls)
    let shared = Shared(value: object)
    let first = class_getInstanceMethod(cls, "first")
    let second = class_getInstanceMethod(cls, "second")
    let invalid = Atomic(0)
    let sends = Atomic(0)
    let (_, refused) = Diagnostics.collecting(kind: .refusedCall) {
      DispatchQueue.concurrentPerform(iterations: 4) { worker in
        if worker == 0 {
          for _ in 0..<100_000 {
            method_exchangeImplementations(first, second)
          }
          return
        }
        var bad = 0
        var count = 0
        let selector: Selector = worker == 1 ? "second" : "first"
        for _ in 0..<333_334 {
          switch try? objc_msgSend(shared.value, selector) as Int {
          case 1?, 2?: break
          default: bad += 1
          }
          count += 1
        }
        invalid.add(bad, ordering: .relaxed)
        sends.add(count, ordering: .relaxed)
      }
    }
    #expect(invalid.load(ordering: .relaxed) == 0)
    #expect(sends.load(ordering: .relaxed) >= 1_000_000)
    #expect(!refused.contains { $0.message.contains(cls.name) }, "every exchange took place")
    // An even number of exchanges: back where we started.
    #expect(sendInt(object, "first") == 1)
  }

  @Test("sends race class_addMethod, cache flushes and growth on a subclass")
  func sendsRaceAdds() {
    let base = makeClass("AddRaceBase", methods: [("value", Constant.one)])
    let sub = makeClass("AddRaceSub", superclass: base)
    let object = instance(of: sub)
    let shared = Shared(value: object)
    let invalid = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      if worker == 0 {
        for index in 0..<2_000 {
          class_addMethod(base, Selector("added\(index)"), Constant.imp(Constant.three), "q@:")
        }
        class_addMethod(sub, "value", Constant.imp(Constant.two), "q@:")
        return
      }
      var bad = 0
      for index in 0..<100_000 {
        switch try? objc_msgSend(shared.value, "value") as Int {
        case 1?, 2?: break
        default: bad += 1
        }
        if index % 50 == 0,
          let added = try? objc_msgSend(shared.value, Selector("added\(index / 50)")) as Int,
          added != 3
        {
          bad += 1
        }
      }
      invalid.add(bad, ordering: .relaxed)
    }
    #expect(invalid.load(ordering: .relaxed) == 0)
    #expect(sendInt(object, "value") == 2)
  }

  @Test("isa-swizzling while other threads send gives one class's answer or the other's")
  func sendsRaceSetClass() throws {
    let one = makeClass("IsaOne", methods: [("value", Constant.one)])
    let two = makeClass("IsaTwo", methods: [("value", Constant.two)])
    let object = instance(of: one)
    let shared = Shared(value: object)
    let invalid = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 3) { worker in
      if worker == 0 {
        for index in 0..<50_000 {
          object_setClass(shared.value, index.isMultiple(of: 2) ? two : one)
        }
        return
      }
      var bad = 0
      for _ in 0..<200_000 {
        switch try? objc_msgSend(shared.value, "value") as Int {
        case 1?, 2?: break
        default: bad += 1
        }
      }
      invalid.add(bad, ordering: .relaxed)
    }
    #expect(invalid.load(ordering: .relaxed) == 0)
  }

  @Test("classes realized from many threads at once are made once")
  func concurrentRealization() {
    final class RealizedConcurrently: ObjCObject {}
    let classes = RuntimeLock<[ObjectIdentifier]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let cls = RealizedConcurrently.runtimeClass
      classes.withLock { $0.append(ObjectIdentifier(cls)) }
    }
    #expect(Set(classes.withLock { $0 }).count == 1)
  }
}

/// The racing test's own IMPs.
private enum RacingIMPs {
  static let one: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
  static let two: @convention(c) (id, SEL) -> Int = { _, _ in 2 }
}
