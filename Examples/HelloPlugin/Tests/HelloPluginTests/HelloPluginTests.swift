// The plugin's own tests, in its own package, with SwizzleKit's testing traits.
import HelloPlugin
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

@Suite(.uiKitModel, .plugins(HelloPlugin()))
struct HelloPluginTests {
  @Test("each controller's tint is on the bar while it is on top")
  func tintFollowsTheTop() throws {
    let moments = try HelloPlugin().scenarios[0].run(options: ScenarioOptions(plugins: []))
    #expect(moments.map(\.name) == ["red", "green", "red again"])
    #expect(
      moments.map { $0.appearance.tintColor.color.hexDescription.prefix(7) } == [
        "#FF0000", "#00FF00", "#FF0000",
      ])
  }
}
