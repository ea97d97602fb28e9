// The hook libraries' own benchmark: a hooked empty method against the unhooked one, by position
// and scope, as SwiftHook and Stinger publish theirs, with their figures beside ours.
import Foundation
import Hooks
import ObjCRuntime

enum HookLibraryCases {
  /// Where a hook goes, and what the published benchmarks call it.
  enum Shape: String, CaseIterable {
    case beforeClass = "before-class"
    case afterClass = "after-class"
    case insteadClass = "instead-class"
    case beforeObject = "before-object"
    case afterObject = "after-object"
    case insteadObject = "instead-object"
    case beforeAfterClass = "before-after-class"
    case beforeAfterObject = "before-after-object"

    var caseName: String { "library-\(rawValue)" }

    /// The mode and scope, as the libraries name them.
    var label: String {
      switch self {
      case .beforeClass: "before, all instances"
      case .afterClass: "after, all instances"
      case .insteadClass: "instead (calls the original), all instances"
      case .beforeObject: "before, one instance"
      case .afterObject: "after, one instance"
      case .insteadObject: "instead (calls the original), one instance"
      case .beforeAfterClass: "before and after, all instances"
      case .beforeAfterObject: "before and after, one instance"
      }
    }

    /// What the libraries published for the same shape.
    var published: String {
      switch self {
      case .beforeClass: "SwiftHook 108x; Aspects 1,693x [S]"
      case .afterClass: "-"
      case .insteadClass: "SwiftHook 506x; Aspects 2,238x [S]"
      case .beforeObject: "-"
      case .afterObject: "SwiftHook 294x; Aspects 1,497x [S]"
      case .insteadObject: "SwiftHook 662x; Aspects 2,045x [S]"
      case .beforeAfterClass: "Stinger 283 ns a call; Aspects 6,135 ns [T]"
      case .beforeAfterObject: "Stinger 547 ns a call; Aspects 6,261 ns [T]"
      }
    }
  }

  /// The sources of ``Shape/published``.
  static let sources = [
    "[S] SwiftHook, Documents/PERFORMANCE.md (2020): an empty method, 100,000 calls, release"
      + " build, iPhone 11 Pro Max simulator (iOS 13.4.1) on a 2.8 GHz Core i7 MacBook Pro;"
      + " the ratio is to the same calls unhooked.",
    "[T] Stinger, README (2019): an empty method, 1,000,000 calls, iPhone 7 (iOS 13.2); times"
      + " only, no unhooked figure: compare ours in ns, on other hardware.",
  ]

  /// The baseline's name.
  static let unhookedName = "library-unhooked"

  /// A million calls in the clock mode (ten times callgrind's larger count); 20,000 and
  /// 100,000 under callgrind.
  static let iterations = (small: 20_000, large: 100_000)

  static let all: [BenchCase] =
    [
      BenchCase(
        name: unhookedName, target: "report (an empty method, unhooked: the baseline)",
        limit: nil, iterations: iterations, body: { calls(BenchTarget(), $0) })
    ]
    + Shape.allCases.map { shape in
      BenchCase(
        name: shape.caseName, target: "report (\(shape.label); ratio below)", limit: nil,
        iterations: iterations, body: { hookedCalls(shape, $0) })
    }

  /// `count` sends of the empty method.
  @inline(never)
  static func calls(_ target: BenchTarget, _ count: Int) -> Int {
    // The selector made once, as a compiled send's is.
    let selector: Selector = "libraryEmpty"
    Stopwatch.time {
      for _ in 0..<count { try? objc_msgSend(target, selector) as Void }
    }
    return count
  }

  /// `count` sends of the empty method hooked as `shape` says, with empty hook bodies (an
  /// `instead` body calls the original), as the libraries measured.
  static func hookedCalls(_ shape: Shape, _ count: Int) -> Int {
    let target = BenchTarget()
    let selector: Selector = "libraryEmpty"
    var tokens: [HookToken?] = []
    switch shape {
    case .beforeClass:
      tokens = [try? BenchTarget.hook(before: selector) { (_: BenchTarget) in }]
    case .afterClass:
      tokens = [try? BenchTarget.hook(after: selector) { (_: BenchTarget) in }]
    case .insteadClass:
      tokens = [
        try? BenchTarget.hook(instead: selector) {
          (original: HookOriginal<Void>, _: BenchTarget) in original()
        }
      ]
    case .beforeObject:
      tokens = [try? target.hook(before: selector) { (_: BenchTarget) in }]
    case .afterObject:
      tokens = [try? target.hook(after: selector) { (_: BenchTarget) in }]
    case .insteadObject:
      tokens = [
        try? target.hook(instead: selector) {
          (original: HookOriginal<Void>, _: BenchTarget) in original()
        }
      ]
    case .beforeAfterClass:
      tokens = [
        try? BenchTarget.hook(before: selector) { (_: BenchTarget) in },
        try? BenchTarget.hook(after: selector) { (_: BenchTarget) in },
      ]
    case .beforeAfterObject:
      tokens = [
        try? target.hook(before: selector) { (_: BenchTarget) in },
        try? target.hook(after: selector) { (_: BenchTarget) in },
      ]
    }
    // A hook that did not install fails the case (this process exits 1, so the figure is
    // "failed"), rather than measure fewer hooks.
    guard tokens.allSatisfy({ $0 != nil }) else {
      FileHandle.standardError.write(Data("swizzle-bench: \(shape.caseName): a hook failed\n".utf8))
      exit(1)
    }
    defer { for token in tokens { token?.remove() } }
    return calls(target, count)
  }
}

/// One shape of the hook libraries' table, in one run.
struct LibraryRow: Codable {
  var shape: String
  /// The hooked call's time over the unhooked call's.
  var timeRatio: Double?
  /// The hooked call's instructions over the unhooked call's.
  var instructionRatio: Double?
  /// The hooked call's time, in nanoseconds.
  var nanoseconds: Double?
  var published: String

  /// The rows of every shape, from the figures of each mode (by case name).
  static func rows(clock: [String: Figure], instructions: [String: Figure]) -> [LibraryRow] {
    func ratio(_ figures: [String: Figure], _ name: String) -> Double? {
      guard let hooked = figures[name]?.value,
        let unhooked = figures[HookLibraryCases.unhookedName]?.value, unhooked > 0
      else { return nil }
      return hooked / unhooked
    }
    return HookLibraryCases.Shape.allCases.map { shape in
      LibraryRow(
        shape: shape.label, timeRatio: ratio(clock, shape.caseName),
        instructionRatio: ratio(instructions, shape.caseName),
        nanoseconds: clock[shape.caseName]?.value, published: shape.published)
    }
  }
}
