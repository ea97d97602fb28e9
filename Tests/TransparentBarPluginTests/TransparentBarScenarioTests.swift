// ET's demo screens as scenarios: each keeps its promises on every device and iOS profile (the
// opaque bar clear at the scroll edge from iOS 15, as known), and its timeline is the golden one.
import Foundation
import Scenarios
import SwizzleKitTesting
import Testing
import TransparentBarPlugin
import UIKitModel

@MainActor
@Suite("Transparent-bar scenarios", .uiKitModel)
struct TransparentBarScenarioTests {
  @Test("the scenarios: every profile and device, golden timelines, the same twice")
  func suite() {
    // The sends the exchanges answer, so the golden shows the `et_` replacements at work.
    expectScenarioSuite(
      TransparentBarScenarios.all,
      tracing: ["popToRootViewControllerAnimated:", "_updateInteractiveTransition:"])
  }

  @Test(
    "on iOS 15 the fixed mode keeps the opaque page's bar at the scroll edge; the seed's is clear")
  func scrollEdge() throws {
    let report = try #require(
      expectScenario(
        TransparentBarScenarios.swipeBack, options: ScenarioOptions(systemVersion: "15.0"),
        golden: "transparent-swipe-back-ios15"))
    #expect(!report.hasKnownFailures)
    #expect(report.moments.first?.seenBar.backgroundOpacity == 0.8)
    let edge = try #require(
      expectScenario(
        TransparentBarScenarios.scrollEdge, options: ScenarioOptions(systemVersion: "15.0")))
    #expect(edge.moments.first?.seenBar.backgroundOpacity == 0, "the seed's bar is clear")
    let sdk14 = try #require(
      expectScenario(
        TransparentBarScenarios.scrollEdge,
        options: ScenarioOptions(systemVersion: "15.0", sdkVersion: "14.0")))
    #expect(sdk14.moments.first?.seenBar.backgroundOpacity == 0.8, "built with the iOS 14 SDK")
  }

  @Test(
    "with large titles from iOS 13 the seed's opaque list is clear at its top; the fixed one holds")
  func largeTitle() throws {
    for version in ["12.0", "13.0"] {
      let report = try #require(
        expectScenario(
          TransparentBarScenarios.largeTitle, options: ScenarioOptions(systemVersion: version)))
      let opacities = report.moments.map(\.seenBar.backgroundOpacity)
      // Seed then fixed: at the top, scrolled, at the top, the transparent page, the list.
      let seedTop: CGFloat = version == "12.0" ? 0.8 : 0
      #expect(opacities == [seedTop, 0.8, seedTop, 0, seedTop, 0.8, 0.8, 0.8, 0, 0.8])
      #expect(report.moments.first?.seenBar.largeTitleColor != nil, "the large title shows")
    }
  }
}
