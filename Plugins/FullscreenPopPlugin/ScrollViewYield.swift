// FDFullscreenPopGesture's answer to a page whose scroll view scrolls sideways (issues 27 and
// 61): its README ("View Controller With ScrollView") and its demo's scroll view let the
// full-screen pan recognize together with the scroll view's own while the content is at its left
// edge; issue 203 asks for that as a category on UIScrollView, which is what this is.
import Foundation
import Hooks
import ObjCRuntime
import UIKitModel

/// The category method `-[UIScrollView gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:]`.
///
/// A scroll view is its pan's delegate, so UIKit asks it whether its pan may recognize beside
/// another pan of the same finger. The plugin's method answers yes only in the fixed hijack
/// (``PopTechnique/hijack``), while the plugin is installed, when the other pan is the
/// full-screen pan (its delegate a ``FullscreenPopGestureDelegate``) and the content is at its
/// left edge; otherwise no, UIKit's answer for a delegate without the method. A subclass of
/// `UIScrollView` that implements the method itself keeps its own answer, as it would beside an
/// Objective-C category.
enum ScrollViewYield {
  static let selector: Selector =
    "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:"

  private static let implementation: @convention(c) (id, SEL, id?, id?) -> Bool = {
    me, _, _, other in
    guard FullscreenPopPlugin.isOn, FullscreenPopPlugin.technique.value == .hijack,
      let other = other?.takeUnretainedObject() as? UIGestureRecognizer,
      other.delegate is FullscreenPopGestureDelegate
    else { return false }
    return me.receiver(as: UIScrollView.self).contentOffset.x <= 0
  }

  /// Adds the method to `UIScrollView` once; a later install finds it there. objc4 has no
  /// `class_removeMethod`, so an uninstall leaves it, answering no. When `UIScrollView` already
  /// has a method of that name that is not the plugin's (another category), it is left alone
  /// and the plugin says so once.
  static func install() throws {
    let cls = UIScrollView.runtimeClass
    let ours = try IMP(implementation)
    if let method = class_getInstanceMethod(cls, selector) {
      if method.implementation != ours {
        Diagnostics.warn(
          "fullscreen-pop: -[UIScrollView \(selector)] is already \(method.owner)'s; the"
            + " plugin leaves it, so a sideways scroll view keeps the finger from the"
            + " full-screen pan unless that method lets both recognize",
          kind: .plugin)
      }
      return
    }
    try cls.addMethod(selector, implementation: ours, types: "B@:@@")
  }
}
