// Sheets, the swipe down: the delegate's order, a cancelled drag, attempts, sideways moves, the
// release rules, refusals while a sheet is dragged, re-entrant delegates, and the session's
// drag.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// A logged page S presented over `navigation` in the default style, its presentation
/// controller's delegate recording; the log is emptied.
@MainActor func presentLoggedSheet(over navigation: UINavigationController, log: NavigationLog) -> (
  LoggedScreen, SheetDelegate
) {
  let sheet = LoggedScreen("S", log: log)
  let delegate = SheetDelegate()
  sheet.presentationController?.delegate = delegate
  navigation.present(sheet, animated: false)
  _ = log.take()
  return (sheet, delegate)
}

extension UIKitModelTests.SheetTests {
  @Test("a swipe down past half way dismisses: should, will, then did; the page's callbacks")
  func swipeDismisses() throws {
    let log = NavigationLog()
    let (navigation, _) = sheetScene(log: log)
    let (sheet, delegate) = presentLoggedSheet(over: navigation, log: log)
    let pan = try #require(sheet.presentationController?.dismissalPanGestureRecognizer)
    GestureDriver.swipe(pan, translation: CGPoint(x: 0, y: 500), steps: 10)
    VirtualRunLoop.main.advance(by: VirtualRunLoop.frameDuration * 5)
    #expect(delegate.calls == ["shouldDismiss", "willDismiss"])
    #expect(log.take() == ["S.willDisappear"])
    #expect(sheet.isBeingDismissed)
    #expect(sheet.view.frame.minY > DeviceProfile.iPhone8.statusBarHeight, "follows the finger")
    let scale = navigation.view.transform.a
    #expect(scale > UIPresentationController.presenterScale && scale < 1, "grows back")
    VirtualRunLoop.main.runUntilIdle()
    #expect(delegate.calls == ["shouldDismiss", "willDismiss", "didDismiss"])
    #expect(log.take() == ["S.didDisappear"])
    #expect(navigation.presentedViewController == nil && sheet.view.superview == nil)
    #expect(navigation.view.transform.isIdentity)
  }

  @Test("a short swipe goes back: the page appears again and the delegate hears no did")
  func swipeCancels() throws {
    let log = NavigationLog()
    let (navigation, _) = sheetScene(log: log)
    let (sheet, delegate) = presentLoggedSheet(over: navigation, log: log)
    let resting = sheet.view.frame
    // Slow and short (100 points over 50 frames), then a cancelled touch.
    let pan = try #require(sheet.presentationController?.dismissalPanGestureRecognizer)
    GestureDriver.swipe(pan, translation: CGPoint(x: 0, y: 100), steps: 50)
    VirtualRunLoop.main.runUntilIdle()
    #expect(delegate.calls == ["shouldDismiss", "willDismiss"])
    #expect(log.take() == ["S.willDisappear", "S.willAppear", "S.didAppear"])
    #expect(sheet.view.frame == resting && !sheet.isBeingDismissed)
    #expect(navigation.presentedViewController === sheet)
    try dragDown(sheet, by: 500, cancelled: true)
    #expect(navigation.presentedViewController === sheet, "a cancelled touch never dismisses")
    #expect(sheet.view.frame == resting && !sheet.isBeingDismissed)
  }

  @Test("isModalInPresentation and a delegate's no make the swipe an attempt; nothing moves")
  func attempts() throws {
    let log = NavigationLog()
    let (navigation, _) = sheetScene(log: log)
    let (sheet, delegate) = presentLoggedSheet(over: navigation, log: log)
    let resting = sheet.view.frame
    sheet.isModalInPresentation = true
    try dragDown(sheet, by: 500)
    #expect(delegate.calls == ["didAttemptToDismiss"], "WWDC19: the attempt only")
    #expect(log.take().isEmpty, "no appearance callback")
    #expect(sheet.view.frame == resting && navigation.presentedViewController === sheet)
    sheet.isModalInPresentation = false
    delegate.allowsDismissal = false
    delegate.calls = []
    try dragDown(sheet, by: 500)
    #expect(delegate.calls == ["shouldDismiss", "didAttemptToDismiss"])
    #expect(log.take().isEmpty && navigation.presentedViewController === sheet)
  }

