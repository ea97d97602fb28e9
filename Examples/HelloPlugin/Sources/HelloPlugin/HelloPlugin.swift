// A per-controller bar tint, kept right through a push and a swipe-back: each controller says
// which tint its bar's buttons have, and the plugin applies it when the controller appears.
import Hooks
public import Scenarios
public import UIKit

/// Gives each view controller a bar tint of its own (`helloTint`), applied whenever it appears.
public struct HelloPlugin: ScenarioPlugin {
  /// `com.example.hello`; its short name is `hello`.
  public let identifier = "com.example.hello"
  /// One line for `swizzle-lab list`.
  public let summary = "A bar tint per view controller, applied whenever it appears"

  /// A plugin value; hosts make one through discovery.
  public init() {}

  /// One hook: before `-[UIViewController viewWillAppear:]`, set the bar's tint. The hook's
  /// closure is called by the runtime, from C: its body runs as main-actor code, as UIKit's
  /// `@objc` methods do, through `MainThread.assumeIsolated`.
  public func install() throws {
    try UIViewController.hook(before: "viewWillAppear:") { (controller, _: Bool) in
      MainThread.assumeIsolated {
        guard let tint = controller.helloTint else { return }
        controller.navigationController?.navigationBar.tintColor = tint
      }
    }
  }

  /// The plugin's scenario: a push from a red-tinted screen to a green-tinted one, and back,
  /// checking the tint at each step (`swizzle-lab matrix --plugin hello` runs it everywhere).
  public var scenarios: [Scenario] {
    [
      Scenario(name: "hello-push", summary: "a red-tinted screen pushes a green-tinted one") {
        context in
        let first = UIViewController()
        first.title = "Red"
        first.helloTint = .red
        let second = UIViewController()
        second.title = "Green"
        second.helloTint = .green
        let session = context.start(root: first)
        context.mark("red")
        context.expectBar(ExpectedBar(tint: .red), "the first screen's red")
        session.push(second)
        context.mark("green")
        context.expectBar(ExpectedBar(tint: .green), "the pushed screen's green")
        session.swipeBack(to: 0.8)
        context.mark("red again")
        context.expectBar(ExpectedBar(tint: .red), "red again after the swipe")
      }
    ]
  }
}

private let helloTintKey = AssociatedKey<UIColor?>()

extension UIViewController {
  /// The tint this controller's bar buttons have while it is on top; nil leaves the bar alone.
  public var helloTint: UIColor? {
    get { self[helloTintKey] }
    set { self[helloTintKey] = newValue }
  }
}
