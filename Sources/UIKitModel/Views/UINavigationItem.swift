// What a navigation bar shows and asks: its items and their buttons, the title's text attributes,
// the bar's metrics and style, and its delegate protocol.
import Foundation
public import ObjCRuntime

/// Bar metrics, as UIKit's `UIBarMetrics`.
public enum UIBarMetrics: Int, Sendable {
  /// The default metrics.
  case `default` = 0
  /// Compact (landscape phone) metrics.
  case compact = 1
}

/// Bar styles, as UIKit's `UIBarStyle`.
public enum UIBarStyle: Int, Sendable {
  /// A light bar.
  case `default` = 0
  /// A dark bar.
  case black = 1
}

/// Text attributes as an object, so that they can cross the runtime (the `NSDictionary` that
/// `-setTitleTextAttributes:` receives): a swizzle of it reads and replaces `attributes`.
public final class TextAttributesBox: ObjCObject, @unchecked Sendable {
  // @unchecked Sendable: its one stored property is immutable, and the isa is atomic (an
  // immutable NSDictionary, as UIKit hands it).
  /// The attributes.
  public let attributes: TextAttributes

  /// A box around `attributes`.
  public init(_ attributes: TextAttributes) {
    self.attributes = attributes
    super.init()
  }
}

/// A button in a navigation bar.
@preconcurrency @MainActor
open class UIBarButtonItem: ObjCObject {
  /// The title.
  open var title: String?
  /// The image.
  open var image: UIImage?
  /// A view shown instead of the title.
  open var customView: UIView?
  /// The tint colour; nil inherits the bar's.
  open var tintColor: UIColor?
  /// The object sent `action`.
  open weak var target: ObjCObject?
  /// The selector sent when the item is tapped.
  open var action: Selector?
  /// iOS 26: whether the item leaves the glass background it would share with its neighbours
  /// (Apple's `hidesSharedBackground`; TZImagePickerController issue 1737, CruGlobal/godtools-swift
  /// pull request 2790 set it to take the glass off their bar buttons). False by default. The
  /// model keeps it and answers ``UINavigationBar/itemsOnSharedBackground`` from it; it draws no
  /// glass.
  open var hidesSharedBackground = false

  /// The item's style, as UIKit's `UIBarButtonItem.Style`: the model draws both alike.
  public enum Style: Int, Sendable {
    /// The default.
    case plain
    /// Deprecated in iOS 8 in UIKit; the same as plain.
    case bordered
    /// A bold title, for a Done button.
    case done
  }

  /// The style; the model keeps it and draws every style alike.
  open var style: Style = .plain

  /// An item with a title.
  public init(title: String?, target: ObjCObject? = nil, action: Selector? = nil) {
    self.title = title
    self.target = target
    self.action = action
    super.init()
  }

  /// An item with a title and a style, as UIKit's designated form.
  public convenience init(
    title: String?, style: Style, target: ObjCObject?, action: Selector?
  ) {
    self.init(title: title, target: target, action: action)
    self.style = style
  }

  /// An item showing `customView`.
  public init(customView: UIView) {
    self.customView = customView
    super.init()
  }
}

/// What a navigation bar shows for one screen: title, title view, buttons.
@preconcurrency @MainActor
open class UINavigationItem: ObjCObject {
  /// The title.
  open var title: String?
  /// A view shown instead of the title.
  open var titleView: UIView?
  /// The buttons on the left.
  open var leftBarButtonItems: [UIBarButtonItem]?
  /// The buttons on the right.
  open var rightBarButtonItems: [UIBarButtonItem]?
  /// The item shown as the back button of the next screen.
  open var backBarButtonItem: UIBarButtonItem?
  /// Whether the back button is hidden.
  open var hidesBackButton = false
  /// Whether the left bar button items sit beside the back button; false (the default, as in
  /// UIKit): left items replace it.
  open var leftItemsSupplementBackButton = false

  /// How the item's title shows when its bar ``UINavigationBar/prefersLargeTitles`` (iOS 11),
  /// as UIKit's `UINavigationItem.LargeTitleDisplayMode`.
  public enum LargeTitleDisplayMode: Int, Sendable, CaseIterable {
    /// As the item below it shows its title (Apple: "If the previous item's title was large,
    /// the current item also displays a large title"); the first item shows a large title.
    case automatic = 0
    /// Always large.
    case always = 1
    /// Never large.
    case never = 2
  }

