// The plugin's way: KJNavigationController's transitions for every navigation controller,
// installed once, by wrapping each controller's delegate so that the app's own keeps working.
import Foundation
public import Hooks
import ObjCRuntime
import UIKitModel

/// Which behaviour the animators and the bar category have.
public enum AnimatorMode: String, Sendable, CaseIterable {
  /// KJNavigationController as it was: a background view 20 points taller than the bar, an
  /// edge pan that begins on the root controller, the bar not set back when a swipe is
  /// cancelled.
  case seed
  /// The same transitions, mended: the background covers the device's status bar, the pan
  /// does not begin on the root or during a transition, a cancelled swipe sets the bar back.
  case fixed
}

/// KJNavigationController's technique for every navigation controller of an app: custom push
/// and pop animators that take the bar from the leaving controller's colour, alpha and title
/// colour to the coming one's inside the transition's own animation, and a left-edge pan that
/// drives the pop.
///
/// The seed made this a subclass that is its own delegate (``KJNavigationController``), which
/// an app must adopt, and which breaks when the app sets a delegate of its own (the complaint of
/// HBDNavigationBar's issue 54 about the same design). The plugin installs once and hooks two
/// methods of `UINavigationController`: after `viewDidLoad` it puts a
/// ``TransitionDelegateProxy`` in as the controller's delegate, adds its edge pan and turns the
/// system's swipe-back off; instead of `setDelegate:` (once the proxy is in) it makes the new
/// delegate the proxy's ``TransitionDelegateProxy/inner`` one. So `navigation.delegate`
/// answers the proxy, and the app's delegate keeps hearing `willShow` and `didShow`; an
/// animator or interaction controller it returns wins over the plugin's. Controllers whose
/// view loaded before the install are left as they are.
public struct AnimatorTransitionPlugin: DiscoverablePlugin {
  /// `swizzlekit.animator`.
  public let identifier = "swizzlekit.animator"
  /// One line.
  public let summary =
    "KJNavigationController's technique: custom animators and an edge pan that carry the bar's"
    + " colour through push and pop, for every navigation controller, beside the app's delegate"

  /// A plugin value.
  public init() {}

  /// Installs the plugin once, however many threads ask.
  public static let installation = PluginRegistry.shared.installOnce(AnimatorTransitionPlugin())

  /// Hooks `viewDidLoad` and `setDelegate:` of `UINavigationController`.
  public func install() throws {
    try UINavigationController.hook(after: "viewDidLoad") { (navigation: UINavigationController) in
      MainThread.assumeIsolated {
        TransitionDelegateProxy.adopt(navigation)
      }
    }
    try UINavigationController.hook(instead: "setDelegate:") {
      (original: HookOriginal<Void, ObjCObject?>, navigation, delegate: ObjCObject?) in
      guard let proxy = TransitionDelegateProxy.proxy(of: navigation), delegate !== proxy else {
        return original(delegate)
      }
      // The app's delegate goes inside the proxy; the proxy stays the delegate.
      proxy.inner = SwiftObjectBox.unwrap(delegate)
    }
  }

  /// The hooks come off with the plugin (the registry removes them); the proxies go, each
  /// navigation controller getting its app's delegate back, and the edge pans are removed.
  public func uninstall() {
    MainThread.assumeIsolated { TransitionDelegateProxy.releaseAll() }
  }
}
