// FDFullscreenPopGesture's per-page API on the hijack: the bar hidden or shown around each
// appearance (as written and fixed), the pop disabled on a page, the largest distance from the
// left edge a swipe may start at, and the first move's direction.
import Foundation
import FullscreenPopPlugin
import Hooks
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

/// A finger down at `x`, half way down, moved by `moves` in turn; whether the hijack's pan
/// began. The finger is lifted (cancelled) afterwards.
@MainActor private func swipeBegins(_ session: NavigationSession, from x: CGFloat, moves: [CGFloat])
  -> Bool
{
  let navigation = session.navigationController
  guard let window = navigation.view.window, let pan = navigation.fdFullscreenPopGestureRecognizer
  else { return false }
  let pans = GestureDriver.touchDown(at: CGPoint(x: x, y: 300), in: window)
  guard pans.contains(where: { $0 === pan }) else { return false }
  for move in moves where pan.isFollowingTouch {
    GestureDriver.move(pan, to: CGPoint(x: move, y: 0))
  }
  let began = pan.state == .began || pan.state == .changed
  if pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
  VirtualRunLoop.main.runUntilIdle()
  return began
}

@MainActor
@Suite("FDFullscreenPopGesture's per-page API", .uiKitModel, .plugins(FullscreenPopPlugin()))
struct FDPerPageTests {
  @Test("a page that prefers the bar hidden hides it as it appears; the next page shows it")
  func prefersHidden() {
    for technique in [PopTechnique.hijackSeed, .hijack] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let session = NavigationSession(root: FullscreenPopScenarios.homePage())
        let hiding = FullscreenPopScenarios.opaquePage()
        hiding.fdPrefersNavigationBarHidden = true
        session.push(hiding)
        #expect(session.navigationController.isNavigationBarHidden, "\(technique)")
        let showing = FullscreenPopScenarios.opaquePage()
        showing.fdPrefersNavigationBarHidden = false
        session.push(showing)
        #expect(!session.navigationController.isNavigationBarHidden, "\(technique)")
        session.tapBack()
        #expect(session.navigationController.isNavigationBarHidden, "\(technique): back")
      }
    }
  }

  @Test("a cancelled swipe leaves the bar as the page on top wants it; a finished one too")
  func swipes() {
    for technique in [PopTechnique.hijackSeed, .hijack] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let root = FullscreenPopScenarios.homePage()
        root.fdPrefersNavigationBarHidden = false
        let session = NavigationSession(root: root)
        let hiding = FullscreenPopScenarios.opaquePage()
        hiding.fdPrefersNavigationBarHidden = true
        session.push(hiding)
        session.swipeBack(to: 0.3, from: 200)
        #expect(session.navigationController.topViewController === hiding, "\(technique)")
        #expect(session.navigationController.isNavigationBarHidden, "\(technique): cancelled")
        session.swipeBack(to: 0.7, from: 200)
        #expect(session.navigationController.topViewController === root, "\(technique)")
        #expect(!session.navigationController.isNavigationBarHidden, "\(technique): finished")
      }
    }
  }

  @Test("seed: a page that states nothing gets the bar shown; fixed: the app's choice holds")
  func statesNothing() {
    for technique in [PopTechnique.hijackSeed, .hijack] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let session = NavigationSession(root: FullscreenPopScenarios.homePage())
        session.navigationController.setNavigationBarHidden(true, animated: false)
        let page = FullscreenPopScenarios.opaquePage()
        #expect(!page.fdStatesNavigationBarPreference)
        session.push(page)
        let hidden = session.navigationController.isNavigationBarHidden
        #expect(hidden == (technique == .hijack), "\(technique)")
      }
    }
  }

  @Test("with the per-page appearance off, the bar is the app's alone, in both modes")
  func appearanceOff() {
    for technique in [PopTechnique.hijackSeed, .hijack] {
      FullscreenPopPlugin.technique.withValue(technique) {
        let session = NavigationSession(root: FullscreenPopScenarios.homePage())
        #expect(session.navigationController.fdViewControllerBasedNavigationBarAppearanceEnabled)
        session.navigationController.fdViewControllerBasedNavigationBarAppearanceEnabled = false
        let hiding = FullscreenPopScenarios.opaquePage()
        hiding.fdPrefersNavigationBarHidden = true
        session.push(hiding)
        #expect(!session.navigationController.isNavigationBarHidden, "\(technique)")
      }
    }
  }

  @Test("a page that disables the pop refuses the swipe; the next page does not")
  func popDisabled() {
    FullscreenPopPlugin.technique.withValue(.hijack) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      let locked = FullscreenPopScenarios.opaquePage()
      locked.fdInteractivePopDisabled = true
      session.push(locked)
      #expect(!swipeBegins(session, from: 200, moves: [20, 100]))
      session.push(FullscreenPopScenarios.opaquePage())
      #expect(swipeBegins(session, from: 200, moves: [20, 100]))
    }
  }

  @Test("a swipe may start only as far from the left edge as the page allows; 0 is anywhere")
  func maxDistance() {
    FullscreenPopPlugin.technique.withValue(.hijack) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      let page = FullscreenPopScenarios.opaquePage()
      session.push(page)
      page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge = 100
      // FD reads the finger's location when asked, after the first move.
      #expect(swipeBegins(session, from: 50, moves: [20]))
      #expect(!swipeBegins(session, from: 150, moves: [20]))
      #expect(!swipeBegins(session, from: 95, moves: [20]), "at 115 once it has moved")
      page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge = 0
      #expect(swipeBegins(session, from: 300, moves: [20]))
    }
  }

  @Test("the distance: negative is 0, NaN is refused and the value kept, infinity allows all")
  func distanceValues() {
    let page = UIViewController()
    #expect(page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge == 0)
    page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge = -5
    #expect(page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge == 0)
    page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge = 40
    page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge = .nan
    #expect(page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge == 40)
    page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge = .infinity
    #expect(page.fdInteractivePopMaxAllowedInitialDistanceToLeftEdge == .infinity)
  }

  @Test("a first move to the left is refused, as FD's delegate reads the translation")
  func leftwards() {
    FullscreenPopPlugin.technique.withValue(.hijackSeed) {
      let session = NavigationSession(root: FullscreenPopScenarios.homePage())
      session.push(FullscreenPopScenarios.opaquePage())
      #expect(!swipeBegins(session, from: 200, moves: [-20, 100]))
      #expect(swipeBegins(session, from: 200, moves: [20, 100]))
      #expect(session.navigationController.viewControllers.count == 2, "each cancelled")
    }
  }
}
