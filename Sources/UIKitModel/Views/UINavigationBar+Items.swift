// The bar's items: pushing, popping and setting them with the delegate's say, the back button's
// tap, and showing the top item's title and buttons.
import Foundation
import ObjCRuntime

extension UINavigationBar {
  /// The top item.
  public var topItem: UINavigationItem? { itemStack.last }

  /// The item below the top one.
  public var backItem: UINavigationItem? {
    itemStack.count > 1 ? itemStack[itemStack.count - 2] : nil
  }

  /// Pushes `item`, if the delegate agrees.
  public func pushItem(_ item: UINavigationItem, animated: Bool) {
    guard
      askDelegate(
        "navigationBar:shouldPushItem:", item, swift: { $0.navigationBar(self, shouldPush: item) })
    else { return }
    itemStack.append(item)
    showTopItem(animated: animated)
    tellDelegate("navigationBar:didPushItem:", item) { $0.navigationBar(self, didPush: item) }
  }

  /// Asks the delegate `navigationBar:shouldPushItem:` for `item`, as a navigation controller's
  /// push does through its bar; the controller then sets the items from its stack whatever the
  /// answer.
  internal func askToPush(_ item: UINavigationItem) {
    _ = askDelegate(
      "navigationBar:shouldPushItem:", item, swift: { $0.navigationBar(self, shouldPush: item) })
  }

  /// Pops the top item, if the delegate agrees; returns it.
  @discardableResult
  public func popItem(animated: Bool) -> UINavigationItem? {
    guard let item = itemStack.last,
      askDelegate(
        "navigationBar:shouldPopItem:", item, swift: { $0.navigationBar(self, shouldPop: item) })
    else { return nil }
    itemStack.removeLast()
    showTopItem(animated: animated)
    tellDelegate("navigationBar:didPopItem:", item) { $0.navigationBar(self, didPop: item) }
    return item
  }

  /// The user taps the back button: the delegate is asked `navigationBar:shouldPopItem:`
  /// (through the runtime); if it agrees, the top item goes and the delegate hears `didPop` (a
  /// navigation controller then pops its top controller). If the delegate popped by itself and
  /// still returned true, the bar pops nothing more, and on iOS 13 and later, for an application
  /// built with the iOS 13 SDK or later, that is reported as the error UIKit raises
  /// (``UIKitModelIssue/shouldPopAfterManualPop(controller:)``): TZImagePickerController issue
  /// 1151's reporter met it with Xcode 11 and saw the same code run with an Xcode 10 build.
  public func tapBackButton() {
    guard let item = topItem, itemStack.count > 1 else { return }
    let countBefore = itemStack.count
    let allowed = askDelegate(
      "navigationBar:shouldPopItem:", item, swift: { $0.navigationBar(self, shouldPop: item) })
    guard allowed else { return }
    guard itemStack.count == countBefore, topItem === item else {
      if UIDevice.current.linkedMajorVersion >= 13 {
        UIKitModelIssues.report(
          .shouldPopAfterManualPop(controller: delegate.map { "\($0)" } ?? "the delegate"))
      }
      return
    }
    itemStack.removeLast()
    showTopItem(animated: true)
    tellDelegate("navigationBar:didPopItem:", item) { $0.navigationBar(self, didPop: item) }
  }

  /// Replaces the items.
  public func setItems(_ items: [UINavigationItem]?, animated: Bool) {
    itemStack = items ?? []
    for item in itemStack where item.showingBar !== self { item.showingBar = self }
    showTopItem(animated: animated)
  }

  private func askDelegate(
    _ selector: Selector, _ item: UINavigationItem,
    swift: (any UINavigationBarDelegate) -> Bool
  ) -> Bool {
    guard let delegate else { return true }
    if let object = delegate as? ObjCObject, object.responds(to: selector) {
      return (try? objc_msgSend(object, selector, self as ObjCObject, item as ObjCObject) as Bool)
        ?? true
    }
    return swift(delegate)
  }

  private func tellDelegate(
    _ selector: Selector, _ item: UINavigationItem, swift: (any UINavigationBarDelegate) -> Void
  ) {
    guard let delegate else { return }
    if let object = delegate as? ObjCObject, object.responds(to: selector) {
      try? objc_msgSend(object, selector, self as ObjCObject, item as ObjCObject) as Void
      return
    }
    swift(delegate)
  }

  private func showTopItem(animated: Bool = false) {
    // The item on top tells this bar of its changes (its large-title mode, its search), even if
    // another bar showed it since; the items below it since they were set.
    if let top = topItem, top.showingBar !== self { top.showingBar = self }
    titleLabel.text = topItem?.title
    for view in buttonViews { view.removeFromSuperview() }
    leftButtonViews = (topItem?.leftBarButtonItems ?? []).map { buttonView(for: $0, left: true) }
    rightButtonViews = (topItem?.rightBarButtonItems ?? []).map {
      buttonView(for: $0, left: false)
    }
    backIndicatorView.isHidden = !showsBackButton
    backButtonView?.isHidden = !showsBackButton
    performLayout()
    scrollEdgeMayHaveChanged()
    updateLargeTitle(animated: animated)
  }

  private func buttonView(for item: UIBarButtonItem, left: Bool) -> UIView {
    guard let buttonBars else {
      let view = UINavigationButton(frame: .zero)
      view.item = item
      view.tintColor = item.tintColor
      insertSubview(view, belowSubview: backIndicatorView)
      return view
    }
    let view = _UIButtonBarButton(frame: .zero)
    view.item = item
    view.tintColor = item.tintColor
    (left ? buttonBars.left : buttonBars.right).addSubview(view)
    return view
  }
}
