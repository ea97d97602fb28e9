// The animator plugin under large titles: the cyan list pushed under a bar that prefers them,
// scrolled until its large title has gone and back, then popped.
import Foundation
public import Scenarios
import UIKitModel

extension AnimatorTransitionScenarios {
  /// Large titles: the home page at the root of a navigation controller whose bar prefers large
  /// titles (from iOS 11; before, the plain bar), the cyan list pushed (it shows a large title
  /// too), scrolled until its large title has gone and back, then popped; the seed's subclass,
  /// then the plugin. KJ sets the title's colour through the title attributes alone, and a large
  /// title has attributes of its own (Apple's `largeTitleTextAttributes`): the seed's large title
  /// stays black on the cyan bar; the plugin colours it too. The seed's background view is the
  /// bar's height plus 20 when it is made (during the first push), with flexible margins and a
  /// fixed size, so it keeps that height as the large title comes and goes. Where it then sits
  /// depends on how UIKit splits a height change between two flexible margins that are both
  /// zero, which Apple does not document (its documentation shares a change in proportion to the
  /// flexible parts), so the seed's colour below the bar and in the status bar's strip is not
  /// checked: the model shares it evenly, and the timeline shows what that gives. The plugin's
  /// view follows the bar's background.
  public static let largeTitle = Scenario(
    name: "kj-large-title",
    summary: "large titles: the cyan list pushed, scrolled and popped; seed, then plugin",
    plugin: plugin
  ) { context in
    let version = context.options.systemVersion
    let large = UIDevice.majorVersion(of: version) >= 11
    let row = UINavigationBar.height(on: context.options.device, systemVersion: version)
    let top = large ? row + UINavigationBar.largeTitleHeight : row
    for mode in AnimatorMode.allCases {
      runHalf(
        mode, context, configure: { if large { $0.navigationBar.prefersLargeTitles = true } }
      ) {
        session in
        let bar = session.navigationController.navigationBar
        context.mark("\(mode): home")
        let list = CyanList()
        session.push(list)
        context.mark("\(mode): the cyan list")
        // The seed's view is short on a notch device (its 20 points for the status bar): the
        // bar's middle is past it unless a large title made it taller (iOS 10 has none).
        let short =
          mode == .seed ? IOSProfile.everyName.subtracting(IOSProfile.names(from: 11)) : []
        context.expectBar(
          ExpectedBar(background: .cyan, backgroundAlpha: 1, height: top),
          "\(mode): cyan, the large title's height", failsOn: short,
          onDevices: mode == .seed ? notchDevices : [])
        if large {
          context.expectBar(
            ExpectedBar(largeTitleColor: .white), "\(mode): the large title white",
            failsOn: mode == .seed ? IOSProfile.everyName : [])
        }
        session.scroll(list.scrollView, by: 150)
        context.mark("\(mode): scrolled, the large title gone")
        context.expectBar(
          ExpectedBar(background: .cyan, backgroundAlpha: 1, titleColor: .white, height: row),
          "\(mode): cyan, the row's height, its title white", failsOn: short,
          onDevices: mode == .seed ? notchDevices : [])
        if mode == .fixed {
          context.expect(
            context.colorBelowFrontBar() != UIColorComponents(.cyan),
            "\(mode): nothing cyan below the bar", seen: "cyan 10 points below the bar")
        }
        session.scroll(list.scrollView, by: -150)
        context.mark("\(mode): back at the top")
        context.expect(
          bar.barHeight == top, "\(mode): the large title back", seen: "\(bar.barHeight)")
        session.pop()
        context.mark("\(mode): home again")
        context.expectBar(
          ExpectedBar(background: .white, backgroundAlpha: 1, height: top),
          "\(mode): white, the large title's height", failsOn: short,
          onDevices: mode == .seed ? notchDevices : [])
      }
    }
  }

  /// The demo's cyan page as a list: a scroll view over its whole view.
  private final class CyanList: UIViewController {
    let scrollView = UIScrollView(frame: .zero)

    override init() {
      super.init()
      title = "Cyan"
      kj_navigationBarTintColor = .cyan
      kj_navigationTitleColor = .white
    }

    override func viewDidLoad() {
      super.viewDidLoad()
      scrollView.frame = view.bounds
      scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
      view.addSubview(scrollView)
    }
  }
}
