// KJNavigationController's demo as scenarios, each run twice from a fresh launch: first the
// seed's subclass (moments `seed: ...`, with the plugin taken off for that half), then the
// plugin on a plain navigation controller (`fixed: ...`).
import Foundation
import Hooks
import ObjCRuntime
public import Scenarios
import Synchronization
import UIKitModel

extension AnimatorTransitionPlugin: ScenarioPlugin {
  /// Push and pop with the seed's colours, a swipe-back cancelled and one finished, and an edge
  /// pan on the root.
  public var scenarios: [Scenario] { AnimatorTransitionScenarios.all }
}

/// The animator plugin's scenarios.
public enum AnimatorTransitionScenarios {
  /// The plugin's short name, `animator`.
  static let plugin = AnimatorTransitionPlugin().name

  /// Every scenario of the plugin.
  public static let all: [Scenario] = [
    pushPop, swipeBack, rootPan, gallerySwipe, tabBar, sheet, largeTitle, search,
  ]

  /// The seed's demo colours: a cyan bar with a white title over a home page with the default
  /// white bar and black title; a push and a pop, each marked half way through.
  public static let pushPop = Scenario(
    name: "kj-push-pop",
    summary: "push a cyan page and pop it: the bar's colour follows the views; seed, then plugin",
    plugin: plugin
  ) { context in
    for mode in AnimatorMode.allCases {
      runHalf(mode, context) { session in
        let navigation = session.navigationController
        context.mark("\(mode): home")
        navigation.pushViewController(cyanPage(), animated: true)
        VirtualRunLoop.main.advance(by: kjTransitionDuration / 2)
        context.mark("\(mode): push half way")
        VirtualRunLoop.main.runUntilIdle()
        context.mark("\(mode): pushed")
        navigation.popViewController(animated: true)
        VirtualRunLoop.main.advance(by: kjTransitionDuration / 2)
        context.mark("\(mode): pop half way")
        VirtualRunLoop.main.runUntilIdle()
        context.mark("\(mode): popped")
      }
    }
  }

  /// A swipe-back from the cyan page released at 30 % (cancelled), then one released from 70 %
  /// (finished). The seed leaves the home page's white bar and black title on the cyan page
  /// after the cancelled one (the animation block set them, the bar's animation is outside the
  /// paused container and ran to its end, and nothing sets them back); the plugin sets the cyan
  /// page's values back.
  public static let swipeBack = Scenario(
    name: "kj-swipe-back",
    summary: "swipe back: cancelled at 30 %, then finished from 70 %; seed, then plugin",
    plugin: plugin
  ) { context in
    for mode in AnimatorMode.allCases {
      runHalf(mode, context) { session in
        session.push(cyanPage())
        context.mark("\(mode): cyan page")
        session.swipeBack(to: 0.3)
        context.mark("\(mode): cancelled at 30 %")
        // The seed leaves the home page's title colour on the cyan page, on every version.
        context.expectBar(
          ExpectedBar(background: .cyan, titleColor: .white), "\(mode): the cyan page's bar",
          failsOn: mode == .seed ? IOSProfile.everyName : [])
        session.swipeBack(to: 0.7)
        context.mark("\(mode): finished from 70 %")
      }
    }
  }

  /// A swipe back from a page filled by a sideways scroll view: KJ's own edge pan, on the
  /// navigation controller's view, loses the finger to the scroll view's pan as the system's
  /// does (FDFullscreenPopGesture issue 61 reports the same of FD's pan); neither KJ nor the
  /// plugin changes that. With the app's usual answer, the gallery's pan required to fail on the
  /// edge pans of the navigation controller's view, KJ's swipe pops.
  public static let gallerySwipe = Scenario(
    name: "kj-gallery-swipe",
    summary: "a swipe back over a sideways gallery: kept by it, then popping with require(toFail:)",
    plugin: plugin
  ) { context in
    for mode in AnimatorMode.allCases {
      runHalf(mode, context) { session in
        let gallery = SidewaysGalleryPage()
        session.push(gallery)
        context.mark("\(mode): the gallery")
        context.swipeBackOverGallery(gallery, in: session, prefix: "\(mode): ")
      }
    }
  }

