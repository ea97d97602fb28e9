// The soak: a million rounds of the operations a long-running program repeats (exchanges, hook
// installs and removals, untyped and typed, class-wide and per object, association sets, class
// pairs made and disposed), and how much the resident set grew.
import Hooks
import ObjCRuntime

enum SoakCase {
  static let all: [BenchCase] = [
    BenchCase(
      name: "soak-1m", target: "<= 1 MiB growth (1M rounds of the 6 operations)",
      limit: Double(1 << 20), iterations: (0, 1), body: { _ in 0 },
      direct: { Double(soak(rounds: 1_000_000)) }, unit: "B")
  ]

  private static let key = AssociatedKey<BenchTarget?>()

  /// The resident set's growth, in bytes, over `rounds` rounds after 10,000 rounds of warm-up
  /// (which let the allocator, the caches and the change log reach their working size).
  static func soak(rounds: Int) -> Int {
    guard let cls = HookCases.hostClass,
      let first = class_getInstanceMethod(cls, "bench.hook.0:"),
      let second = class_getInstanceMethod(cls, "bench.hook.1:")
    else { return -1 }
    let holder = BenchTarget()
    let value = BenchTarget()
    func round(_ index: Int) {
      method_exchangeImplementations(first, second)
      let token = try? cls.hook("bench.hook.2:", position: .before) { _ in }
      token?.remove()
      // Typed hooks, class-wide and on one object (which gains and loses its hidden subclass).
      let typed = try? BenchTarget.hook(after: "classHooked:") { (_, _: Int) in }
      typed?.remove()
      let objectHook = try? value.hook(before: "objectHooked:") { (_, _: Int) in }
      objectHook?.remove()
      holder[key] = index % 2 == 0 ? value : nil
      if let pair = objc_allocateClassPair(BenchTarget.runtimeClass, "BenchSoakPair", 0) {
        class_addMethod(pair, "soak", method_getImplementation(first), "q@:q")
        objc_registerClassPair(pair)
        objc_disposeClassPair(pair)
      }
    }
    for index in 0..<10_000 { round(index) }
    let start = AssociationMemory.residentBytes()
    for index in 0..<rounds { round(index) }
    return AssociationMemory.residentBytes() - start
  }
}
