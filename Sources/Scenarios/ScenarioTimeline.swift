// A scenario run as text: the form the testing library's golden timelines keep and the lab's
// exported tests start from.
import Foundation

/// A scenario run as text, one line per moment and per check.
public enum ScenarioTimeline {
  /// One line per moment: `time  name: what the user sees`.
  public static func text(_ moments: [ScenarioMoment]) -> String {
    moments.map {
      String(format: "%.3f", $0.time) + "  \($0.name): \($0.seenBar)"
    }.joined(separator: "\n") + "\n"
  }

  /// A run's moments, one line each, then each check with its outcome (`ok`, `failed` with its
  /// differences, `failed, as known`, or `held, though known to fail`).
  public static func text(_ report: ScenarioReport) -> String {
    var text = text(report.moments)
    for check in report.checks {
      let outcome =
        switch (check.held, check.isKnownFailure) {
        case (true, false): "ok"
        case (false, false): "failed"
        case (false, true): "failed, as known"
        case (true, true): "held, though known to fail"
        }
      text += "check \(check.label): \(outcome)\n"
      for difference in check.differences { text += "  \(difference)\n" }
    }
    return text
  }
}
