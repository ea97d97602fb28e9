// The plugin's own tests, in its own package, with SwizzleKit's testing library: traits for a
// fresh model and the plugin installed, the scenario on every profile, a golden timeline and
// image snapshots. A missing reference is written and fails (the default record mode);
// `SWIZZLEKIT_RECORD=failed swift test` rewrites the ones that differ after a change you meant,
// and CI runs with `SWIZZLEKIT_RECORD=never`, so that a reference nobody committed fails there.
import HelloPlugin
import Scenarios
import SwizzleKitTesting
import Testing
import UIKit

@MainActor
@Suite(.uiKitModel, .plugins(HelloPlugin()))
struct HelloPluginTests {
  @Test("each controller's tint is on the bar while it is on top")
  func tintFollowsTheTop() {
    let session = NavigationSession(root: UIViewController())
    let green = UIViewController()
    green.helloTint = .green
    session.push(green)
    expectBar(session.navigationController.navigationBar, ExpectedBar(tint: .green))
    // The screen as an image: __Snapshots__/HelloPluginTests/tintFollowsTheTop.green.<cell>.png
    expectScreen(named: "green")
  }

  @Test(
    "the scenario keeps its promises on every device and profile", arguments: IOSProfile.matrix)
  func everywhere(profile: IOSProfile) {
    expectScenarios(HelloPlugin().scenarios, on: profile)
  }

  @Test("the scenario's timeline is the golden one, and each moment's screen its snapshot")
  func golden() {
    expectScenario(
      HelloPlugin().scenarios[0], options: ScenarioOptions(plugins: []), golden: "hello-push",
      tracing: ["viewWillAppear:"], snapshots: true)
  }
}
