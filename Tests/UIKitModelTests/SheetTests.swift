// Sheets: how a presentation style resolves on each device and version, the presenter kept and
// scaled behind a card without appearance callbacks, a navigation bar 56 points tall in a sheet,
// the status bar, swizzles of the table's presentation methods, the lab's frame, and the
// refusals (the swipe down: SheetTests+SwipeDown.swift). The scene and the delegate recorder are
// shared with that file.
import Foundation
import ObjCRuntime
import ScreenRendering
import Testing
import UIKitModel

/// A navigation controller over a logged page A in a key window on `device` running `version`
/// (built with `sdk`); the log is emptied.
@MainActor func sheetScene(
  device: DeviceProfile = .iPhone8, version: String = "13.0", sdk: String? = nil,
  log: NavigationLog = NavigationLog()
) -> (UINavigationController, UIWindow) {
  UIScreen.main.profile = device
  UIDevice.current.systemVersion = version
  UIDevice.current.linkedSDKVersion = sdk
  let navigation = UINavigationController(rootViewController: LoggedScreen("A", log: log))
  let window = UIWindow(frame: UIScreen.main.bounds)
  window.rootViewController = navigation
  window.makeKeyAndVisible()
  VirtualRunLoop.main.runUntilIdle()
  _ = log.take()
  return (navigation, window)
}

/// Records what a presentation controller's delegate is asked and told.
final class SheetDelegate: UIAdaptivePresentationControllerDelegate {
  var calls: [String] = []
  var allowsDismissal = true

  func presentationControllerShouldDismiss(_ presentationController: UIPresentationController)
    -> Bool
  {
    calls.append("shouldDismiss")
    return allowsDismissal
  }
  func presentationControllerWillDismiss(_ presentationController: UIPresentationController) {
    calls.append("willDismiss")
  }
  func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
    calls.append("didDismiss")
  }
  func presentationControllerDidAttemptToDismiss(
    _ presentationController: UIPresentationController
  ) {
    calls.append("didAttemptToDismiss")
  }
}

/// A page that prefers light content, for the status bar.
private final class LightPage: UIViewController {
  override var preferredStatusBarStyle: UIStatusBarStyle { .lightContent }
}

/// Drags the sheet of `presented` down by `distance` points over ten frames and lets go (or
/// the gesture is cancelled), then lets the run loop settle.
@MainActor func dragDown(
  _ presented: UIViewController, by distance: CGFloat, cancelled: Bool = false
)
  throws
{
  let pan = try #require(presented.presentationController?.dismissalPanGestureRecognizer)
  GestureDriver.swipe(pan, translation: CGPoint(x: 0, y: distance), cancelled: cancelled)
  VirtualRunLoop.main.runUntilIdle()
}

extension UIKitModelTests {
  @MainActor
  @Suite("Sheets")
  struct SheetTests {
    @Test("the default style: a page sheet from iOS 13 with its SDK, full screen before")
    func defaultStyle() {
      _ = sheetScene(version: "12.4")
      #expect(UIViewController().modalPresentationStyle == .fullScreen)
      _ = sheetScene(version: "13.0", sdk: "12.4")
      #expect(UIViewController().modalPresentationStyle == .fullScreen, "an Xcode 10 build")
      _ = sheetScene(version: "13.0")
      let controller = UIViewController()
      #expect(controller.modalPresentationStyle == .automatic)
      #expect(controller.resolvedPresentationStyle == .pageSheet)
    }

    @Test("a sheet on an iPhone before iOS 13 is adapted to full screen; on an iPad it stays")
    func adaptation() {
      _ = sheetScene(version: "12.4")
      let sheet = UIViewController()
      sheet.modalPresentationStyle = .formSheet
      #expect(sheet.resolvedPresentationStyle == .fullScreen)
      _ = sheetScene(device: .iPadAir, version: "12.4")
      #expect(sheet.resolvedPresentationStyle == .formSheet)
      _ = sheetScene(version: "17.0")
      #expect(sheet.resolvedPresentationStyle == .formSheet)
    }

