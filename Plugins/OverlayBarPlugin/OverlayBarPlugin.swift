// The plugin: LTNavigationBar's category, which needs no installing, and the mode its methods
// run in.
public import Hooks

/// How the `lt_` methods behave: exactly as LTNavigationBar did, or with its bugs fixed.
public enum OverlayMode: String, Sendable, CaseIterable {
  /// LTNavigationBar as it was: the overlay 20 points taller than the bar (the status bar of
  /// the iPhones before the X), the elements found through the iOS 10 private keys `_leftViews`,
  /// `_rightViews` and `_titleView` (an undefined key from iOS 11: `lt_setElementsAlpha`
  /// throws), and every update applied, whoever sends it.
  case seed
  /// The same technique, mended: the overlay covers the real status bar of the device, the
  /// elements are found in the hierarchy of the running iOS version (the back button's title
  /// included), and updates from a controller that is no longer on top are ignored.
  case fixed
}

/// LTNavigationBar's technique as a SwizzleKit plugin: four methods added to `UINavigationBar`
/// (an Objective-C category; here a Swift extension), with their state in associated objects,
/// and **no swizzling of UIKit's methods**. (One exception, in the fixed mode only: a bar whose
/// background is not in it yet gets a one-shot hook of its own `layoutSubviews`.)
///
/// ```swift
/// bar.lt_setBackgroundColor(.blue)        // an overlay view under the bar's content
/// bar.lt_setTranslationY(-20)             // the bar slides up
/// try bar.lt_setElementsAlpha(0.5)        // title and buttons fade
/// bar.lt_reset()                          // in viewWillDisappear
/// ```
///
/// Because a category's methods are there as soon as its image is loaded, installing the
/// plugin changes nothing in the runtime: it registers the plugin (so the lab lists it and its
/// scenarios) and that is all. The hook map shows no hooks for it; what the methods do (a
/// background image, an inserted subview, alphas, a transform) goes through the runtime's
/// tables like any app code and shows in a `trace`.
public struct OverlayBarPlugin: DiscoverablePlugin {
  /// `swizzlekit.overlay`.
  public let identifier = "swizzlekit.overlay"
  /// One line.
  public let summary =
    "LTNavigationBar's technique: a category that inserts an overlay under the bar's content,"
    + " moves the bar and fades its elements, with no swizzling"

  /// A plugin value.
  public init() {}

  /// Nothing to do: the category's methods need no installing.
  public func install() throws {}

  /// Nothing to undo; the overlays already on bars stay until `lt_reset()`.
  public func uninstall() {}

  /// The mode the `lt_` methods use when a call does not name one: ``OverlayMode/fixed`` until
  /// set. Any thread may set it.
  public static let mode = PluginSetting(OverlayMode.fixed)
}
