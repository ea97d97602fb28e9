// The internal checks: in a build with SWIZZLEKIT_INTERNAL_CHECKS (one of .ci/run's test runs),
// a broken invariant stops the process instead of going on.
import Testing

@testable import ObjCRuntime

@Suite("Internal checks")
struct InternalChecksTests {
  @Test(
    "a function that needs the runtime lock, called without it, stops the process",
    .enabled(if: InternalChecks.isEnabled))
  func lockRequired() async {
    await #expect(processExitsWith: .failure) {
      _ = TestObject.runtimeClass.flushCachesOfSubtree()
    }
  }

  @Test(
    "a method of another class's chain offered to a cache stops the process",
    .enabled(if: InternalChecks.isEnabled))
  func cacheEntries() async {
    await #expect(processExitsWith: .failure) {
      let stranger = makeClass("Stranger", methods: [("one", Constant.one)])
      let method = class_getInstanceMethod(stranger, "one")!
      InternalChecks.checkCacheEntry(method, for: TestObject.runtimeClass)
    }
  }

  // The checks do nothing without the flag: gated as its siblings are, so that it cannot pass
  // for nothing.
  @Test("the checks hold for the classes the process has", .enabled(if: InternalChecks.isEnabled))
  func shapes() {
    for cls in objc_copyClassList() { InternalChecks.checkShape(of: cls) }
  }
}
