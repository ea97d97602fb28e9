// How costs grow: the scaling cases grouped by what grows, each judged constant, linear as
// designed, or a regression.
import Foundation

/// Cases that measure one operation as something grows (methods in a class, keys on an object,
/// hooks on a method, classes in a chain).
struct ScalingFamily {
  enum Growth: String, Codable {
    /// The cost must not grow with N.
    case constant
    /// The cost grows with N by design (each observer is told, each level is looked at).
    case linear
  }

  /// What is measured.
  let operation: String
  /// What N counts.
  let counting: String
  let growth: Growth
  /// N and the case measured at N, smallest first.
  let points: [(n: Int, name: String)]
  /// Below this N the design uses another structure on purpose (a short list scanned before a
  /// hash table): a constant cost is judged from here up.
  var judgedFrom = 0

  static let all: [ScalingFamily] = [
    ScalingFamily(
      operation: "a cached send, the worst selector", counting: "methods in the class",
      growth: .constant,
      points: [10, 100, 1_000, 10_000].map { ($0, "cached-send-worst-of-\($0)") }),
    ScalingFamily(
      operation: "an associated object read", counting: "keys on the object", growth: .constant,
      points: [1, 10, 100, 1_000, 10_000].map { ($0, "associated-get-\($0)") }, judgedFrom: 10),
    ScalingFamily(
      operation: "an associated object set", counting: "keys on the object", growth: .constant,
      points: [1, 10, 100, 1_000].map { ($0, "associated-set-\($0)") }, judgedFrom: 10),
    ScalingFamily(
      operation: "an observed setter", counting: "observers of other keys", growth: .constant,
      points: [(0, "kvo-set-1")] + [10, 100, 1_000].map { ($0, "kvo-set-1-others-\($0)") }),
    ScalingFamily(
      operation: "an observed setter", counting: "observers of the key", growth: .linear,
      points: [1, 10, 100].map { ($0, "kvo-set-\($0)") }),
    ScalingFamily(
      operation: "installing and removing a hook", counting: "class-wide hooks on the method",
      growth: .linear, points: [1, 10, 100, 1_000].map { ($0, "hook-install-beside-\($0)") }),
    ScalingFamily(
      operation: "installing and removing an object's hook", counting: "objects hooked beside",
      growth: .linear,
      points: [1, 10, 100, 1_000].map { ($0, "object-hook-install-beside-\($0)") }),
    ScalingFamily(
      operation: "an exchange", counting: "live classes", growth: .constant,
      points: [0, 10, 1_000, 10_000].map { ($0, "exchange-\($0)-classes") }),
    ScalingFamily(
      operation: "the first send after a flush", counting: "classes between receiver and method",
      growth: .linear,
      points: [(0, "flush-then-send")]
        + [1, 10, 100, 1_000].map { ($0, "first-send-after-flush-depth-\($0)") }),
  ]

  /// The family's row for `figures`, FAILED when one of its cases has no figure. Only
  /// instruction counts are judged: times on these machines are too noisy to tell growth.
  func row(_ figures: [String: Figure], mode: Options.Mode) -> ScalingRow {
    // The run set out to measure the family (main.swift asks for no other): a point missing
    // is a case that failed, which the run must say rather than drop the family.
    let values = points.compactMap { figures[$0.name]?.value }
    guard values.count == points.count, let first = values.first, let last = values.last,
      let firstN = points.first?.n, let lastN = points.last?.n
    else {
      return ScalingRow(
        operation: operation, counting: counting, growth: growth,
        points: points.compactMap { point in
          figures[point.name].map { ScalingRow.Point(n: point.n, value: $0.value) }
        },
        verdict: "FAILED (a case of the family was not measured)")
    }
    let slope = (last - first) / Double(lastN - firstN)
    let verdict: String
    switch growth {
    case _ where mode != .callgrind:
      verdict = "callgrind"
    case .constant:
      // A few cache lines allowed: a tenth, or 20 instructions on cheap operations.
      let base = zip(points, values).first { $0.0.n >= judgedFrom }?.1 ?? first
      let constant = last <= max(base * 1.1, base + 20)
      let above = judgedFrom > 0 ? " from \(judgedFrom.formatted)" : ""
      verdict = constant ? "constant\(above)" : "REGRESSION (grows)"
    case .linear:
      // Linear: the slope over the upper half of N no more than twice the slope below it.
      let middle = values.count / 2
      let lower = (values[middle] - first) / Double(points[middle].n - firstN)
      let upper = (last - values[middle]) / Double(lastN - points[middle].n)
      let perOne = slope >= 100 ? Int(slope.rounded()).formatted : String(format: "%.1f", slope)
      verdict =
        upper <= max(lower * 2, lower + 2)
        ? "linear as designed (+\(perOne) per one more)" : "REGRESSION (faster than linear)"
    }
    return ScalingRow(
      operation: operation, counting: counting, growth: growth,
      points: zip(points, values).map { ScalingRow.Point(n: $0.n, value: $1) }, verdict: verdict)
  }
}

/// A family's figures in one run.
struct ScalingRow: Codable {
  struct Point: Codable {
    var n: Int
    var value: Double
  }
  var operation: String
  var counting: String
  var growth: ScalingFamily.Growth
  var points: [Point]
  var verdict: String

  var isRegression: Bool { verdict.hasPrefix("REGRESSION") || verdict.hasPrefix("FAILED") }
}

extension Int {
  /// The number with thousands separated by commas, as the targets write them.
  var formatted: String {
    let digits = String(self.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return (self < 0 ? "-" : "") + grouped
  }
}