    @Test("a card keeps the presenter on screen, scaled back, with no appearance callback")
    func card() throws {
      let log = NavigationLog()
      let (navigation, window) = sheetScene(log: log)
      let sheet = LoggedScreen("S", log: log)
      var completed = false
      navigation.present(sheet, animated: true) { completed = true }
      #expect(log.take() == ["S.viewDidLoad", "S.willAppear"], "the presenter hears nothing")
      VirtualRunLoop.main.runUntilIdle()
      #expect(log.take() == ["S.didAppear"] && completed)
      #expect(navigation.view.window === window, "the presenter's view stays in the window")
      let scale = UIPresentationController.presenterScale
      #expect(navigation.view.transform == CGAffineTransform(scaleX: scale, y: scale))
      // Below the status bar, the whole width (TZImagePickerController pull request 1161).
      let statusBar = DeviceProfile.iPhone8.statusBarHeight
      #expect(
        sheet.view.frame
          == CGRect(
            x: 0, y: statusBar, width: window.bounds.width,
            height: window.bounds.height - statusBar))
      #expect(sheet.presentationController?.presentationStyle == .pageSheet)
      #expect(sheet.presentationController?.presentingViewController === navigation)

      sheet.dismiss(animated: true)
      VirtualRunLoop.main.runUntilIdle()
      #expect(log.take() == ["S.willDisappear", "S.didDisappear"])
      #expect(navigation.view.transform.isIdentity, "back to its size")
      #expect(!window.subviews.contains { $0 is UIDimmingView }, "the dimming view went")
      #expect(sheet.presentationController?.presentingViewController == nil, "a new one next time")
      #expect(navigation.presentedViewController == nil && sheet.view.superview == nil)
    }

    @Test("a navigation bar in a card is 56 points tall at the sheet's top, with no status bar")
    func barInSheet() {
      let (navigation, _) = sheetScene(device: .iPhoneX, version: "13.0")
      let presented = UINavigationController(rootViewController: UIViewController())
      navigation.present(presented, animated: false)
      let bar = presented.navigationBar
      #expect(bar.barHeight == 56 && bar.frame == CGRect(x: 0, y: 0, width: 375, height: 56))
      #expect(presented.view.frame.minY == DeviceProfile.iPhoneX.statusBarHeight)
      #expect(presented.topViewController?.view.frame == presented.view.bounds)
      #expect(bar.asSeen().statusBarAreaColor == bar.asSeen().backgroundColor, "no strip above")
      presented.dismiss(animated: false)
      // Presented full screen later, it is the usual bar under the status bar again.
      presented.modalPresentationStyle = .fullScreen
      navigation.present(presented, animated: false)
      #expect(bar.barHeight == 44 && bar.frame.minY == DeviceProfile.iPhoneX.statusBarHeight)
    }

    @Test("an iPad's sheet before iOS 13: centred, the usual bar, no swipe, no scaling")
    func padSheetBeforeCards() {
      let (navigation, window) = sheetScene(device: .iPadAir, version: "12.4")
      let presented = UINavigationController(rootViewController: UIViewController())
      presented.modalPresentationStyle = .formSheet
      navigation.present(presented, animated: false)
      #expect(presented.view.frame.midX == window.bounds.midX)
      #expect(presented.view.frame.size == UIPresentationController.padSheetSize)
      #expect(presented.navigationBar.barHeight == 50 && presented.navigationBar.frame.minY == 0)
      #expect(presented.presentationController?.dismissalPanGestureRecognizer == nil)
      #expect(navigation.view.transform.isIdentity)
    }

    @Test("a sheet leaves the status bar to the presenter unless it captures it")
    func statusBar() {
      let (navigation, _) = sheetScene()
      navigation.present(LightPage(), animated: false)
      #expect(UIApplication.shared.resolvedStatusBarStyle == .default)
      navigation.dismiss(animated: false)
      let capturing = LightPage()
      capturing.modalPresentationCapturesStatusBarAppearance = true
      navigation.present(capturing, animated: false)
      #expect(UIApplication.shared.resolvedStatusBarStyle == .lightContent)
      navigation.dismiss(animated: false)
      #expect(UIApplication.shared.resolvedStatusBarStyle == .default)
    }

