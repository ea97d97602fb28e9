// The fullscreen-pop plugin on the model: the article's pan and animator in seed and fixed
// modes (each of its bugs shown in seed mode and fixed), FDFullscreenPopGesture's hijack of the
// system's private target, alone and beside the bar-layer plugin, and bad input.
import BarLayerPlugin
import Foundation
import FullscreenPopPlugin
import Hooks
import ObjCRuntime
import Scenarios
import SwizzleKitTesting
import Synchronization
import Testing
import UIKitModel

/// The article's stack: home, the transparent page scrolled to `alpha`, and the opaque page.
@MainActor private func articleStack(alpha: CGFloat = 0.5) -> (NavigationSession, TransparentPage) {
  let session = NavigationSession(root: FullscreenPopScenarios.homePage())
  let transparent = TransparentPage()
  session.push(transparent)
  transparent.scrollView.contentOffset = CGPoint(
    x: 0, y: alpha * TransparentPage.fadeDistance)
  session.push(FullscreenPopScenarios.opaquePage())
  return (session, transparent)
}

/// The alpha of the bar's first subview, the article's `barImageView`.
@MainActor private func barImageAlpha(_ session: NavigationSession) -> CGFloat? {
  session.navigationController.navigationBar.subviews.first?.alpha
}

/// A finger down at mid-screen, moved 12 points to the right (where a pan begins), then to
/// `fraction` of the width; the pans that began.
@MainActor private func holdSwipe(_ session: NavigationSession, at fraction: CGFloat)
  -> [UIPanGestureRecognizer]
{
  guard let view = session.navigationController.view, let window = view.window else { return [] }
  let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
  for translation in [12, view.bounds.width * fraction] {
    for pan in pans where pan.isFollowingTouch {
      GestureDriver.move(pan, to: CGPoint(x: translation, y: 0))
    }
  }
  return pans.filter { $0.state == .began || $0.state == .changed }
}

