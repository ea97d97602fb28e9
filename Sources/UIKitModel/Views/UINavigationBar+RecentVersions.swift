// What UINavigationBar does differently on some versions: the background inserted late into a
// presented bar (12), taken out and put back at index 0 during a transition (18), the bar button
// items on a shared glass background (26).
import ObjCRuntime

extension UINavigationBar {
  /// iOS 18 and later: a push or a pop takes the background container out of the bar
  /// (`removeFromSuperview`, through the table) at its start, so code that reads
  /// `subviews[0]` meanwhile gets the view above it; nothing earlier does this. HBDNavigationBar
  /// issue 188 shows the two calls and a plugin reading `subviews[0]` between them.
  func takeBackgroundOutForTransition() {
    guard UIDevice.current.majorSystemVersion >= 18 else { return }
    takeBackgroundOut()
  }

  /// iOS 18 and later: the background goes back in at index 0 (`insertSubview:atIndex:`,
  /// through the table, so an override or hook of it sees the insertion, as HBDNavigationBar's
  /// fix in `didAddSubview:` and WRNavigationBar issue 153's in `insertSubview:atIndex:` do), the
  /// same object, with its own subviews back in their default state: each fully opaque and
  /// shown as the bar's properties say (HBDNavigationBar pull request 191: "the subviews' state
  /// is set to default values"). Views someone else added to it stay, as they were.
  func putBackgroundBackAfterTransitionStart() {
    guard UIDevice.current.majorSystemVersion >= 18 else { return }
    putBackgroundBack(resettingItsSubviews: true)
  }

  /// iOS 12: the bar of a navigation controller being presented has no background until the
  /// presentation puts its view in the window, after the controllers' `viewDidLoad` and
  /// `viewWillAppear:`; then it inserts it at index 0 (`insertSubview:atIndex:`, through the
  /// table). WRNavigationBar issue 153: in a presented navigation controller on iOS 12 the
  /// plugin's background view was not in `_UIBarBackground` (the reporter's screenshot: "this is
  /// empty, the backgroundView was not added"), and overriding the bar's
  /// `insertSubview:atIndex:` to add it when `_UIBarBackground` is inserted fixed it: so UIKit
  /// inserted the background after the plugin had looked for it. The report gives no more of
  /// the mechanism (whether the background's own subviews changed): the model inserts the same
  /// object, as it was. ETNavBarTransparent issue 33 (a presented navigation controller ignores
  /// `navBarBgAlpha = 0`) is the same timing met by another plugin.
  func takeBackgroundOutForPresentation() {
    guard UIDevice.current.majorSystemVersion == 12 else { return }
    takeBackgroundOut()
  }

  /// iOS 12: the presented bar's background goes in, at index 0 (see
  /// ``takeBackgroundOutForPresentation()``).
  func putBackgroundBackForPresentation() {
    guard UIDevice.current.majorSystemVersion == 12 else { return }
    putBackgroundBack(resettingItsSubviews: false)
  }

  private func takeBackgroundOut() {
    guard backgroundContainer.superview === self else { return }
    backgroundContainer.removeFromSuperview()
  }

  private func putBackgroundBack(resettingItsSubviews reset: Bool) {
    guard backgroundContainer.superview == nil else { return }
    if reset, let background = backgroundContainer as? _UIBarBackground {
      let own: [UIView] = [
        background.backgroundImageView, background.backgroundEffectView, background.colorView,
        background.shadowView,
      ]
      for view in own { view.alpha = 1 }
      applyBackground()
    }
    insertSubview(backgroundContainer, at: 0)
  }
}

extension UINavigationBar {
  /// iOS 26: the top item's bar button items drawn on the glass background they share, left
  /// then right: every item that does not set `hidesSharedBackground`, when the app gets the
  /// Liquid Glass design (``UIApplication/usesLiquidGlass``); none otherwise. The model draws no
  /// glass: this is what a test of such a bar can ask.
  public var itemsOnSharedBackground: [UIBarButtonItem] {
    guard UIApplication.shared.usesLiquidGlass, let item = topItem else { return [] }
    let items = (item.leftBarButtonItems ?? []) + (item.rightBarButtonItems ?? [])
    return items.filter { !$0.hidesSharedBackground }
  }
}
