// The seed's demos as scenarios: each keeps its promises on every device and iOS profile, its
// timeline is the golden one, and it gives the same moments every time.
import BarLayerPlugin
import Foundation
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

@MainActor
@Suite("Bar-layer scenarios", .uiKitModel)
struct BarScenarioTests {
  @Test("the scenarios: every profile and device, golden timelines, the same twice")
  func suite() {
    expectScenarioSuite(
      BarLayerScenarios.all,
      tracing: ["pushViewController:animated:", "popViewControllerAnimated:", "viewWillAppear:"])
  }

  @Test("Zhihu Daily: the buttons fade as the bar moves up")
  func zhihuButtons() throws {
    let moments = try #require(expectScenario(BarLayerScenarios.zhihuDaily)).moments
    #expect(moments.map(\.seenBar.buttonAlpha) == [1, 0.5, 0])
  }

  @Test("a push's bar is interpolated between the two controllers' half way")
  func midPush() throws {
    let moments = try #require(expectScenario(BarLayerScenarios.push)).moments
    let colors = moments.map(\.seenBar.backgroundColor)
    #expect(colors.count == 3)
    #expect(colors[1] != colors[0] && colors[1] != colors[2], "interpolated in between")
  }

  @Test("a custom bar gets the one-line API")
  func customBar() throws {
    let moments = try #require(expectScenario(BarLayerScenarios.customBar)).moments
    expectMoment(
      "custom bar", of: moments, ExpectedBar(background: .orange, titleColor: .white))
  }
}