    @Test("reading presentationController before presenting fixes the style (HWPanModal 27)")
    func earlyPresentationController() {
      let (navigation, _) = sheetScene()
      let page = UIViewController()
      _ = page.presentationController
      page.modalPresentationStyle = .fullScreen
      navigation.present(page, animated: false)
      #expect(page.presentationController?.presentationStyle == .pageSheet)
      #expect(page.view.frame.minY > 0, "still a sheet")
    }

    @Test("the iOS 13 fix: a swizzle of the modalPresentationStyle getter keeps full screen")
    func swizzledStyle() throws {
      let log = NavigationLog()
      let (navigation, _) = sheetScene(log: log)
      let getter = try #require(
        class_getInstanceMethod(
          UIViewController.self, UIViewController.Selectors.modalPresentationStyle))
      let fullScreen: @convention(c) (id, SEL) -> Int = { _, _ in 0 }
      let previous = method_setImplementation(getter, unsafeBitCast(fullScreen, to: IMP.self))
      defer { method_setImplementation(getter, previous) }
      navigation.present(LoggedScreen("S", log: log), animated: false)
      #expect(
        log.take() == [
          "S.viewDidLoad", "A.willDisappear", "S.willAppear", "S.didAppear", "A.didDisappear",
        ])
    }

    @Test("sent through the runtime, the completion travels as a block and runs")
    func sentThroughRuntime() throws {
      let (navigation, _) = sheetScene()
      var seen: [String] = []
      let page = UIViewController()
      try objc_msgSend(
        navigation, UIViewController.Selectors.present, page as ObjCObject?, false,
        UICompletionBlock { seen.append("presented") } as ObjCObject?) as Void
      #expect(navigation.presentedViewController === page && seen == ["presented"])
      try objc_msgSend(
        page, UIViewController.Selectors.dismiss, false,
        UICompletionBlock { seen.append("dismissed") } as ObjCObject?) as Void
      #expect(navigation.presentedViewController == nil && seen == ["presented", "dismissed"])
    }

    @Test("refused: .automatic and isModalInPresentation before iOS 13, nothing changed")
    func unavailableBefore13() {
      _ = sheetScene(version: "12.4")
      let page = UIViewController()
      page.modalPresentationStyle = .automatic
      page.isModalInPresentation = true
      #expect(page.modalPresentationStyle == .fullScreen && !page.isModalInPresentation)
      let reasons = UIKitModelIssues.all.map(\.description)
      #expect(reasons.count == 2 && reasons.allSatisfy { $0.contains("iOS 13") })
      _ = sheetScene(version: "13.0", sdk: "12.4")
      page.modalPresentationStyle = .automatic
      #expect(page.modalPresentationStyle == .fullScreen, "needs the iOS 13 SDK too")
    }

    @Test("presenting a sheet during a swipe back is refused; the pop goes on")
    func duringInteractivePop() throws {
      let (navigation, _) = sheetScene()
      navigation.pushViewController(UIViewController(), animated: false)
      let edge = try #require(navigation.interactivePopGestureRecognizer)
      GestureDriver.swipe(edge, translation: CGPoint(x: 300, y: 0), steps: 10)
      VirtualRunLoop.main.advance(by: VirtualRunLoop.frameDuration * 4)
      UIKitModelIssues.removeAll()
      navigation.topViewController?.present(UIViewController(), animated: true)
      #expect(navigation.presentedViewController == nil)
      #expect(UIKitModelIssues.all.first?.description.contains("push or pop") == true)
      VirtualRunLoop.main.runUntilIdle()
      #expect(navigation.viewControllers.count == 1)
    }

    @Test("nil or a non-controller sent through the runtime is refused with an issue")
    func nonController() throws {
      let (navigation, _) = sheetScene()
      try objc_msgSend(
        navigation, UIViewController.Selectors.present, nil as ObjCObject?, true,
        nil as ObjCObject?) as Void
      try objc_msgSend(
        navigation, UIViewController.Selectors.present, UIView() as ObjCObject?, true,
        nil as ObjCObject?) as Void
      #expect(navigation.presentedViewController == nil)
      #expect(UIKitModelIssues.all.count == 2)
    }

    @Test("on an iPad the swipe back starts at the sheet's edge, not the screen's")
    func padSwipeBackAtSheetEdge() throws {
      let (navigation, window) = sheetScene(device: .iPadAir, version: "13.0")
      // The presenter's stack is two deep: its own swipe back would pop.
      navigation.pushViewController(UIViewController(), animated: false)
      let sheet = UINavigationController(rootViewController: UIViewController())
      navigation.present(sheet, animated: false)
      sheet.pushViewController(UIViewController(), animated: false)
      let frame = sheet.view.frame
      #expect(frame.minX > 20, "a centred sheet")
      let outside = CGPoint(x: 5, y: frame.midY)
      #expect(window.hitTest(outside, with: nil) is UIDimmingView)
      let screenEdge = GestureDriver.touchDown(at: outside, in: window)
      #expect(screenEdge.isEmpty, "outside the sheet nothing takes the finger")
      let pans = GestureDriver.touchDown(
        at: CGPoint(x: frame.minX + 5, y: frame.midY), in: window)
      #expect(pans.contains { $0 === sheet.interactivePopGestureRecognizer })
      for pan in pans { GestureDriver.end(pan, cancelled: true) }
    }

    @Test("the lab's frame of a card draws the dark surround and the bar at the sheet's top")
    func frameOfACard() throws {
      let (navigation, _) = sheetScene(device: .iPhoneX, version: "13.0")
      let sheet = UINavigationController(rootViewController: UIViewController())
      navigation.present(sheet, animated: false)
      let frame = try #require(ScreenFrame.current())
      let top = DeviceProfile.iPhoneX.statusBarHeight
      #expect(frame.sample.sheet?.y == Double(top) && frame.sample.sheet?.barHeight == 56)
      let rects = frame.shapes.compactMap {
        shape -> (y: Double, height: Double, color: [Double])? in
        if case .rect(_, let y, _, let height, let color, _, _) = shape {
          return (y, height, color)
        }
        return nil
      }
      #expect(rects.first?.color == [0, 0, 0, 1], "the window around a card is dark")
      #expect(
        rects.contains { $0.y == Double(top) && $0.height == 56 },
        "the bar at the sheet's top, with no status bar's strip")
    }

    @Test("dismissing two sheets from below leaves neither scaled; the lower one shows whole again")
    func stackedSheets() {
      let (navigation, _) = sheetScene()
      let first = UIViewController()
      let second = UIViewController()
      navigation.present(first, animated: false)
      first.present(second, animated: false)
      let scale = UIPresentationController.presenterScale
      #expect(first.view.transform == CGAffineTransform(scaleX: scale, y: scale), "cards stack")
      navigation.dismiss(animated: false)
      #expect(navigation.presentedViewController == nil && first.view.transform.isIdentity)
      navigation.present(first, animated: false)
      #expect(first.view.frame == UIPresentationController.sheetFrame(in: UIScreen.main.bounds))
    }

    @Test(
      "over full screen keeps the presenter's views and callbacks quiet; an unknown style is full screen"
    )
    func overFullScreenAndUnknown() throws {
      let log = NavigationLog()
      let (navigation, window) = sheetScene(log: log)
      let over = LoggedScreen("O", log: log)
      over.modalPresentationStyle = .overFullScreen
      navigation.present(over, animated: false)
      #expect(log.take() == ["O.viewDidLoad", "O.willAppear", "O.didAppear"])
      #expect(
        over.view.frame == window.bounds && over.activePresentationController?.isSheet == false)
      navigation.dismiss(animated: false)
      // A swizzle answering the popover style (7): reported, presented full screen.
      let getter = try #require(
        class_getInstanceMethod(
          UIViewController.self, UIViewController.Selectors.modalPresentationStyle))
      let popover: @convention(c) (id, SEL) -> Int = { _, _ in 7 }
      let previous = method_setImplementation(getter, unsafeBitCast(popover, to: IMP.self))
      defer { method_setImplementation(getter, previous) }
      UIKitModelIssues.removeAll()
      let page = LoggedScreen("P", log: log)
      navigation.present(page, animated: false)
      #expect(page.view.frame == window.bounds)
      #expect(
        UIKitModelIssues.all.contains {
          if case .unsupportedPresentationStyle(_, 7) = $0 { true } else { false }
        })
    }
  }
}
