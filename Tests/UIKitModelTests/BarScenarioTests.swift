// The seed's demos as scenarios: each ends with its expected bar, the same every time.
import BarLayerPlugin
import Foundation
import Hooks
import ObjCRuntime
import Testing
import UIKitModel

private func moments(_ scenario: BarScenario) -> [String: NavigationBarAppearance] {
  var result: [String: NavigationBarAppearance] = [:]
  withBarLayer {
    for moment in scenario.run() { result[moment.name] = moment.appearance }
  }
  return result
}

private func seen(_ color: UIColor, alpha: CGFloat) -> UIColorComponents {
  UIColorComponents(color.composited(over: scenarioBackdrop, opacity: alpha))
}

private let systemBlue = UIColorComponents(red: 0, green: 0.478431, blue: 1, alpha: 1)

extension UIKitModelTests {
  @Suite("Bar-layer scenarios")
  struct BarScenarioTests {
    @Test("Ant Forest: transparent, then white; blue buttons, dark title and status bar past half")
    func antForest() throws {
      let bar = moments(.antForest)
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
    func zhihu() {
      let bar = moments(.zhihuDaily)
      #expect(bar["start"]?.translationY == 0 && bar["start"]?.buttonAlpha == 1)
      #expect(bar["half up"]?.translationY == -22)
      #expect(bar["hidden"]?.translationY == -44 && bar["hidden"]?.buttonAlpha == 0)
    }

    @Test("fade-in bars end opaque in their colour; an image bar shows its image")
    func fadeIns() {
      for scenario in [BarScenario.weiboProfile, .qqZone, .qqProfile, .lagouHome] {
        let bar = moments(scenario)
        #expect(
          bar["start"]?.backgroundColor == UIColorComponents(scenarioBackdrop), "\(scenario.name)")
        #expect(bar["opaque"]?.backgroundColor.alpha == 1, "\(scenario.name)")
        #expect(bar["opaque"]?.titleColor == UIColorComponents(.white), "\(scenario.name)")
      }
      let image = moments(.imageBar)
      #expect(
        image["start"]?.backgroundColor
          == UIColorComponents(red: 0.5, green: 0.2, blue: 0.8, alpha: 1))
    }

    @Test("the bar moves up by its height and back; a gradient shows its mean colour")
    func moveAndGradient() {
      let move = moments(.moveBar)
      #expect(move["start"]?.translationY == 0)
      #expect(move["moved up"]?.translationY == -44)
      #expect(move["back"]?.translationY == 0)
      let gradient = moments(.gradientBar)
      #expect(gradient["start"]?.backgroundColor.alpha == 1)
      #expect(gradient["start"]?.backgroundColor != UIColorComponents(.white))
    }

    @Test("a custom bar gets the one-line API; the system bar keeps its defaults")
    func customBar() {
      let bar = moments(.customBar)
      #expect(bar["custom bar"]?.backgroundColor == UIColorComponents(.orange))
      #expect(bar["custom bar"]?.titleColor == UIColorComponents(.white))
      #expect(bar["system bar"]?.backgroundColor == UIColorComponents(.white))
    }

    @Test("push, pop, popTo, popToRoot and both swipe-backs end with the right bar")
    func transitions() {
      let transparent = UIColorComponents(scenarioBackdrop)
      let white = UIColorComponents(.white)
      let push = moments(.push)
      #expect(
        push["before"]?.backgroundColor == transparent && push["after"]?.backgroundColor == white)
      let middle = push["mid push"]?.backgroundColor
      #expect(middle != transparent && middle != white, "interpolated in between")
      for (scenario, after) in [
        (BarScenario.pop, transparent), (.popTo, transparent), (.popToRoot, transparent),
        (.swipeBackCancelled, white), (.swipeBackFinished, transparent),
      ] {
        let bar = moments(scenario)
        #expect(bar["before"]?.backgroundColor == white, "\(scenario.name)")
        #expect(bar["after"]?.backgroundColor == after, "\(scenario.name)")
      }
    }

    @Test("every scenario gives the same moments twice in a row")
    func determinism() {
      for scenario in BarScenario.all {
        var first: [String] = []
        var second: [String] = []
        withBarLayer { first = scenario.run().map(\.description) }
        withBarLayer { second = scenario.run().map(\.description) }
        #expect(!first.isEmpty && first == second, "\(scenario.name)")
      }
    }
  }
}
