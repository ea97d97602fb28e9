// The overlay plugin in a sheet: the background-colour demo presented, a push and a swipe back in
// the sheet, the sheet dragged down and let go, then dragged away.
import Foundation
public import Scenarios
import UIKitModel

extension OverlayBarScenarios {
  /// In a sheet: the background-colour demo at the root of a navigation controller presented
  /// in the default style, scrolled until its bar is blue, a plain page pushed in the sheet and
  /// swiped back, the sheet dragged down and let go, then dragged away. From iOS 13 (with its
  /// SDK) the sheet is a card, and its bar is 56 points tall with no status bar above it: the
  /// seed's overlay, 20 points taller than the bar for the status bar of the iPhones before the
  /// X, covers the whole bar on every device there, and hangs 20 points below it over the page
  /// (the model's prediction from the seed's code and the sheet's sourced bar; no report of it
  /// was found). On iOS 12 the sheet is full screen, but a presented bar gets its background
  /// only once in the window (WRNavigationBar issue 153), so the seed's overlay, made from the
  /// demo's `viewWillAppear:`, goes into the content view: it covers the bar, not the status
  /// bar's strip, and hangs 20 points below it there too, until the demo makes it again in
  /// the background after the swipe back. The fixed overlay follows the background, and ends
  /// with the bar. Before iOS 12 the seed's overlay is short under a
  /// notch, as in `lt-background-color`. Seed, then fixed.
  public static let sheet = Scenario(
    name: "lt-sheet",
    summary:
      "in a sheet: the demo's blue bar, a push and swipe back, the sheet dragged; seed, then fixed",
    plugin: plugin
  ) { context in
    // Where the seed's overlay is 20 points taller than the bar it lands in: a card's bar, and
    // on iOS 12 the presented bar without its background (until the overlay is made again).
    let cards = IOSProfile.names(linkedFrom: 13)
    for mode in OverlayMode.allCases {
      let session = context.start(root: plainPage("Home"))
      let page = BackgroundColorDemo(mode: mode)
      let sheet = context.presentSheet(page, in: session, prefix: "\(mode): ")
      page.scrollView.contentOffset = CGPoint(x: 0, y: 150)
      context.mark("\(mode): blue in the sheet")
      let seed = mode == .seed
      context.pushAndDragInSheet(
        sheet, pushing: plainPage("Next"), in: session, prefix: "\(mode): "
      ) {
        step in
        switch step {
        case "presented", "popped", "drag cancelled":
          let overhang = step == "presented" ? cards.union(["12"]) : cards
          context.expectBar(
            ExpectedBar(background: demoBlue, backgroundAlpha: 1),
            "\(mode): \(step): the bar blue",
            failsOn: seed ? IOSProfile.everyName.subtracting(overhang) : [],
            onDevices: seed ? notchDevices : [])
          let below = context.colorBelowFrontBar()
          context.expect(
            below != UIColorComponents(demoBlue), "\(mode): \(step): nothing blue below the bar",
            seen: "blue 10 points below the bar", failsOn: seed ? overhang : [])
        case "pushed":
          let seen = context.session?.frontNavigationController.navigationBar.asSeen()
          context.expect(
            seen?.backgroundColor != UIColorComponents(demoBlue),
            "\(mode): pushed: the plain page's bar is not blue",
            seen: seen.map { "\($0.backgroundColor.color.hexDescription)" } ?? "no bar")
        default:
          context.expect(
            context.session?.frontNavigationController === session.navigationController,
            "\(mode): dismissed: the app's own bar again", seen: "a sheet's bar")
        }
      }
    }
  }
}
