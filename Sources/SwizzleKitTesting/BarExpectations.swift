// Expectations on what the user sees of a bar (a `BarSnapshot` of Scenarios), in Swift Testing:
// a failure lists each difference.
public import Foundation
public import Scenarios
public import Testing
public import UIKitModel

/// Records an issue listing every difference between what the user sees of `bar` (over
/// `behind`, the scenarios' backdrop by default) and `expected`.
public func expectBar(
  _ bar: UINavigationBar, _ expected: BarSnapshot, over behind: UIColor = scenarioBackdrop,
  tolerance: CGFloat = 0.01, _ comment: String = "",
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let lines = expected.differences(
    from: bar.appearance(over: behind), height: bar.bounds.height, tolerance: tolerance)
  record(lines, comment, sourceLocation)
}

/// Records an issue listing every difference between the moment named `name` of `moments` and
/// `expected`, or that there is no such moment.
public func expectMoment(
  _ name: String, of moments: [ScenarioMoment], _ expected: BarSnapshot,
  tolerance: CGFloat = 0.01, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  guard let moment = moments.first(where: { $0.name == name }) else {
    Issue.record(
      Comment(
        rawValue: "no moment named \"\(name)\"; the moments: "
          + moments.map(\.name).joined(separator: ", ")),
      sourceLocation: sourceLocation)
    return
  }
  record(
    expected.differences(from: moment.appearance, tolerance: tolerance), "at \"\(name)\"",
    sourceLocation)
}

private func record(_ lines: [String], _ comment: String, _ location: Testing.SourceLocation) {
  guard !lines.isEmpty else { return }
  let head = comment.isEmpty ? "the bar differs" : "the bar differs \(comment)"
  Issue.record(
    Comment(rawValue: ([head + ":"] + lines.map { "  " + $0 }).joined(separator: "\n")),
    sourceLocation: location)
}