  /// In a tab: the cyan page, which hides the tab bar, pushed by KJ's animator and swiped back
  /// with KJ's own edge pan, cancelled at 30 % then finished from 70 %. The tab bar slides out
  /// over the push's duration on its own, whatever the animator does (EZCustomNavigation issue
  /// 11: it "seems to move at its own will, not following the animation block"), stays hidden
  /// after the cancelled swipe and comes back with the finished one, in the seed and with the
  /// plugin. The seed's cancelled swipe leaves the home page's white bar on the cyan page, as
  /// in `kj-swipe-back` (fails everywhere), and under a notch its background view, 20 points
  /// taller than the bar, leaves the bar's lower part uncovered (fails on those devices).
  public static let tabBar = Scenario(
    name: "kj-tab-bar",
    summary: "in a tab: a cyan page hiding the tab bar, pushed by KJ's animator and swiped back",
    plugin: plugin
  ) { context in
    for mode in AnimatorMode.allCases {
      runHalf(mode, context, inTab: true) { session in
        context.mark("\(mode): home")
        let cyan = cyanPage()
        cyan.hidesBottomBarWhenPushed = true
        context.pushAndSwipeBackOverTabBar(cyan, in: session, prefix: "\(mode): ") { step in
          if step != "finished" {
            context.expectBar(
              ExpectedBar(background: .cyan, titleColor: .white),
              "\(mode): \(step): the cyan page's bar",
              failsOn: mode == .seed && step == "cancelled" ? IOSProfile.everyName : [],
              onDevices: mode == .seed && step == "pushed" ? notchDevices : [])
          }
        }
      }
    }
  }

  /// In a sheet: a navigation controller (the seed's `KJNavigationController`, or a plain one
  /// with the plugin) presented in the default style over the home page, the cyan page pushed
  /// in it by KJ's animator and swiped back with KJ's edge pan from the sheet's edge, the sheet
  /// dragged down and let go, then dragged away. The seed's background view is 20 points taller
  /// than the bar for the status bar of the iPhones before the X: in a card (iOS 13 with its
  /// SDK), whose bar has no status bar above it, it hangs 20 points below the bar over the page
  /// (the model's prediction, as `lt-sheet`'s; no report of it was found); before iOS 13, full
  /// screen, it is short under a notch, as in `kj-tab-bar`. The seed's swipe back measures the
  /// finger against the screen's width: in an iPad's sheet, narrower than the screen, a swipe
  /// across 70 % of the sheet is under half the screen, and the pop is cancelled; the plugin
  /// measures it against the pan's view.
  public static let sheet = Scenario(
    name: "kj-sheet",
    summary: "in a sheet: the cyan page pushed by KJ's animator and swiped back, the sheet dragged",
    plugin: plugin
  ) { context in
    for mode in AnimatorMode.allCases {
      runHalf(mode, context) { session in
        let navigation: UINavigationController
        switch mode {
        case .seed:
          guard let made = try? KJNavigationController.make(rootViewController: homePage()) else {
            return context.mark("seed: KJNavigationController could not be made")
          }
          navigation = made
        case .fixed: navigation = UINavigationController(rootViewController: homePage())
        }
        let sheet = context.presentSheet(
          navigationController: navigation, in: session, prefix: "\(mode): ")
        let seed = mode == .seed
        let cards = IOSProfile.names(linkedFrom: 13)
        context.pushAndDragInSheet(
          sheet, pushing: cyanPage(), in: session, prefix: "\(mode): ",
          finishFailsOn: seed ? cards : [], onDevices: seed ? [.iPadAir] : []
        ) { step in
          guard step == "pushed" else { return }
          context.expectBar(
            ExpectedBar(background: .cyan, titleColor: .white), "\(mode): pushed: the cyan bar",
            failsOn: seed ? IOSProfile.everyName.subtracting(cards) : [],
            onDevices: seed ? notchDevices : [])
          let below = context.colorBelowFrontBar()
          context.expect(
            below != UIColorComponents(.cyan), "\(mode): pushed: nothing cyan below the bar",
            seen: "cyan 10 points below the bar", failsOn: seed ? cards : [])
        }
      }
    }
  }

