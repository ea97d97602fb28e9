// The example of Docs/Testing.md: a team's own bar logic, tested with the testing library.
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

/// The team's page: its bar turns blue once the content is scrolled, on every iOS version.
final class ProfilePage: UIViewController {
  let scrollView = UIScrollView(frame: .zero)

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
    view.addSubview(scrollView)
    let appearance = UINavigationBarAppearance()
    appearance.configureWithOpaqueBackground()
    appearance.backgroundColor = .blue
    navigationController?.navigationBar.standardAppearance = appearance
    // Without this line the bar is see-through at the top on iOS 15 and later.
    navigationController?.navigationBar.scrollEdgeAppearance = appearance
  }
}

@MainActor
@Suite("Testing guide", .uiKitModel)
struct TestingGuideExample {
  @Test("the profile's bar is blue at the top and scrolled", arguments: ["13", "15", "17"])
  func profileBar(ios: String) throws {
    let profile = try #require(IOSProfile.named(ios))
    let session = NavigationSession(
      root: UIViewController(), device: .iPhoneX, systemVersion: profile.systemVersion)
    let page = ProfilePage()
    session.push(page)
    let bar = session.navigationController.navigationBar
    expectBar(bar, ExpectedBar(background: .blue, backgroundAlpha: 1), "at the top")
    session.scroll(page.scrollView, by: 300)
    expectBar(bar, ExpectedBar(background: .blue, backgroundAlpha: 1), "scrolled")
    GoldenTimeline.check(session.trace.joined(separator: "\n") + "\n", named: "profile-ios\(ios)")
  }
}