  @Test("a sideways move never drags the sheet")
  func sidewaysMove() throws {
    let (navigation, _) = sheetScene()
    let sheet = UIViewController()
    navigation.present(sheet, animated: false)
    let pan = try #require(sheet.presentationController?.dismissalPanGestureRecognizer)
    GestureDriver.swipe(pan, translation: CGPoint(x: 300, y: 20))
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.presentedViewController === sheet && !sheet.isBeingDismissed)
  }

  @Test("refused while a sheet is dragged: dismissing it, presenting from it")
  func refusedWhileDragged() throws {
    let (navigation, _) = sheetScene()
    let sheet = UIViewController()
    navigation.present(sheet, animated: false)
    let pan = try #require(sheet.presentationController?.dismissalPanGestureRecognizer)
    GestureDriver.swipe(pan, translation: CGPoint(x: 0, y: 500), steps: 10)
    VirtualRunLoop.main.advance(by: VirtualRunLoop.frameDuration * 5)
    UIKitModelIssues.removeAll()
    sheet.dismiss(animated: false)
    sheet.present(UIViewController(), animated: false)
    #expect(UIKitModelIssues.all.count == 2)
    #expect(sheet.presentedViewController == nil && navigation.presentedViewController === sheet)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.presentedViewController == nil, "the swipe finished its dismissal")
  }

  @Test("a session drags a card down: let go early it goes back, past half way it leaves")
  func sessionDrag() {
    let session = NavigationSession(root: LoggedScreen("A", log: NavigationLog()))
    let sheet = UINavigationController(rootViewController: UIViewController())
    sheet.topViewController?.title = "Sheet"
    session.navigationController.present(sheet, animated: false)
    #expect(session.frontNavigationController === sheet, "the bar the user looks at")
    session.dragSheetDown(to: 0.3)
    #expect(session.navigationController.presentedViewController === sheet)
    session.dragSheetDown(to: 0.7)
    #expect(session.navigationController.presentedViewController == nil)
    #expect(session.frontNavigationController === session.navigationController)
    let lines = Array(session.trace.dropFirst())  // after "launch"
    #expect(lines[0].contains("drag the sheet down to 30 %") && lines[0].contains("top Sheet"))
    #expect(lines[1].contains("drag the sheet down to 70 %") && lines[1].contains("top A"))
  }

  @Test("a session's drag is refused without a card, and for a fraction or length out of range")
  func sessionDragRefused() {
    let session = NavigationSession(root: UIViewController(), systemVersion: "12.4")
    session.dragSheetDown(to: 0.7)
    let sheet = UIViewController()
    session.navigationController.present(sheet, animated: false)
    session.dragSheetDown(to: 0.7)
    #expect(session.navigationController.presentedViewController === sheet, "full screen")
    #expect(session.trace.dropFirst().allSatisfy { $0.contains("drag the sheet down (refused)") })
    session.navigationController.dismiss(animated: false)
    UIDevice.current.systemVersion = "13.0"
    session.navigationController.present(UIViewController(), animated: false)
    UIKitModelIssues.removeAll()
    session.dragSheetDown(to: .nan)
    session.dragSheetDown(to: 0.7, frames: VirtualRunLoop.maximumFrames + 1)
    #expect(UIKitModelIssues.all.count == 2)
    #expect(session.navigationController.presentedViewController != nil)
  }

  @Test("a slow release past half way dismisses; a flick back from there does not")
  func releaseRules() throws {
    let (navigation, _) = sheetScene()
    let sheet = UIViewController()
    navigation.present(sheet, animated: false)
    let pan = try #require(sheet.activePresentationController?.dismissalPanGestureRecognizer)
    let travel = UIScreen.main.bounds.height - sheet.view.frame.minY
    // To 60 % slowly, then back 30 points in the last frame: a flick back.
    GestureDriver.swipe(pan, translation: CGPoint(x: 0, y: travel * 0.6), steps: 60)
    VirtualRunLoop.main.advance(frames: 59)
    #expect(sheet.isBeingDismissed, "the drag began and follows the finger")
    GestureDriver.move(pan, to: CGPoint(x: 0, y: travel * 0.6 - 30))
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.presentedViewController === sheet, "the flick back keeps it")
    // To 60 % over 60 frames and let go there: slow, past half way.
    GestureDriver.swipe(pan, translation: CGPoint(x: 0, y: travel * 0.6), steps: 60)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.presentedViewController == nil)
  }

  @Test("a delegate that dismisses or presents from its callbacks leaves nothing half-done")
  func reentrantDelegate() throws {
    final class Meddler: UIAdaptivePresentationControllerDelegate {
      var action: (String) -> Void = { _ in }
      func presentationControllerShouldDismiss(_ p: UIPresentationController) -> Bool {
        action("should")
        return true
      }
      func presentationControllerWillDismiss(_ p: UIPresentationController) { action("will") }
      func presentationControllerDidAttemptToDismiss(_ p: UIPresentationController) {
        action("attempt")
      }
    }
    let log = NavigationLog()
    let (navigation, _) = sheetScene(log: log)
    let meddler = Meddler()
    // Dismissed from `should`: the drag stops, the presenter keeps its size, the sheet went.
    var sheet = LoggedScreen("S", log: log)
    sheet.presentationController?.delegate = meddler
    navigation.present(sheet, animated: false)
    meddler.action = { if $0 == "should" { sheet.dismiss(animated: false) } }
    _ = log.take()
    try dragDown(sheet, by: 500)
    #expect(navigation.presentedViewController == nil && !sheet.isBeingDismissed)
    #expect(log.take() == ["S.willDisappear", "S.didDisappear"], "the dismissal's, once")
    #expect(navigation.view.transform.isIdentity)
    // Presented again, it is presented and dismissed as any other time.
    navigation.present(sheet, animated: false)
    meddler.action = { _ in }
    try dragDown(sheet, by: 500)
    #expect(navigation.presentedViewController == nil, "dismissed by the swipe this time")
    // Dismissed or presented from `will`: refused, the swipe goes on and dismisses.
    sheet = LoggedScreen("T", log: log)
    sheet.presentationController?.delegate = meddler
    navigation.present(sheet, animated: false)
    UIKitModelIssues.removeAll()
    meddler.action = {
      guard $0 == "will" else { return }
      sheet.dismiss(animated: false)
      sheet.present(UIViewController(), animated: false)
    }
    try dragDown(sheet, by: 500)
    #expect(UIKitModelIssues.all.count == 2)
    #expect(navigation.presentedViewController == nil && sheet.presentedViewController == nil)
    // Dismissed from the attempt, as apps do after asking the user.
    sheet = LoggedScreen("U", log: log)
    sheet.isModalInPresentation = true
    sheet.presentationController?.delegate = meddler
    navigation.present(sheet, animated: false)
    meddler.action = { if $0 == "attempt" { sheet.dismiss(animated: false) } }
    try dragDown(sheet, by: 500)
    #expect(navigation.presentedViewController == nil && navigation.view.transform.isIdentity)
  }

  @Test("a drag does not begin while the sheet's navigation controller pushes")
  func noDragDuringPush() throws {
    let (navigation, _) = sheetScene()
    let sheet = UINavigationController(rootViewController: UIViewController())
    navigation.present(sheet, animated: false)
    sheet.pushViewController(UIViewController(), animated: true)
    let pan = try #require(sheet.activePresentationController?.dismissalPanGestureRecognizer)
    GestureDriver.swipe(pan, translation: CGPoint(x: 0, y: 500), steps: 5)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.presentedViewController === sheet && sheet.viewControllers.count == 2)
  }
}