  /// An edge pan on the root controller: the seed makes its interactive transition and pops
  /// nothing, then drives a transition that never started (UIKit ignores the calls, and so does
  /// the model: the scenario reads how many were ignored, just before the pan's end); the
  /// plugin's pan does not begin.
  public static let rootPan = Scenario(
    name: "kj-root-pan",
    summary: "an edge pan on the root page: the seed drives a pop that never started",
    plugin: plugin
  ) { context in
    for mode in AnimatorMode.allCases {
      runHalf(mode, context) { session in
        let ignored = Mutex(0)
        let token =
          mode == .seed
          ? try? session.navigationController.hook(before: KJNavigationController.edgePanSelector) {
            (navigation, _: UIPanGestureRecognizer) in
            MainThread.assumeIsolated {
              let calls = navigation.kjInteractive?.callsBeforeStart ?? 0
              ignored.withLock { $0 = max($0, calls) }
            }
          } : nil
        session.swipeBack(to: 0.6)
        token?.remove()
        let drove = ignored.withLock { $0 } > 0
        context.mark("\(mode): root after the pan" + (drove ? " (interaction never started)" : ""))
      }
    }
  }

  /// Runs `body` on a fresh launch on the run's device and system version: for
  /// ``AnimatorMode/seed`` a ``KJNavigationController`` with
  /// the plugin taken off meanwhile (put back after, if it was on); for ``AnimatorMode/fixed``
  /// a plain navigation controller, which the plugin adopts. `inTab`: the navigation
  /// controller is the first of two tabs of a tab bar controller. `root` makes the root page
  /// (``homePage()`` unless given) and `configure`, if given, the navigation controller before
  /// the launch (a bar that prefers large titles; not in a tab).
  public static func runHalf(
    _ mode: AnimatorMode, _ context: ScenarioContext, inTab: Bool = false,
    root: @MainActor () -> UIViewController = homePage,
    configure: ((UINavigationController) -> Void)? = nil,
    _ body: (NavigationSession) -> Void
  ) {
    let registry = PluginRegistry.shared
    let installed = registry.isInstalled(AnimatorTransitionPlugin().identifier)
    switch mode {
    case .seed:
      if installed { registry.uninstall(plugin) }
      // The bar takes the hierarchy of the version it is made under: the run's.
      UIScreen.main.profile = context.options.device
      UIDevice.current.systemVersion = context.options.systemVersion
      do {
        let navigation = try KJNavigationController.make(rootViewController: root())
        configure?(navigation)
        body(
          inTab
            ? context.start(tabs: [navigation, homePage()])
            : context.start(navigationController: { navigation }))
      } catch {
        context.mark("seed: KJNavigationController could not be made: \(error)")
      }
      VirtualRunLoop.main.runUntilIdle()
      if installed {
        do {
          try registry.install(named: plugin)
        } catch {
          context.mark("the plugin could not be installed again: \(error)")
        }
      }
    case .fixed:
      if inTab {
        body(context.start(tabs: [root(), homePage()]))
      } else if let configure {
        // Made once the run's device and version are set: the bar takes their hierarchy.
        body(
          context.start(navigationController: {
            let navigation = UINavigationController(rootViewController: root())
            configure(navigation)
            return navigation
          }))
      } else {
        body(context.start(root: root()))
      }
    }
  }

  /// The devices with a notch, where the seed's background view is short.
  static let notchDevices: Set<DeviceProfile> = [
    .iPhoneX, .iPhoneXS, .iPhoneXR, .iPhoneXSMax, .iPhone15,
  ]

  /// The home page: the default white bar, black title.
  public static func homePage() -> UIViewController {
    let page = UIViewController()
    page.title = "Home"
    return page
  }

  /// The demo's page: `kj_navigationBarTintColor = cyan`, `kj_navigationTitleColor = white`.
  public static func cyanPage() -> UIViewController {
    let page = UIViewController()
    page.title = "Cyan"
    page.kj_navigationBarTintColor = .cyan
    page.kj_navigationTitleColor = .white
    return page
  }
}
