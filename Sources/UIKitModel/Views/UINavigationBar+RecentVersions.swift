// What UINavigationBar does differently on iOS 18 and 26: the background taken out and put back
// at index 0 during a transition (18), the bar button items on a shared glass background (26).
import ObjCRuntime

extension UINavigationBar {
  /// iOS 18 and later: a push or a pop takes the background container out of the bar
  /// (`removeFromSuperview`, through the table) at its start, so code that reads
  /// `subviews[0]` meanwhile gets the view above it; nothing earlier does this. HBDNavigationBar
  /// issue 188 shows the two calls and a plugin reading `subviews[0]` between them.
  func takeBackgroundOutForTransition() {
    guard UIDevice.current.majorSystemVersion >= 18, backgroundContainer.superview === self
    else { return }
    backgroundContainer.removeFromSuperview()
  }

  /// iOS 18 and later: the background goes back in at index 0 (`insertSubview:atIndex:`,
  /// through the table, so an override or hook of it sees the insertion, as HBDNavigationBar's
  /// fix in `didAddSubview:` and WRNavigationBar issue 153's in `insertSubview:atIndex:` do), the
  /// same object, with its own subviews back in their default state: each fully opaque and
  /// shown as the bar's properties say (HBDNavigationBar pull request 191: "the subviews' state
  /// is set to default values"). Views someone else added to it stay, as they were.
  func putBackgroundBackAfterTransitionStart() {
    guard UIDevice.current.majorSystemVersion >= 18, backgroundContainer.superview == nil
    else { return }
    if let background = backgroundContainer as? _UIBarBackground {
      let own: [UIView] = [
        background.backgroundImageView, background.backgroundEffectView, background.colorView,
        background.shadowView,
      ]
      for view in own { view.alpha = 1 }
    }
    applyBackground()
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
