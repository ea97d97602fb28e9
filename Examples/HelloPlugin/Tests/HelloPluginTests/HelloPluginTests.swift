// The plugin's own tests, in its own package, with SwizzleKit's testing library: traits for a
// fresh model and the plugin installed, the scenario on every profile, a golden timeline.
import HelloPlugin
import Scenarios
import SwizzleKitTesting
import Testing
import UIKit

@Suite(.uiKitModel, .plugins(HelloPlugin()))
struct HelloPluginTests {
  @Test("each controller's tint is on the bar while it is on top")
  func tintFollowsTheTop() {
    let session = NavigationSession(root: UIViewController())
    let green = UIViewController()
    green.helloTint = .green
    session.push(green)
    expectBar(session.navigationController.navigationBar, BarSnapshot(tint: .green))
  }

  @Test(
    "the scenario keeps its promises on every device and profile", arguments: IOSProfile.matrix)
  func everywhere(profile: IOSProfile) {
    expectScenarios(HelloPlugin().scenarios, on: profile)
  }

  @Test("the scenario's timeline is the golden one")
  func golden() {
    expectScenario(
      HelloPlugin().scenarios[0], options: ScenarioOptions(plugins: []), golden: "hello-push",
      tracing: ["viewWillAppear:"])
  }
}
