// The seed's demos as scenarios: each ends with its expected bar, the same every time.
import BarLayerPlugin
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

/// The moments of `scenario`, run with the bar-layer plugin on a fresh model, by name.
private func moments(_ scenario: Scenario) throws -> [String: NavigationBarAppearance] {
  var result: [String: NavigationBarAppearance] = [:]
  BarLayer.settings = BarLayerSettings()
  UIApplication.resetModel()
  for moment in try scenario.run() { result[moment.name] = moment.appearance }
  return result
}

private func seen(_ color: UIColor, alpha: CGFloat) -> UIColorComponents {
  UIColorComponents(color.composited(over: scenarioBackdrop, opacity: alpha))
}

private let systemBlue = UIColorComponents(red: 0, green: 0.478431, blue: 1, alpha: 1)

@Suite("Bar-layer scenarios", .uiKitModel)
struct BarScenarioTests {
  @Test("Ant Forest: transparent, then white; blue buttons, dark title and status bar past half")
  func antForest() throws {
    let bar = try moments(BarLayerScenarios.antForest)
    let start = try #require(bar["start"])
    #expect(start.backgroundColor == UIColorComponents(scenarioBackdrop), "transparent")
    #expect(
      start.titleColor == UIColorComponents(.white)
        && start.tintColor == UIColorComponents(.white))
    #expect(start.statusBarStyle == .lightContent)
    let quarter = try #require(bar["quarter opaque"])
    #expect(quarter.backgroundColor == seen(.white, alpha: 0.25))
    #expect(quarter.statusBarStyle == .lightContent)
    let threeQuarters = try #require(bar["three quarters opaque"])
    #expect(threeQuarters.backgroundColor == seen(.white, alpha: 0.75))
    #expect(threeQuarters.tintColor == systemBlue)
    #expect(threeQuarters.titleColor == UIColorComponents(.black))
    #expect(threeQuarters.statusBarStyle == .default)
    #expect(bar["opaque"]?.backgroundColor == UIColorComponents(.white))
    #expect(bar["back at the top"]?.backgroundColor == UIColorComponents(scenarioBackdrop))
    #expect(bar["back at the top"]?.statusBarStyle == .lightContent)
  }

  @Test("Zhihu Daily: the bar moves up by its height and its buttons fade")
  func zhihu() throws {
    let bar = try moments(BarLayerScenarios.zhihuDaily)
    #expect(bar["start"]?.translationY == 0 && bar["start"]?.buttonAlpha == 1)
    #expect(bar["half up"]?.translationY == -22)
    #expect(bar["hidden"]?.translationY == -44 && bar["hidden"]?.buttonAlpha == 0)
  }

  @Test("fade-in bars end opaque in their colour; an image bar shows its image")
  func fadeIns() throws {
    for scenario in [
      BarLayerScenarios.weiboProfile, BarLayerScenarios.qqZone, BarLayerScenarios.qqProfile,
      BarLayerScenarios.lagouHome,
    ] {
      let bar = try moments(scenario)
      #expect(
        bar["start"]?.backgroundColor == UIColorComponents(scenarioBackdrop), "\(scenario.name)")
      #expect(bar["opaque"]?.backgroundColor.alpha == 1, "\(scenario.name)")
      #expect(bar["opaque"]?.titleColor == UIColorComponents(.white), "\(scenario.name)")
    }
    let image = try moments(BarLayerScenarios.imageBar)
    #expect(
      image["start"]?.backgroundColor
        == UIColorComponents(red: 0.5, green: 0.2, blue: 0.8, alpha: 1))
  }

  @Test("the bar moves up by its height and back; a gradient shows its mean colour")
  func moveAndGradient() throws {
    let move = try moments(BarLayerScenarios.moveBar)
    #expect(move["start"]?.translationY == 0)
    #expect(move["moved up"]?.translationY == -44)
    #expect(move["back"]?.translationY == 0)
    let gradient = try moments(BarLayerScenarios.gradientBar)
    #expect(gradient["start"]?.backgroundColor.alpha == 1)
    #expect(gradient["start"]?.backgroundColor != UIColorComponents(.white))
  }

  @Test("a custom bar gets the one-line API; the system bar keeps its defaults")
  func customBar() throws {
    let bar = try moments(BarLayerScenarios.customBar)
    #expect(bar["custom bar"]?.backgroundColor == UIColorComponents(.orange))
    #expect(bar["custom bar"]?.titleColor == UIColorComponents(.white))
    #expect(bar["system bar"]?.backgroundColor == UIColorComponents(.white))
  }

  @Test("push, pop, popTo, popToRoot and both swipe-backs end with the right bar")
  func transitions() throws {
    let transparent = UIColorComponents(scenarioBackdrop)
    let white = UIColorComponents(.white)
    let push = try moments(BarLayerScenarios.push)
    #expect(
      push["before"]?.backgroundColor == transparent && push["after"]?.backgroundColor == white)
    let middle = push["mid push"]?.backgroundColor
    #expect(middle != transparent && middle != white, "interpolated in between")
    for (scenario, after) in [
      (BarLayerScenarios.pop, transparent), (BarLayerScenarios.popTo, transparent),
      (BarLayerScenarios.popToRoot, transparent), (BarLayerScenarios.swipeBackCancelled, white),
      (BarLayerScenarios.swipeBackFinished, transparent),
    ] {
      let bar = try moments(scenario)
      #expect(bar["before"]?.backgroundColor == white, "\(scenario.name)")
      #expect(bar["after"]?.backgroundColor == after, "\(scenario.name)")
    }
  }

  @Test("every scenario gives the same moments twice in a row")
  func determinism() throws {
    for scenario in BarLayerScenarios.all {
      let first = try moments(scenario).mapValues(\.description)
      let second = try moments(scenario).mapValues(\.description)
      #expect(!first.isEmpty && first == second, "\(scenario.name)")
    }
  }
}