@MainActor
@Suite("Fullscreen-pop plugin", .uiKitModel, .plugins(FullscreenPopPlugin()))
struct FullscreenPopPluginTests {
  @Test("article seed: page B sets the swipe up in its viewDidLoad, itself the pan's delegate")
  func articleSeedPageSetUp() throws {
    try FullscreenPopPlugin.technique.withValue(.articleSeed) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      let navigation = session.navigationController
      #expect(navigation.interactivePopGestureRecognizer?.isEnabled == true, "no B yet")
      let first = try #require(FullscreenPopScenarios.opaquePage() as? ArticlePopPage)
      session.push(first)
      let pan = try #require(first.popRecognizer)
      #expect(pan.delegate === first)
      #expect(navigation.view.gestureRecognizers?.contains { $0 === pan } == true)
      #expect(navigation.delegateObject === first.navT)
      #expect(navigation.interactivePopGestureRecognizer?.isEnabled == false)
      // Each B pushed sets it up again: one more pan, one more transition taking the delegate.
      let second = try #require(FullscreenPopScenarios.opaquePage() as? ArticlePopPage)
      session.push(second)
      let article = navigation.view.gestureRecognizers?.filter {
        $0 !== navigation.interactivePopGestureRecognizer
      }
      #expect(article?.count == 2)
      #expect(navigation.delegateObject === second.navT)
    }
  }

  @Test("article fixed: one set-up per navigation controller, however many pages are pushed")
  func articleFixedOnce() {
    FullscreenPopPlugin.technique.withValue(.article) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      session.push(FullscreenPopScenarios.opaquePage())
      session.push(FullscreenPopScenarios.opaquePage())
      let navigation = session.navigationController
      let article = navigation.view.gestureRecognizers?.filter {
        $0 !== navigation.interactivePopGestureRecognizer
      }
      #expect(article?.count == 1)
    }
  }

  @Test("article: the system swipe off, a pan on the controller's view, the delegate taken")
  func articleMachinery() throws {
    try FullscreenPopPlugin.technique.withValue(.article) {
      let (session, _) = articleStack()
      let navigation = session.navigationController
      #expect(navigation.interactivePopGestureRecognizer?.isEnabled == false)
      let delegate = try #require(navigation.delegateObject as? NavigationInteractiveTransition)
      #expect(navigation.view.gestureRecognizers?.contains { $0 === delegate.pan } == true)
    }
  }

  @Test("article, seed: finished from 70 % the bar ends at 0, not the page's 0.5; fixed: 0.5")
  func articleFinish() {
    for technique in [PopTechnique.articleSeed, .article] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let (session, transparent) = articleStack()
        let pans = holdSwipe(session, at: 0.7)
        for pan in pans { GestureDriver.end(pan) }
        // What the release itself set, before the page's viewDidAppear.
        #expect(barImageAlpha(session) == (technique == .article ? 0.5 : 0), "\(technique)")
        VirtualRunLoop.main.runUntilIdle()
        #expect(session.navigationController.topViewController === transparent)
        let alpha = barImageAlpha(session)
        #expect(alpha == (technique == .article ? 0.5 : 0), "\(technique): and after")
      }
    }
  }

  @Test("fixed: a swipe between two opaque pages leaves the bar alone; the seed clears it")
  func opaquePagesLeftAlone() {
    for technique in [PopTechnique.articleSeed, .article] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let session = NavigationSession(root: FullscreenPopScenarios.homePage())
        session.push(FullscreenPopScenarios.opaquePage())
        let before = session.navigationController.navigationBar.asSeen()
        session.swipeBack(to: 0.7, from: 200)
        #expect(session.navigationController.viewControllers.count == 1)
        let after = session.navigationController.navigationBar.asSeen()
        #expect((after == before) == (technique == .article), "\(technique)")
      }
    }
  }

  @Test("article: mid-swipe the bar shows min(stored alpha, 1 − progress)")
  func articleFade() {
    FullscreenPopPlugin.technique.withValue(.article) {
      let (session, _) = articleStack(alpha: 0.9)
      let pans = holdSwipe(session, at: 0.3)
      #expect(abs((barImageAlpha(session) ?? 0) - 0.7) < 1e-9)
      for pan in pans { GestureDriver.end(pan, cancelled: true) }
      VirtualRunLoop.main.runUntilIdle()
    }
  }

  @Test("article bug: a refused gesture leaves isGesturePop set, so a tap back restores nothing")
  func refusedGestureFlag() {
    for technique in [PopTechnique.articleSeed, .article] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let session = NavigationSession(root: FullscreenPopScenarios.homePage())
        let transparent = TransparentPage()
        session.push(transparent)
        transparent.scrollView.contentOffset = CGPoint(x: 0, y: 68)
        let navigation = session.navigationController
        navigation.pushViewController(FullscreenPopScenarios.opaquePage(), animated: true)
        // A swipe during the push: refused (`_isTransitioning`).
        #expect(holdSwipe(session, at: 0.3).isEmpty)
        VirtualRunLoop.main.runUntilIdle()
        #expect(ArticleDefaults.isGesturePop == (technique == .articleSeed), "\(technique)")
        session.tapBack()
        let alpha = barImageAlpha(session)
        #expect(alpha == (technique == .article ? 0.5 : 1), "\(technique): restored or not")
      }
    }
  }

  @Test("article bug: one stored alpha for every page; fixed: each page's own")
  func globalAlpha() {
    for technique in [PopTechnique.articleSeed, .article] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let session = NavigationSession(root: FullscreenPopScenarios.homePage())
        let first = TransparentPage()
        session.push(first)
        first.scrollView.contentOffset = CGPoint(x: 0, y: 0.2 * TransparentPage.fadeDistance)
        let second = TransparentPage()
        session.push(second)
        second.scrollView.contentOffset = CGPoint(x: 0, y: 0.8 * TransparentPage.fadeDistance)
        session.tapBack()
        session.push(FullscreenPopScenarios.opaquePage())
        // Swiping back towards the first page (0.2): the seed fades towards the second's 0.8.
        let pans = holdSwipe(session, at: 0.1)
        let alpha = barImageAlpha(session) ?? -1
        #expect(abs(alpha - (technique == .article ? 0.2 : 0.8)) < 1e-6, "\(technique)")
        for pan in pans { GestureDriver.end(pan, cancelled: true) }
        VirtualRunLoop.main.runUntilIdle()
      }
    }
  }

  @Test("released exactly at 0.5 the pop cancels; a point past it, it finishes (both modes)")
  func halfWay() throws {
    for technique in [PopTechnique.articleSeed, .article] {
      for (distance, finishes) in [(187.5, false), (188.5, true)] {
        try FullscreenPopPlugin.technique.withValue(technique) {
          let (session, transparent) = articleStack()
          let window = try #require(session.navigationController.view.window)
          let pans = GestureDriver.touchDown(at: CGPoint(x: 100, y: 300), in: window)
          for translation in [12, distance] {
            for pan in pans { GestureDriver.move(pan, to: CGPoint(x: translation, y: 0)) }
          }
          for pan in pans { GestureDriver.end(pan) }
          VirtualRunLoop.main.runUntilIdle()
          let top = session.navigationController.topViewController
          #expect((top === transparent) == finishes, "\(technique) at \(distance)")
        }
      }
    }
  }

  @Test("article, fixed: a gesture the system cancels mid-way cancels, resets the flag")
  func systemCancel() {
    for technique in [PopTechnique.articleSeed, .article] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let (session, _) = articleStack()
        let pans = holdSwipe(session, at: 0.7)
        for pan in pans { GestureDriver.end(pan, cancelled: true) }
        if technique == .article {
          #expect(barImageAlpha(session) == 1, "the leaving opaque page's bar, at the release")
        }
        VirtualRunLoop.main.runUntilIdle()
        let count = session.navigationController.viewControllers.count
        if technique == .article {
          #expect(count == 3, "cancelled")
          #expect(!ArticleDefaults.isGesturePop)
          #expect(barImageAlpha(session) == 1, "the opaque page's bar back")
        } else {
          #expect(count == 2, "the article finishes a cancelled gesture past half way")
        }
      }
    }
  }

  @Test("hijack: the pan's target is the system's private one; a mid-screen swipe pops")
  func hijack() throws {
    try FullscreenPopPlugin.technique.withValue(.hijack) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      session.push(FullscreenPopScenarios.opaquePage())
      let navigation = session.navigationController
      let system = try #require(navigation.interactivePopGestureRecognizer)
      #expect(!system.isEnabled)
      let pans = navigation.view.gestureRecognizers?.filter { $0 !== system } ?? []
      #expect(pans.count == 1)
      let entry = try #require((try pans.first?.value(forKey: "targets") as? [ObjCObject])?.first)
      #expect(try entry.value(forKey: "target") is _UINavigationInteractiveTransition)
      let updates = Atomic(0)
      let token = try UINavigationController.hook(before: "_updateInteractiveTransition:") {
        (_, _: Double) in updates.add(1, ordering: .relaxed)
      }
      defer { token.remove() }
      session.swipeBack(to: 0.7, from: 200)
      #expect(navigation.viewControllers.count == 1)
      #expect(updates.load(ordering: .relaxed) > 5, "the system's own interactive pop")
    }
  }

  @Test(
    "hijack beside the bar-layer plugin: its hooks still colour the bar along the swipe",
    .plugins(BarLayerPlugin()))
  func hijackWithBarLayer() throws {
    try FullscreenPopPlugin.technique.withValue(.hijack) {
      let home = FullscreenPopScenarios.homePage()
      home.navBarBarTintColor = .red
      let session = NavigationSession(root: home)
      let detail = FullscreenPopScenarios.opaquePage()
      detail.navBarBarTintColor = .blue
      session.push(detail)
      let pans = holdSwipe(session, at: 0.5)
      #expect(pans.count == 1)
      VirtualRunLoop.main.advance(frames: 2)
      let middle = session.navigationController.navigationBar.asSeen(over: .white)
      #expect(middle.backgroundColor.red > 0.2 && middle.backgroundColor.blue > 0.2, "mixed")
      for pan in pans {
        GestureDriver.move(pan, to: CGPoint(x: 300, y: 0))
        GestureDriver.end(pan)
      }
      VirtualRunLoop.main.runUntilIdle()
      let end = try #require(session.navigationController.topViewController)
      #expect(end === home)
      #expect(
        session.navigationController.navigationBar.asSeen(over: .white).backgroundColor
          == UIColorComponents(.red))
    }
  }

  @Test("no pop on the root, none while one runs, no second pan: each technique")
  func refusals() {
    for technique in PopTechnique.allCases {
      FullscreenPopPlugin.technique.withValue(technique) {
        let session = NavigationSession(root: FullscreenPopScenarios.homePage())
        #expect(holdSwipe(session, at: 0.8).isEmpty, "\(technique): root")
        session.push(FullscreenPopScenarios.opaquePage())
        let first = holdSwipe(session, at: 0.2)
        #expect(first.count == 1, "\(technique)")
        #expect(holdSwipe(session, at: 0.4).isEmpty, "\(technique): a second pan")
        for pan in first { GestureDriver.end(pan, cancelled: true) }
        VirtualRunLoop.main.runUntilIdle()
        #expect(session.navigationController.viewControllers.count == 2, "\(technique)")
        if technique == .article { #expect(!ArticleDefaults.isGesturePop) }
      }
    }
  }

  @Test("hijack: refused during a transition and on a page that disables it")
  func hijackRefusals() {
    FullscreenPopPlugin.technique.withValue(.hijack) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      session.push(FullscreenPopScenarios.opaquePage())
      let navigation = session.navigationController
      let third = FullscreenPopScenarios.opaquePage()
      navigation.pushViewController(third, animated: true)
      #expect(holdSwipe(session, at: 0.5).isEmpty, "during the push")
      VirtualRunLoop.main.runUntilIdle()
      third.fdInteractivePopDisabled = true
      #expect(holdSwipe(session, at: 0.5).isEmpty, "disabled on this page")
      third.fdInteractivePopDisabled = false
      let pans = holdSwipe(session, at: 0.7)
      #expect(pans.count == 1)
      for pan in pans { GestureDriver.end(pan) }
      VirtualRunLoop.main.runUntilIdle()
      #expect(navigation.viewControllers.count == 2)
    }
  }

  @Test("a pan taken off its view mid-swipe is cancelled: the pop goes back, nothing stuck")
  func removedMidSwipe() throws {
    try FullscreenPopPlugin.technique.withValue(.hijack) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      session.push(FullscreenPopScenarios.opaquePage())
      let navigation = session.navigationController
      let pans = holdSwipe(session, at: 0.7)
      let pan = try #require(pans.first)
      pan.view?.removeGestureRecognizer(pan)
      VirtualRunLoop.main.runUntilIdle()
      #expect(pan.state == .possible)
      #expect(!navigation.isTransitioning && navigation.viewControllers.count == 2)
    }
  }

  @Test("hijack on a gesture with no target: declined with a typed error, nothing changed")
  func noTarget() throws {
    try FullscreenPopPlugin.technique.withValue(.hijack) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      let navigation = session.navigationController
      let system = try #require(navigation.interactivePopGestureRecognizer)
      system.removeTarget(nil, action: nil)
      let said = Mutex<[String]>([])
      _ = Diagnostics.withObserver({ diagnostic in said.withLock { $0.append("\(diagnostic)") } }) {
        session.push(FullscreenPopScenarios.opaquePage())
      }
      #expect(said.withLock { $0 }.contains { $0.contains("no private target to hijack") })
      #expect(system.isEnabled)
      #expect(navigation.view.gestureRecognizers?.count == 1)
    }
  }

  @Test("every scenario runs and marks its moments")
  func scenarios() throws {
    for scenario in FullscreenPopScenarios.all {
      let moments = try scenario.run()
      #expect(moments.count >= 2, "\(scenario.name)")
    }
  }
}

