// The selectors of every method in the model's tables, public, so that hooks and swizzles name
// them without string literals: `UINavigationController.Selectors.push`.
public import ObjCRuntime

extension UIResponder {
  /// The selectors of `UIResponder`'s table.
  public enum Selectors {
    /// `nextResponder` (Swift: ``UIResponder/next``).
    public static let nextResponder: Selector = "nextResponder"
    /// Every selector of the table, in the order it declares them.
    public static let all: [Selector] = [nextResponder]
  }
}

extension UIView {
  /// The selectors of `UIView`'s table: the mutators a plugin hooks.
  public enum Selectors {
    /// `addSubview:`.
    public static let addSubview: Selector = "addSubview:"
    /// `insertSubview:atIndex:`.
    public static let insertSubviewAtIndex: Selector = "insertSubview:atIndex:"
    /// `insertSubview:belowSubview:`.
    public static let insertSubviewBelowSubview: Selector = "insertSubview:belowSubview:"
    /// `insertSubview:aboveSubview:`.
    public static let insertSubviewAboveSubview: Selector = "insertSubview:aboveSubview:"
    /// `removeFromSuperview`.
    public static let removeFromSuperview: Selector = "removeFromSuperview"
    /// `bringSubviewToFront:`.
    public static let bringSubviewToFront: Selector = "bringSubviewToFront:"
    /// `sendSubviewToBack:`.
    public static let sendSubviewToBack: Selector = "sendSubviewToBack:"
    /// `exchangeSubviewAtIndex:withSubviewAtIndex:`.
    public static let exchangeSubviews: Selector = "exchangeSubviewAtIndex:withSubviewAtIndex:"
    /// `setHidden:` (Swift: ``UIView/isHidden``).
    public static let setHidden: Selector = "setHidden:"
    /// `setAlpha:` (Swift: ``UIView/alpha``).
    public static let setAlpha: Selector = "setAlpha:"
    /// `setBackgroundColor:`.
    public static let setBackgroundColor: Selector = "setBackgroundColor:"
    /// `setTintColor:`.
    public static let setTintColor: Selector = "setTintColor:"
    /// `layoutSubviews`.
    public static let layoutSubviews: Selector = "layoutSubviews"
    /// `setNeedsLayout`.
    public static let setNeedsLayout: Selector = "setNeedsLayout"
    /// `layoutIfNeeded`.
    public static let layoutIfNeeded: Selector = "layoutIfNeeded"
    /// Every selector of the table, in the order it declares them.
    public static let all: [Selector] = [
      addSubview, insertSubviewAtIndex, insertSubviewBelowSubview, insertSubviewAboveSubview,
      removeFromSuperview, bringSubviewToFront, sendSubviewToBack, exchangeSubviews, setHidden,
      setAlpha, setBackgroundColor, setTintColor, layoutSubviews, setNeedsLayout, layoutIfNeeded,
    ]
  }
}

extension UIScrollView {
  /// The selectors of `UIScrollView`'s own table (it inherits `UIView`'s).
  public enum Selectors {
    /// `setContentOffset:` (Swift: ``UIScrollView/contentOffset``; the argument is a `CGPoint`,
    /// `{CGPoint=dd}`, which a typed hook takes as `CGPoint`).
    public static let setContentOffset: Selector = "setContentOffset:"
    /// `handlePan:`, the action of the scroll view's own pan (UIKit's name for it).
    public static let handlePan: Selector = "handlePan:"
    /// `scrollViewDidScroll:`, the delegate method the scroll view sends through the runtime
    /// to a delegate whose class's table has it (not in the scroll view's own table).
    public static let scrollViewDidScroll: Selector = "scrollViewDidScroll:"
    /// Every selector of the table, in the order it declares them.
    public static let all: [Selector] = [setContentOffset, handlePan]
  }
}

extension UINavigationBar {
  /// The selectors of `UINavigationBar`'s own table (it inherits `UIView`'s).
  public enum Selectors {
    /// `setTitleTextAttributes:` (Swift: ``UINavigationBar/titleTextAttributes``; the argument is
    /// a `TextAttributesBox`).
    public static let setTitleTextAttributes: Selector = "setTitleTextAttributes:"
    /// `setBackgroundImage:forBarMetrics:`.
    public static let setBackgroundImage: Selector = "setBackgroundImage:forBarMetrics:"
    /// `setBarTintColor:`.
    public static let setBarTintColor: Selector = "setBarTintColor:"
    /// `layoutSubviews`, the bar's own.
    public static let layoutSubviews: Selector = "layoutSubviews"
    /// Every selector of the table, in the order it declares them.
    public static let all: [Selector] = [
      setTitleTextAttributes, setBackgroundImage, setBarTintColor, layoutSubviews,
    ]
  }
}

