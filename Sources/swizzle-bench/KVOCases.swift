// What an observed setter costs (issue #36): with one observer, with ten, and with one observer
// of its key beside a hundred observers of other keys of the same object.
import ObjCRuntime

/// An object with a `level` property, through the tables: the setter and getter KVO uses.
private final class Gauge: ObjCObject {
  var level = 0.0
  static let setLevel: @convention(c) (id, SEL, Double) -> Void = { me, _, value in
    me.takeUnretainedObject(as: Gauge.self)?.level = value
  }
  static let getLevel: @convention(c) (id, SEL) -> Double = { me, _ in
    me.takeUnretainedObject(as: Gauge.self)?.level ?? 0
  }
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Gauge.self) {
      ObjCMethodDeclaration("setLevel:", Gauge.setLevel)
      ObjCMethodDeclaration("level", Gauge.getLevel)
    }
  }
}

/// Counts what it is told.
private final class GaugeWatcher: ObjCObject {
  nonisolated(unsafe) static var told = 0
  // nonisolated(unsafe): the benchmark sets from one thread only.

  override func observeValue(
    forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
    context: UnsafeMutableRawPointer?
  ) {
    GaugeWatcher.told &+= 1
  }
}

enum KVOCases {
  static let all: [BenchCase] =
    [
      BenchCase(
        name: "kvo-set-1", target: "<= 3,000 (an observed setter, one observer, old and new)",
        limit: 3_000, iterations: (1_000, 11_000), body: { sets($0, observers: 1, others: 0) }),
      BenchCase(
        name: "kvo-set-10", target: "report (ten observers of the key: linear as designed)",
        limit: nil, iterations: (1_000, 11_000), body: { sets($0, observers: 10, others: 0) }),
      BenchCase(
        name: "kvo-set-100", target: "report (a hundred observers of the key: linear as designed)",
        limit: nil, iterations: (1_000, 11_000), body: { sets($0, observers: 100, others: 0) }),
    ]
    + [10, 100, 1_000].map { others in
      BenchCase(
        name: "kvo-set-1-others-\(others)",
        target: "<= kvo-set-1 + 100 (\(others.formatted) observers of other keys cost nothing)",
        limit: 100, iterations: (1_000, 11_000),
        body: { sets($0, observers: 1, others: others) }, relativeTo: "kvo-set-1")
    }

  /// The observers, kept alive for the process (a watcher that dies is pruned on the next set).
  nonisolated(unsafe) private static var kept: [ObjCObject] = []
  // nonisolated(unsafe): the benchmark runs one case at a time on one thread.

  /// `count` sets of an object's `level` watched by `observers` observers, beside `others`
  /// observers of other keys.
  static func sets(_ count: Int, observers: Int, others: Int) -> Int {
    let gauge = Gauge()
    for _ in 0..<observers {
      let watcher = GaugeWatcher()
      kept.append(watcher)
      try? gauge.addObserver(watcher, forKeyPath: "level", options: [.old, .new])
    }
    for index in 0..<others {
      let watcher = GaugeWatcher()
      kept.append(watcher)
      try? gauge.addObserver(watcher, forKeyPath: "other\(index)", options: [.old, .new])
    }
    let setLevel = Selector("setLevel:")
    Stopwatch.time {
      for index in 0..<count {
        try? objc_msgSend(gauge, setLevel, Double(index)) as Void
      }
    }
    return GaugeWatcher.told
  }
}
