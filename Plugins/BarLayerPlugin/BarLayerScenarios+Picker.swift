// WRNavigationBar issue 147 in the gallery: a third-party picker's own bar, styled over by the
// plugin's defaults unless its page is blacklisted.
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension BarLayerPlugin: BreakageGalleryPlugin {
  /// WRNavigationBar's reported breakages its scenarios reproduce.
  public var breakages: [Breakage] {
    [
      Breakage(
        name: "wr-147", library: "WRNavigationBar",
        report: "wangrui460/WRNavigationBar issue 147",
        reported: "with TZImagePickerController in the app, WRNavigationBar turns the picker's"
          + " navigation bar white, and it cannot be changed",
        mechanism: "WRNavigationBar's swizzled viewWillAppear: styles every controller in every"
          + " navigation controller, a third-party picker's pages too, with its defaults (a white"
          + " bar) over what the picker set; the maintainers' answer is the blacklist of"
          + " controller classes it leaves alone (issue 141 reports the same intrusion)",
        scenario: "bar-layer-picker", profile: .ios11)
    ]
  }
}

extension BarLayerScenarios {
  /// WRNavigationBar issue 147: a third-party image picker (a navigation controller whose page
  /// sets its own dark bar, as TZImagePickerController's do) presented in an app that installed
  /// the plugin. As installed, the plugin's defaults paint the picker's bar white (`as
  /// installed: ...`, fails everywhere); with the picker's page in `BarLayer.settings.value.blacklist`
  /// it is left alone (`blacklisted: ...`), up to iOS 15 with its SDK, where the picker's own
  /// legacy-styled bar is clear at its scroll edge.
  public static let picker = Scenario(
    name: "bar-layer-picker",
    summary: "WR #147: a third-party picker's own dark bar, painted white unless blacklisted",
    plugin: plugin
  ) { context in
    var blacklisting = BarLayer.settings.value
    blacklisting.blacklist.insert(PickerPage.runtimeClass.name)
    let halves = [(false, BarLayer.settings.value), (true, blacklisting)]
    for (blacklisted, settings) in halves {
      BarLayer.settings.withValue(settings) {
        let label = blacklisted ? "blacklisted" : "as installed"
        let session = context.start(root: UIViewController())
        let picker = UINavigationController(rootViewController: PickerPage())
        session.navigationController.present(picker, animated: false)
        VirtualRunLoop.main.runUntilIdle()
        let seen = picker.navigationBar.asSeen(over: scenarioBackdrop)
        context.mark("\(label): the picker", seenBar: seen)
        let dark = UIColorComponents(PickerPage.barColor)
        context.expect(
          seen.backgroundColor == dark, "\(label): the picker's own dark bar",
          seen: "background \(seen.backgroundColor.color.hexDescription)",
          // Blacklisted, the picker draws its bar with the legacy properties alone: from iOS 15,
          // for an app built with its SDK, that bar is clear at the top of its content (the
          // scroll-edge appearance, gallery rt-299), a breakage of the picker's own.
          failsOn: blacklisted ? IOSProfile.names(linkedFrom: 15) : IOSProfile.everyName)
        picker.dismiss(animated: false)
      }
    }
  }
}

/// A third-party picker's page, as TZImagePickerController's: it sets its navigation bar dark,
/// knowing nothing of the plugin.
public final class PickerPage: UIViewController {
  /// The picker's bar colour.
  public static let barColor = UIColor(red: 0.13, green: 0.13, blue: 0.13, alpha: 1)

  public override func viewDidLoad() {
    super.viewDidLoad()
    title = "Photos"
    navigationController?.navigationBar.barTintColor = PickerPage.barColor
    navigationController?.navigationBar.isTranslucent = false
  }
}
