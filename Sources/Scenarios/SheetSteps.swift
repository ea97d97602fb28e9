// The steps scenarios take in a sheet: a navigation controller presented over the session's
// screen in the default style, a page pushed in it and swiped back, the sheet dragged down and
// let go, then dragged away (or, where there is no card, dismissed from code).
public import UIKitModel

extension ScenarioContext {
  /// Presents a navigation controller over `root` from the session's screen, in the default
  /// style (a page sheet from iOS 13 with its SDK, full screen before), runs until idle, and
  /// marks `<prefix>sheet presented`; returns the sheet's navigation controller. The marks and
  /// ``expectBar(_:_:failsOn:onDevices:tolerance:)`` look at its bar while it is presented.
  @discardableResult
  public func presentSheet(
    _ root: UIViewController, in session: NavigationSession, prefix: String = ""
  ) -> UINavigationController {
    presentSheet(
      navigationController: UINavigationController(rootViewController: root), in: session,
      prefix: prefix)
  }

  /// Presents `sheet` (a navigation controller of a technique's own class, say) as
  /// ``presentSheet(_:in:prefix:)`` presents a plain one; returns it.
  @discardableResult
  public func presentSheet(
    navigationController sheet: UINavigationController, in session: NavigationSession,
    prefix: String = ""
  ) -> UINavigationController {
    session.navigationController.present(sheet, animated: true)
    session.waitUntilIdle()
    mark("\(prefix)sheet presented")
    return sheet
  }

  /// Whether `sheet` is presented as a card (iOS 13 and later): a sheet a swipe down dismisses.
  public func isCard(_ sheet: UIViewController) -> Bool {
    sheet.activePresentationController?.isCard == true
  }

  /// The colour the user sees 10 points below the bar the marks look at, over
  /// ``scenarioBackdrop``: the top of the page, unless something of the bar hangs over it.
  public func colorBelowFrontBar() -> UIColorComponents? {
    guard let navigation = session?.frontNavigationController, let view = navigation.viewIfLoaded,
      let window = view.window
    else { return nil }
    let bar = navigation.navigationBar.frame
    let point = CGPoint(x: view.frame.minX + bar.midX, y: view.frame.minY + bar.maxY + 10)
    return UIColorComponents(window.color(at: point, over: scenarioBackdrop))
  }

  /// In `sheet` (from ``presentSheet(_:in:prefix:)``): pushes `page` and marks it, swipes back
  /// from `startX` points into the sheet (its left edge by default; further in for a
  /// full-screen pan) released at 70 % (a finished pop) and marks it, drags the sheet
  /// down released at 30 % (it goes back, and its pages hear `viewWillDisappear:` then
  /// `viewWillAppear:` and `viewDidAppear:`) and marks it, then drags it down released at 70 %
  /// (dismissed: the session's own bar again) and marks it. Where the sheet is not a card
  /// (before iOS 13, or for an app built with an older SDK, a phone's sheet is full screen),
  /// the first drag is skipped and the sheet is dismissed from code. Names after `prefix`;
  /// `finishFailsOn` names the profiles (and `finishDevices` the devices) where a technique is
  /// known to keep the swipe back from popping. `checkBar` runs after each step with its name
  /// (`presented`, `pushed`, `popped`, `drag cancelled`, `dismissed`), for the plugin's own
  /// checks.
  public func pushAndDragInSheet(
    _ sheet: UINavigationController, pushing page: UIViewController,
    in session: NavigationSession, prefix: String = "", from startX: CGFloat = 5,
    finishFailsOn: Set<String> = [], onDevices finishDevices: Set<DeviceProfile> = [],
    checkBar: (String) -> Void = { _ in }
  ) {
    checkBar("presented")
    let depth = { sheet.viewControllers.count }
    sheet.pushViewController(page, animated: true)
    session.waitUntilIdle()
    mark("\(prefix)pushed in the sheet")
    checkBar("pushed")
    let frame = sheet.view.frame
    session.drag(
      from: CGPoint(x: frame.minX + startX, y: frame.midY),
      by: CGPoint(x: frame.width * 0.7, y: 0))
    mark("\(prefix)swiped back in the sheet")
    expect(
      depth() == 1, "\(prefix)back at the sheet's root", seen: "\(depth()) deep",
      failsOn: finishFailsOn, onDevices: finishDevices)
    checkBar("popped")
    if isCard(sheet) {
      session.dragSheetDown(to: 0.3)
      mark("\(prefix)sheet dragged to 30 % and let go")
      let dragged = session.trace.last?.contains("drag the sheet down to 30 %") == true
      expect(
        dragged && sheet.presentingViewController != nil, "\(prefix)the sheet went back",
        seen: dragged ? "dismissed" : "the drag did not begin")
      checkBar("drag cancelled")
      session.dragSheetDown(to: 0.7)
    } else {
      sheet.dismiss(animated: true)
      session.waitUntilIdle()
    }
    mark("\(prefix)sheet dismissed")
    expect(
      sheet.presentingViewController == nil, "\(prefix)the sheet is gone",
      seen: "still presented")
    checkBar("dismissed")
  }
}