/// Uninstalling, outside the suite that installs the plugin.
@MainActor
@Suite("Fullscreen-pop plugin uninstall", .uiKitModel)
struct FullscreenPopUninstallTests {
  @Test("uninstalled: the system swipe back on, the pans off, the delegate given back")
  func uninstall() throws {
    let registry = PluginRegistry.shared
    let identifier = FullscreenPopPlugin().identifier
    #expect(try registry.install(FullscreenPopPlugin()))
    let session = FullscreenPopPlugin.technique.withValue(.article) {
      articleStack().0
    }
    let navigation = session.navigationController
    registry.uninstall(identifier)
    #expect(navigation.interactivePopGestureRecognizer?.isEnabled == true)
    #expect(navigation.delegateObject == nil)
    #expect(navigation.view.gestureRecognizers?.count == 1)
  }

  @Test("uninstalled after the seed's pages set up: their pans off, the system swipe back on")
  func uninstallArticleSeed() throws {
    let registry = PluginRegistry.shared
    #expect(try registry.install(FullscreenPopPlugin()))
    let session = FullscreenPopPlugin.technique.withValue(.articleSeed) { () -> NavigationSession in
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      session.push(FullscreenPopScenarios.opaquePage())
      session.push(FullscreenPopScenarios.opaquePage())
      return session
    }
    let navigation = session.navigationController
    #expect(navigation.view.gestureRecognizers?.count == 3)
    registry.uninstall(FullscreenPopPlugin().identifier)
    #expect(navigation.view.gestureRecognizers?.count == 1)
    #expect(navigation.interactivePopGestureRecognizer?.isEnabled == true)
    #expect(navigation.delegateObject == nil, "it had none")
  }

