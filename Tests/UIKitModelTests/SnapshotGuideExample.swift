// The image snapshots of Docs/Testing.md: a screen compared with its PNG on two devices.
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

@MainActor
@Suite("Snapshot guide", .uiKitModel)
struct SnapshotGuideExample {
  @Test(
    "the profile page's bar, as the user sees it", arguments: [DeviceProfile.iPhone8, .iPhoneX])
  func profile(device: DeviceProfile) {
    let session = NavigationSession(
      root: UIViewController(), device: device, systemVersion: "15.0")
    let page = UIViewController()
    page.title = "Profile"
    page.view.backgroundColor = .white
    session.push(page)
    let appearance = UINavigationBarAppearance()
    appearance.configureWithOpaqueBackground()
    appearance.backgroundColor = .orange
    session.navigationController.navigationBar.standardAppearance = appearance
    session.navigationController.navigationBar.scrollEdgeAppearance = appearance
    // Compared with __Snapshots__/SnapshotGuideExample/profile.bar.<device>-iOS15.0@1x.png
    expectScreen(named: "bar")
  }
}
