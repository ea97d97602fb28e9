// Expectations on what the user sees of a bar (a `ExpectedBar` of Scenarios), in Swift Testing:
// a failure lists each difference.
public import Foundation
public import Scenarios
public import Testing
public import UIKitModel

/// Fails the test (an issue under Swift Testing, the test case's failure under XCTest) listing every difference between
/// what the user sees of `bar` and `expected`. The bar is composited over `behind` (the
/// scenarios' backdrop by default, as the trace and the timelines composite it), and the
/// failure names that colour: what shows through a transparent or hidden bar is it.
@MainActor
public func expectBar(
  _ bar: UINavigationBar, _ expected: ExpectedBar, over behind: UIColor = scenarioBackdrop,
  tolerance: CGFloat = 0.01, _ comment: String = "",
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let lines = expected.differences(
    from: bar.asSeen(over: behind), height: bar.bounds.height, tolerance: tolerance)
  record(lines, comment, over: behind, sourceLocation)
}

/// Fails the test listing every difference between the moment named `name` of `moments` and
/// `expected` (moments are composited over the scenarios' backdrop), or that there is no such
/// moment.
public func expectMoment(
  _ name: String, of moments: [ScenarioMoment], _ expected: ExpectedBar,
  tolerance: CGFloat = 0.01, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  guard let moment = moments.first(where: { $0.name == name }) else {
    TestReporter.fail(
      "no moment named \"\(name)\"; the moments: " + moments.map(\.name).joined(separator: ", "),
      at: sourceLocation)
    return
  }
  record(
    expected.differences(from: moment.seenBar, tolerance: tolerance), "at \"\(name)\"",
    over: scenarioBackdrop, sourceLocation)
}

private func record(
  _ lines: [String], _ comment: String, over behind: UIColor, _ location: Testing.SourceLocation
) {
  guard !lines.isEmpty else { return }
  let head =
    (comment.isEmpty ? "the bar differs" : "the bar differs \(comment)")
    + " (composited over \(behind.hexDescription)"
    + (behind == scenarioBackdrop ? ", the scenarios' backdrop)" : ")")
  TestReporter.fail(
    ([head + ":"] + lines.map { "  " + $0 }).joined(separator: "\n"), at: location)
}
