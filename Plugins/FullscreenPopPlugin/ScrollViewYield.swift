// FDFullscreenPopGesture's answer to a page whose scroll view scrolls sideways (issues 27 and
// 61): its README ("View Controller With ScrollView") and its demo's scroll view let the
// full-screen pan recognize together with the scroll view's own while the content is at its left
// edge; issue 203 asks for that as a category on UIScrollView, which is what this is.
import Foundation
import Hooks
import ObjCRuntime
import UIKitModel

// nonisolated: runtime work (methods added and exchanged), done by install() on any thread.
/// The category method `-[UIScrollView gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:]`.
///
/// UIKit asks a scroll view (its pan's delegate) whether its pan may recognize beside another
/// pan of the same finger. The plugin's method answers yes only in the fixed modes, while the
/// plugin is installed, when the other pan is the technique's (in ``PopTechnique/hijack`` the
/// full-screen pan, its delegate a ``FullscreenPopGestureDelegate``; in ``PopTechnique/article``
/// the article's, its delegate a ``NavigationInteractiveTransition``) and the content is at its
/// left edge; otherwise no, UIKit's answer for a delegate without the method. A subclass of
/// `UIScrollView` with the method in its own table keeps its own answer, as it would beside an
/// Objective-C category.
nonisolated enum ScrollViewYield {
  static let selector: Selector =
    "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:"

  private static let implementation: @convention(c) (id, SEL, id?, id?) -> Bool = {
    me, _, _, other in
    MainThread.assumeIsolated(with: me, other) { me, other in
      guard FullscreenPopPlugin.isOn,
        let other = other?.takeUnretainedObject() as? UIGestureRecognizer
      else { return false }
      switch FullscreenPopPlugin.technique.value {
      case .hijack: guard other.delegate is FullscreenPopGestureDelegate else { return false }
      case .article: guard other.delegate is NavigationInteractiveTransition else { return false }
      case .hijackSeed, .articleSeed: return false
      }
      return me.receiver(as: UIScrollView.self).contentOffset.x <= 0
    }
  }

  /// Whether the plugin added the method (once per process), and whether it said why it did not.
  private static let state = RuntimeLock((added: false, warned: false))

  /// Adds the method to `UIScrollView` once; a later install finds it added. objc4 has no
  /// `class_removeMethod`, so an uninstall leaves it, answering no. When `UIScrollView`'s own
  /// table already has a method of that name (another category), it is left alone, and the
  /// plugin says so once; the plugin installs anyway, without the yield.
  static func install() {
    let cls = UIScrollView.runtimeClass
    // Decided under the lock; said after it, since observers of the warning may run any code.
    let refusal: (any Error)? = state.withLock { state in
      guard !state.added else { return nil }
      do {
        if let method = class_getInstanceMethod(cls, selector), method.owner === cls {
          throw ObjCRuntimeError.methodAlreadyExists(
            MethodReference(owner: cls, selector: selector))
        }
        try cls.addMethod(selector, implementation: IMP(implementation), types: "B@:@@")
        state.added = true
        return nil
      } catch {
        guard !state.warned else { return nil }
        state.warned = true
        return error
      }
    }
    guard let refusal else { return }
    Diagnostics.warn(
      "fullscreen-pop: the scroll-view category was not added (\(refusal)); a sideways scroll"
        + " view keeps the finger from the full-screen pan unless its own"
        + " -gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer: lets both"
        + " recognize",
      kind: .plugin)
  }
}