extension UIViewController {
  /// The selectors of `UIViewController`'s table: the lifecycle callbacks and the status bar.
  public enum Selectors {
    /// `loadView`.
    public static let loadView: Selector = "loadView"
    /// `viewDidLoad`.
    public static let viewDidLoad: Selector = "viewDidLoad"
    /// `viewWillAppear:`.
    public static let viewWillAppear: Selector = "viewWillAppear:"
    /// `viewDidAppear:`.
    public static let viewDidAppear: Selector = "viewDidAppear:"
    /// `viewWillDisappear:`.
    public static let viewWillDisappear: Selector = "viewWillDisappear:"
    /// `viewDidDisappear:`.
    public static let viewDidDisappear: Selector = "viewDidDisappear:"
    /// `viewWillLayoutSubviews`.
    public static let viewWillLayoutSubviews: Selector = "viewWillLayoutSubviews"
    /// `preferredStatusBarStyle` (an `Int`, a `UIStatusBarStyle`'s raw value).
    public static let preferredStatusBarStyle: Selector = "preferredStatusBarStyle"
    /// `hidesBottomBarWhenPushed` (the getter: a `Bool`).
    public static let hidesBottomBarWhenPushed: Selector = "hidesBottomBarWhenPushed"
    /// `presentViewController:animated:completion:` (the completion travels as a
    /// ``UICompletionBlock``).
    public static let present: Selector = "presentViewController:animated:completion:"
    /// `dismissViewControllerAnimated:completion:`.
    public static let dismiss: Selector = "dismissViewControllerAnimated:completion:"
    /// `modalPresentationStyle` (the getter: an `Int`, a ``UIModalPresentationStyle``'s raw
    /// value).
    public static let modalPresentationStyle: Selector = "modalPresentationStyle"
    /// Every selector of the table, in the order it declares them.
    public static let all: [Selector] = [
      loadView, viewDidLoad, viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear,
      viewWillLayoutSubviews, preferredStatusBarStyle, hidesBottomBarWhenPushed, present, dismiss,
      modalPresentationStyle,
    ]
  }
}

extension UITabBarController {
  /// The selectors of `UITabBarController`'s own table: selection, the tabs, the tab bar's
  /// delegate method, and the private door a navigation controller asks before it hides the
  /// bar.
  public enum Selectors {
    /// `setSelectedIndex:` (Swift: ``UITabBarController/selectedIndex``).
    public static let setSelectedIndex: Selector = "setSelectedIndex:"
    /// `setSelectedViewController:` (Swift: ``UITabBarController/selectedViewController``).
    public static let setSelectedViewController: Selector = "setSelectedViewController:"
    /// `setViewControllers:animated:` (the list is a `ViewControllerList`).
    public static let setViewControllers: Selector = "setViewControllers:animated:"
    /// `tabBar:didSelectItem:`, the tab bar's delegate method: the user tapped a tab.
    public static let tabBarDidSelectItem: Selector = "tabBar:didSelectItem:"
    /// `_selectedViewControllerInTabBar` (Swift:
    /// ``UITabBarController/selectedViewControllerInTabBar()``).
    public static let selectedViewControllerInTabBar: Selector = "_selectedViewControllerInTabBar"
    /// Every selector of the table, in the order it declares them.
    public static let all: [Selector] = [
      setSelectedIndex, setSelectedViewController, setViewControllers, tabBarDidSelectItem,
      selectedViewControllerInTabBar,
    ]
  }
}

extension UINavigationController {
  /// The selectors of `UINavigationController`'s own table: the stack operations, the bar's
  /// delegate method, the private update of an interactive transition, and the status bar
  /// style it answers itself.
  public enum Selectors {
    /// `pushViewController:animated:`.
    public static let push: Selector = "pushViewController:animated:"
    /// `popViewControllerAnimated:` (returns the popped controller).
    public static let pop: Selector = "popViewControllerAnimated:"
    /// `popToViewController:animated:` (returns the popped controllers, a
    /// `ViewControllerList`).
    public static let popTo: Selector = "popToViewController:animated:"
    /// `popToRootViewControllerAnimated:` (returns a `ViewControllerList`).
    public static let popToRoot: Selector = "popToRootViewControllerAnimated:"
    /// `setViewControllers:animated:` (the argument is a `ViewControllerList`).
    public static let setViewControllers: Selector = "setViewControllers:animated:"
    /// `navigationBar:shouldPushItem:`, the bar's delegate method, asked as a push shows its
    /// controller's item.
    public static let shouldPushItem: Selector = "navigationBar:shouldPushItem:"
    /// `navigationBar:shouldPopItem:`, the bar's delegate method.
    public static let shouldPopItem: Selector = "navigationBar:shouldPopItem:"
    /// `_updateInteractiveTransition:`, private: called with the percent (a `Double`, `d`) on
    /// every change of an interactive transition.
    public static let updateInteractiveTransition: Selector = "_updateInteractiveTransition:"
    /// `preferredStatusBarStyle`, the navigation controller's own answer (from its bar's
    /// `barStyle`), which the status bar reads while the bar shows.
    public static let preferredStatusBarStyle: Selector = "preferredStatusBarStyle"
    /// `setDelegate:` (Swift: ``UINavigationController/delegate``), which a plugin hooks to
    /// wrap the app's delegate.
    public static let setDelegate: Selector = "setDelegate:"
    /// Every selector of the table, in the order it declares them.
    public static let all: [Selector] = [
      push, pop, popTo, popToRoot, setViewControllers, shouldPushItem, shouldPopItem,
      updateInteractiveTransition, preferredStatusBarStyle, setDelegate,
    ]
  }
}
