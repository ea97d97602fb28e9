// The classes and IMPs the benchmark cases send to.
import ObjCRuntime

/// A class with a few integer methods, declared the way any runtime class is.
final class BenchTarget: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(BenchTarget.self) {
      ObjCMethodDeclaration("increment:", BenchTarget.increment)
      ObjCMethodDeclaration("decrement:", BenchTarget.decrement)
      ObjCMethodDeclaration("twice:", BenchTarget.twice, swiftEntry: BenchTarget.twiceEntry)
      ObjCMethodDeclaration("add:to:", BenchTarget.add)
      // The same IMP as increment:, under selectors of their own for the hook cases.
      ObjCMethodDeclaration("classHooked:", BenchTarget.increment)
      ObjCMethodDeclaration("objectHooked:", BenchTarget.increment)
      ObjCMethodDeclaration("libraryEmpty", BenchTarget.empty)
    }
  }

  static let increment: @convention(c) (id, SEL, Int) -> Int = { _, _, value in value &+ 1 }
  /// `v@:`: nothing, as the hook libraries' benchmarks hook (SwiftHook's `emptyMethod`).
  static let empty: @convention(c) (id, SEL) -> Void = { _, _ in }
  static let decrement: @convention(c) (id, SEL, Int) -> Int = { _, _, value in value &- 1 }
  static let twice: @convention(c) (id, SEL, Int) -> Int = { _, _, value in value &* 2 }
  static let add: @convention(c) (id, SEL, Int, Int) -> Int = { _, _, a, b in a &+ b }
  static let twiceEntry: @convention(c) (id, SEL, Int) -> Int = { me, _, value in
    unsafeDowncast(me.takeUnretainedObject(), to: BenchTarget.self).twice(value)
  }

  static let twiceSelector: Selector = "twice:"

  /// The Swift entry point of `twice:`: a UIKit-model-style method that continues into the table.
  func twice(_ value: Int) -> Int {
    (try? sendToTable(BenchTarget.twiceSelector, value)) ?? 0
  }
}

/// The floor: the same IMP called directly through a C function pointer.
enum DirectCall {
  /// The IMP, hidden from the optimizer behind an unoptimized function so that the call in the
  /// measured loop stays an indirect call.
  @inline(never) @_optimize(none)
  static func function() -> @convention(c) (id, SEL, Int) -> Int {
    BenchTarget.increment
  }
}
