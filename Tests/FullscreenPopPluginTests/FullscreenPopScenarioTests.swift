// The fullscreen-pop scenarios: each keeps its promises on every device and iOS profile (the
// article's seed title as known), and its timeline is the golden one.
import FullscreenPopPlugin
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

@MainActor
@Suite("Fullscreen-pop scenarios", .uiKitModel)
struct FullscreenPopScenarioTests {
  @Test("the scenarios: every profile and device, golden timelines, the same twice")
  func suite() {
    // Who drives each pop: the article's delegate and pan, or the system's own handler.
    expectScenarioSuite(
      FullscreenPopScenarios.all,
      tracing: [
        "handleControllerPop:", "handleNavigationTransition:", "_updateInteractiveTransition:",
      ])
  }

  @Test("the article's seed is the one known to fail, on every profile")
  func seedFails() throws {
    let report = try #require(expectScenario(FullscreenPopScenarios.articleSwipe))
    let failing = report.checks.filter { !$0.held }.map(\.label)
    #expect(failing == ["article-seed: the title half faded again"])
  }
}
