// The ways of a hooked call on the registers (SiteSnapshot.RegisterWay): class-wide typed hooks
// run without looking for the receiver's own hooks, inline when there is no instead hook (the
// short way, HookSite.intercept(registers:)) and from the chain's outermost link when there is
// one (HookSite.interceptClassChain); per-object hooks alone at a site run around the original
// (HookSite.interceptObjectHooks); any other mix goes the general way.
import ObjCRuntime
import Testing

@testable import Hooks

extension HookRegistersTests {
  @Test("class-wide before and after hooks take the short way; a once hook runs once on it")
  func classHooksOnlyShortWay() throws {
    // No per-object hook at the site and no instead hook: the site runs the lists without
    // looking for the receiver's hooks. A once hook there claims its one run and removes itself,
    // and the other hooks go on.
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let seen = Journal()
    let once = try Narrow.hook(before: "sum:b:c:", in: cls, options: .once) {
      (_, a: Int, _: Int, _: Int) in seen.note("once \(a)")
    }
    let after = try Narrow.hook(after: "sum:b:c:", in: cls) { (_, a: Int, _: Int, _: Int) in
      seen.note("after \(a)")
    }
    #expect(registerWay(cls, "sum:b:c:") == .classHooks)
    #expect(!after.hasFired && !once.hasFired)
    #expect(object.sum(1, 2, 3) == 6)
    #expect(object.sum(4, 5, 6) == 15)
    #expect(seen.take() == ["once 1", "after 1", "after 4"])
    #expect(once.hasFired && !once.isActive)
    #expect(after.hasFired)
    expectRegisterCalls(2, cls, "sum:b:c:", way: .classHooks)

    // A per-object hook is at the site of the object's own subclass, whose calls look for their
    // receiver's hooks, and then reach the class's site, which still takes the short way.
    let other = Narrow.make(cls)
    let mine = try other.hook(before: "sum:b:c:") { (_: Narrow, a: Int, _: Int, _: Int) in
      seen.note("mine \(a)")
    }
    let layer = object_getClass(other)!
    #expect(layer !== cls)
    #expect(registerWay(layer, "sum:b:c:") == .objectHooks)
    #expect(registerWay(cls, "sum:b:c:") == .classHooks)
    #expect(object.sum(7, 0, 0) == 7 && other.sum(8, 0, 0) == 8)
    #expect(seen.take() == ["after 7", "mine 8", "after 8"])
    expectRegisterCalls(4, cls, "sum:b:c:", way: .classHooks)
    expectRegisterCalls(1, layer, "sum:b:c:", way: .objectHooks)
    mine.remove()

    // A class-wide instead hook takes the class's calls off the short way, and its removal puts
    // them back.
    let instead = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      original(a, b, c) + 1
    }
    #expect(registerWay(cls, "sum:b:c:") == .classChain)
    #expect(object.sum(1, 1, 1) == 4)
    expectRegisterCalls(1, cls, "sum:b:c:", way: .classChain)
    instead.remove()
    #expect(registerWay(cls, "sum:b:c:") == .classHooks)
    #expect(object.sum(1, 1, 1) == 3)
    #expect(seen.take() == ["after 1", "after 1"])
    after.remove()
  }

  @Test("a class-wide instead chain takes its own way, in order; a once link that ran passes on")
  func classChainWay() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let seen = Journal()
    let before = try Narrow.hook(before: "sum:b:c:", in: cls) { (_, a: Int, _: Int, _: Int) in
      seen.note("before \(a)")
    }
    let inner = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      seen.note("inner \(a)")
      return original(a, b, c) * 2
    }
    let outer = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      seen.note("outer \(a)")
      return original(a + 1, b, c) + 1
    }
    let after = try Narrow.hook(after: "sum:b:c:", in: cls) { (_, a: Int, _: Int, _: Int) in
      seen.note("after \(a)")
    }
    #expect(registerWay(cls, "sum:b:c:") == .classChain)
    // The outer link changes the first argument for the inner one, which the after hook sees.
    #expect(object.sum(1, 2, 3) == (2 + 2 + 3) * 2 + 1)
    #expect(seen.take() == ["before 1", "outer 1", "inner 2", "after 2"])
    expectRegisterCalls(1, cls, "sum:b:c:", way: .classChain)
    expectRegisterCalls(1, cls, "sum:b:c:", "no other way")

    // The chain alone, without hooks around it (its own function of the way): the same links
    // in the same order.
    before.remove()
    after.remove()
    #expect(registerWay(cls, "sum:b:c:") == .classChain)
    #expect(object.sum(1, 2, 3) == (2 + 2 + 3) * 2 + 1)
    #expect(seen.take() == ["outer 1", "inner 2"])
    expectRegisterCalls(2, cls, "sum:b:c:", way: .classChain)
    expectRegisterCalls(2, cls, "sum:b:c:", "no other way")
    for token in [inner, outer] { token.remove() }
    #expect(registerWay(cls, "sum:b:c:") == .classHooks)

    // A once link alone, entered again from its own run: the inner call finds it fired and
    // goes on to the original, the last link's way out.
    let once = try Narrow.hook(instead: "sum:b:c:", in: cls, options: .once) {
      (original: HookOriginal<Int, Int, Int, Int>, me, a: Int, b: Int, c: Int) in
      seen.note("once \(a)")
      return original(a, b, c) + me.sum(a + 10, b, c)
    }
    defer { once.remove() }
    #expect(registerWay(cls, "sum:b:c:") == .classChain)
    #expect(object.sum(1, 2, 3) == 6 + 16)
    #expect(seen.take() == ["once 1"])
    expectRegisterCalls(
      4, cls, "sum:b:c:", way: .classChain, "the two calls before, then the outer and the inner")
    #expect(object.sum(1, 2, 3) == 6)
    #expect(seen.take() == [])
  }

  @Test("per-object hooks take their own way; a per-object instead hook goes the general way")
  func objectHooksWay() throws {
    let cls = Narrow.freshClass()
    let first = Narrow.make(cls)
    let second = Narrow.make(cls)
    let seen = Journal()
    let before = try first.hook(before: "sum:b:c:") { (_: Narrow, a: Int, _: Int, _: Int) in
      seen.note("first before \(a)")
    }
    let after = try first.hook(after: "sum:b:c:") { (_: Narrow, a: Int, _: Int, _: Int) in
      seen.note("first after \(a)")
    }
    let instead = try second.hook(instead: "sum:b:c:") {
      (original: HookOriginal<Int, Int, Int, Int>, _: Narrow, a: Int, b: Int, c: Int) in
      seen.note("second instead \(a)")
      return original(a, b, c) * 10
    }
    let layer = object_getClass(first)!
    #expect(object_getClass(second) === layer)
    #expect(registerWay(layer, "sum:b:c:") == .objectHooks)

    #expect(first.sum(1, 2, 3) == 6)
    #expect(seen.take() == ["first before 1", "first after 1"])
    expectRegisterCalls(1, layer, "sum:b:c:", way: .objectHooks)
    // The second object's instead hook goes the general way, on the registers too.
    #expect(second.sum(1, 2, 3) == 60)
    #expect(seen.take() == ["second instead 1"])
    expectRegisterCalls(1, layer, "sum:b:c:", way: .general)

    // With its hooks gone, the first object is back in its class, whose site has no hooks:
    // the layer counts none of its calls. The second one's hook keeps the per-object way.
    before.remove()
    after.remove()
    #expect(object_getClass(first) === cls)
    #expect(registerWay(layer, "sum:b:c:") == .objectHooks)
    #expect(first.sum(4, 5, 6) == 15)
    #expect(seen.take() == [])
    expectRegisterCalls(2, layer, "sum:b:c:", "the layer counted no call of the first object")
    instead.remove()
    #expect(second.sum(4, 5, 6) == 15)
    #expect(seen.take() == [])
  }
}