  @Test("uninstalled after the seed's pages set up: the app's own delegate comes back")
  func uninstallArticleSeedDelegate() throws {
    final class AppDelegate: UINavigationControllerDelegate {}
    let registry = PluginRegistry.shared
    #expect(try registry.install(FullscreenPopPlugin()))
    let app = AppDelegate()
    let session = FullscreenPopPlugin.technique.withValue(.articleSeed) { () -> NavigationSession in
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      session.navigationController.delegate = app
      session.push(FullscreenPopScenarios.opaquePage())
      return session
    }
    let navigation = session.navigationController
    #expect(navigation.delegateObject !== app, "taken by the page's transition")
    registry.uninstall(FullscreenPopPlugin().identifier)
    #expect(navigation.delegate === app)
  }

  @Test("uninstalled: the hijack's pan off, the system swipe as it was before")
  func uninstallHijack() throws {
    let registry = PluginRegistry.shared
    #expect(try registry.install(FullscreenPopPlugin()))
    let session = FullscreenPopPlugin.technique.withValue(.hijack) {
      NavigationSession(root: FullscreenPopScenarios.homePage())
    }
    let navigation = session.navigationController
    navigation.interactivePopGestureRecognizer?.isEnabled = false  // the app's own choice
    FullscreenPopPlugin.technique.withValue(.hijack) {
      session.push(FullscreenPopScenarios.opaquePage())
    }
    #expect(navigation.view.gestureRecognizers?.count == 2)
    registry.uninstall(FullscreenPopPlugin().identifier)
    #expect(navigation.view.gestureRecognizers?.count == 1)
    #expect(navigation.interactivePopGestureRecognizer?.isEnabled == false, "as the app left it")
  }
}