  /// How the title shows when the bar prefers large titles; `.automatic` by default, as
  /// Apple documents it. Setting it before iOS 11 is refused with
  /// ``UIKitModelIssue/unavailable(api:introduced:running:)``. A bar showing the item follows
  /// a change at once.
  open var largeTitleDisplayMode: LargeTitleDisplayMode {
    get { largeTitleModeStorage }
    set {
      guard UIDevice.isAvailable("UINavigationItem.largeTitleDisplayMode", from: 11) else {
        return
      }
      largeTitleModeStorage = newValue
      showingBar?.updateLargeTitle(animated: false)
    }
  }
  private var largeTitleModeStorage = LargeTitleDisplayMode.automatic

  /// The search controller whose search bar the navigation bar integrates below its row while
  /// this item is on top (iOS 11), as UIKit's property (Apple: "The navigation controller
  /// integrates the search bar from your search controller into the navigation bar interface").
  /// Setting it before iOS 11 is refused with ``UIKitModelIssue/unavailable(api:introduced:running:)``.
  open var searchController: UISearchController? {
    get { searchControllerStorage }
    set {
      guard UIDevice.isAvailable("UINavigationItem.searchController", from: 11) else { return }
      searchControllerStorage = newValue
      if newValue != nil { UINavigationBar.someBarMayGrow = true }
      showingBar?.updateLargeTitle(animated: false)
    }
  }
  private var searchControllerStorage: UISearchController?

  /// Whether the integrated search bar hides as the content scrolls (iOS 11); true by default,
  /// as Apple documents it. Setting it before iOS 11 is refused.
  open var hidesSearchBarWhenScrolling: Bool {
    get { hidesSearchBarStorage }
    set {
      guard UIDevice.isAvailable("UINavigationItem.hidesSearchBarWhenScrolling", from: 11) else {
        return
      }
      hidesSearchBarStorage = newValue
      showingBar?.updateLargeTitle(animated: false)
    }
  }
  private var hidesSearchBarStorage = true
  /// The bar that shows this item on top, told when the mode or the search changes.
  weak var showingBar: UINavigationBar?

  /// An item with `title`.
  public init(title: String) {
    self.title = title
    super.init()
  }

  /// An item without title.
  public init() {
    super.init()
  }

  /// What Objective-C's `+alloc` makes (the GNUObjC module): an item without title, for this class itself;
  /// a subclass Objective-C should allocate overrides it too.
  open override class func makeInstance() -> ObjCObject? {
    self == UINavigationItem.self ? MainThread.assumeIsolated { UINavigationItem() } : nil
  }

  /// The first left button.
  open var leftBarButtonItem: UIBarButtonItem? {
    get { leftBarButtonItems?.first }
    set { leftBarButtonItems = newValue.map { [$0] } }
  }

  /// The first right button.
  open var rightBarButtonItem: UIBarButtonItem? {
    get { rightBarButtonItems?.first }
    set { rightBarButtonItems = newValue.map { [$0] } }
  }
}

/// What a navigation bar asks and tells its delegate (UIKit's `UINavigationBarDelegate`). When
/// the delegate is an `ObjCObject` that answers the selector, the bar sends it through the
/// runtime (`navigationBar:shouldPopItem:`...), so a swizzle of it runs.
@preconcurrency @MainActor
public protocol UINavigationBarDelegate: AnyObject {
  /// Whether `item` may be pushed.
  func navigationBar(_ navigationBar: UINavigationBar, shouldPush item: UINavigationItem) -> Bool
  /// `item` was pushed.
  func navigationBar(_ navigationBar: UINavigationBar, didPush item: UINavigationItem)
  /// Whether `item` may be popped.
  func navigationBar(_ navigationBar: UINavigationBar, shouldPop item: UINavigationItem) -> Bool
  /// `item` was popped.
  func navigationBar(_ navigationBar: UINavigationBar, didPop item: UINavigationItem)
}

extension UINavigationBarDelegate {
  /// Yes.
  public func navigationBar(_ navigationBar: UINavigationBar, shouldPush item: UINavigationItem)
    -> Bool
  { true }
  /// Nothing.
  public func navigationBar(_ navigationBar: UINavigationBar, didPush item: UINavigationItem) {}
  /// Yes.
  public func navigationBar(_ navigationBar: UINavigationBar, shouldPop item: UINavigationItem)
    -> Bool
  { true }
  /// Nothing.
  public func navigationBar(_ navigationBar: UINavigationBar, didPop item: UINavigationItem) {}
}
