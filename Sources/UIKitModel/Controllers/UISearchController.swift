// The search controller and its search bar: activating the search (a tap in the search field,
// or `isActive`), its delegate's callbacks in UIKit's documented order, and the navigation
// bar's visibility while it is active, including the override of the bar's state on every
// push and pop that the field reports (QMUI_iOS issue 479).
import Foundation
import ObjCRuntime

/// A search bar, as UIKit's `UISearchBar`: in the model, a view of the height a navigation bar
/// gives it, with its text and placeholder, and whether its field has the keyboard. It draws
/// nothing of its own: the bar's background shows behind it.
///
/// `becomeFirstResponder` and `resignFirstResponder` are in the table. A tap in the field is
/// `becomeFirstResponder()`: the search bar of a search controller then activates the search
/// (``UISearchController/isActive``). The keyboard itself (its frame, its notifications) is
/// not modelled: no source gives its height per device and version.
open class UISearchBar: UIView {
  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UISearchBar.self) {
      ObjCMethodDeclaration(
        "becomeFirstResponder", SearchBarBase.become, swiftEntry: SearchBarEntry.become)
      ObjCMethodDeclaration(
        "resignFirstResponder", SearchBarBase.resign, swiftEntry: SearchBarEntry.resign)
    }
  }

  /// The text in the search field.
  open var text: String?
  /// The placeholder of the search field.
  open var placeholder: String?
  /// Whether the search field has the keyboard.
  public internal(set) var isFirstResponder = false
  /// The search controller that owns the bar, if any.
  internal weak var searchController: UISearchController?

  /// Gives the search field the keyboard, as a tap in it does; a search controller's bar
  /// activates the search first, and answers false, with nothing changed, when the activation
  /// is refused. Through the table (`becomeFirstResponder`).
  @discardableResult
  open func becomeFirstResponder() -> Bool {
    (try? sendToTable(SearchSelectors.become) as Bool) ?? false
  }

  /// Takes the keyboard from the search field; an active search stays active (the model's
  /// reading: Apple ties the activation to the start of editing, and documents the end of the
  /// search only as `isActive` set to false). Through the table (`resignFirstResponder`).
  @discardableResult
  open func resignFirstResponder() -> Bool {
    (try? sendToTable(SearchSelectors.resign) as Bool) ?? false
  }
}

/// The delegate of a search controller, as UIKit's `UISearchControllerDelegate`: told around
/// the automatic presentation and dismissal of the search. Every method has an empty default.
///
/// An object whose class has the selectors in its table is told through the runtime instead
/// (an Objective-C style delegate, or a Swift one whose `@objc` methods are registered): a
/// plugin can hook them. `presentSearchController:` is honoured that way only, as UIKit asks
/// `respondsToSelector:` for it: a delegate that has it presents the search itself, and the
/// will and did methods are not called (Apple's documentation of the four).
@preconcurrency @MainActor
public protocol UISearchControllerDelegate: AnyObject {
  /// The search is about to be presented automatically.
  func willPresentSearchController(_ searchController: UISearchController)
  /// The automatic presentation of the search ended.
  func didPresentSearchController(_ searchController: UISearchController)
  /// The search is about to be dismissed automatically.
  func willDismissSearchController(_ searchController: UISearchController)
  /// The automatic dismissal of the search ended.
  func didDismissSearchController(_ searchController: UISearchController)
}

extension UISearchControllerDelegate {
  /// Does nothing.
  public func willPresentSearchController(_ searchController: UISearchController) {}
  /// Does nothing.
  public func didPresentSearchController(_ searchController: UISearchController) {}
  /// Does nothing.
  public func willDismissSearchController(_ searchController: UISearchController) {}
  /// Does nothing.
  public func didDismissSearchController(_ searchController: UISearchController) {}
}

/// A search controller, as UIKit's `UISearchController`: its search bar, which a navigation item
/// integrates into the navigation bar (``UINavigationItem/searchController``), the presentation
/// settings UIKit documents, and the search's activation.
///
/// **Activating.** A tap in the search field (``UISearchBar/becomeFirstResponder()``) or
/// `isActive = true` activates the search (Apple's documentation of `isActive` and of
/// `presentSearchController(_:)`): the delegate's `presentSearchController:` when its class has
/// it, else `willPresentSearchController:` now and `didPresentSearchController:` once the
/// presentation's ``UIViewController/presentationDuration`` has passed on the virtual clock.
/// `isActive = false` dismisses it the same way (`willDismissSearchController:`, then
/// `didDismissSearchController:`). The delegate's methods and `setActive:` are sent through the
/// runtime, so plugins can hook them.
///
/// **The navigation bar.** With ``hidesNavigationBarDuringPresentation`` the navigation
/// controller of the searching page hides its bar with `setNavigationBarHidden(true,
/// animated: true)` for a search bar outside the navigation bar, a table header's (OpenRadar
/// 32980525: "When the search bar is tapped, it usually hides the navigation bar"; QMUI_iOS
/// issue 479 names `setNavigationBarHidden:animated:` as the search controller's means), and
/// shows it again on dismissal. A search bar in the navigation bar leaves the bar shown: how
/// UIKit folds the bar's row away around it is not modelled (no source gives it).
///
/// **Pushes and pops while active.** The search controller listens to its navigation
/// controller's will-show (UIKit's private `UINavigationControllerWillShowViewController-
/// Notification`, handled in `_navigationControllerWillShowViewController:`, QMUI_iOS issue
/// 479), sent with the delegate's will-show: for a push, a pop and the start of an interactive
/// pop, and not after a cancelled one (OpenRadar 21137690), so after a cancelled swipe the page
/// keeps the bar the search set for the page it was going to. It comes after the
/// arriving page's `viewWillAppear:`, and sets the bar's visibility there: shown for any other
/// page, and as the search wants it for the searching page. A page that hides the bar in its
/// `viewWillAppear:` sees the search show it again: QMUI_iOS issues 479 (iOS 12) and 166
/// (iOS 10.3), and NavigationBackport issue 35 (a SwiftUI search on iOS 16, a search bar in the
/// navigation item) report it. The model keeps it on every profile; no report says it changed.
///
/// **The presentation.** The automatic presentation is in context: by the nearest controller
/// from the searching page up whose ``UIViewController/definesPresentationContext`` is true (a
/// navigation controller's is by default), else by the root of the page's hierarchy (Apple's
/// documentation of `definesPresentationContext`; Thomas Denney's "UISearchController and
/// definesPresentationContext" shows the search controller presented so). That controller
/// refuses another presentation while the search is active, and a dismissal sent to it ends
/// the search. A delegate that presents the search itself (`presentSearchController:`) also
/// dismisses it itself: `isActive = false` then changes the state and tells the delegate, and
/// leaves its presentation alone. Neither the search controller's view nor the results
/// controller's is added to the window: no source gives how UIKit lays them out. Neither are
/// `searchResultsUpdater` and the dimming of `obscuresBackgroundDuringPresentation`.
///
/// Refused, with ``UIKitModelIssue/searchRefused(controller:request:reason:)`` and nothing
/// changed: activating or dismissing while the presentation or dismissal runs, activating while
/// the context already presents another controller, and (the model's choice, as for
/// presentations) activating while the searching page's navigation controller pushes or pops.
open class UISearchController: UIViewController {
  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UISearchController.self) {
      ObjCMethodDeclaration("isActive", SearchBase.isActive, swiftEntry: SearchEntry.isActive)
      ObjCMethodDeclaration("setActive:", SearchBase.setActive, swiftEntry: SearchEntry.setActive)
      ObjCMethodDeclaration(
        "_navigationControllerWillShowViewController:", SearchBase.willShow)
      ObjCPropertyDeclaration("active", attributes: "TB,N,GisActive")
    }
  }

  /// The controller that shows the results; nil when the searching controller shows them.
  public let searchResultsController: UIViewController?
  /// The search bar.
  public let searchBar = UISearchBar(frame: .zero)
  /// Whether the navigation bar hides while searching; true by default (Apple's documentation).
  open var hidesNavigationBarDuringPresentation = true
  /// Whether the content is obscured while searching: unless set, true up to iOS 14 and false
  /// from iOS 15 (ykws/SearchExample's README tabulates the default by version).
  open var obscuresBackgroundDuringPresentation: Bool {
    get { obscuresStorage ?? (UIDevice.current.majorSystemVersion < 15) }
    set { obscuresStorage = newValue }
  }
  private var obscuresStorage: Bool?
  /// The delegate, told around the search's presentation and dismissal.
  open weak var delegate: (any UISearchControllerDelegate)?

  /// Whether the search is active (presented); false by default. Setting it activates or
  /// dismisses the search. Through the table (`isActive`, `setActive:`).
  open var isActive: Bool {
    get { (try? sendToTable(SearchSelectors.isActive) as Bool) ?? activeFlag }
    set { sendToTableReportingFailure(SearchSelectors.setActive, newValue) }
  }

  /// The stored state of ``isActive``.
  var activeFlag = false
  /// Whether the presentation or the dismissal runs (between the will and did callbacks).
  var isChangingActivation = false
  /// The page that was searching when the search activated, and its navigation controller.
  weak var searchingPage: UIViewController?
  weak var searchingNavigation: UINavigationController?
  /// Whether the activation hid the navigation bar (a search bar outside it).
  var hidBar = false
  /// Whether the search is presented in context by the model's automatic presentation (not by
  /// a delegate that presented it itself, whose dismissal is its own).
  var isPresentedInContext = false

  /// A search controller whose results `searchResultsController` shows (nil: the searching
  /// controller shows them). OpenRadar 33563261 reports that on iOS 11 beta 4 a search
  /// controller made with `UISearchController()` left its search bar out of the navigation bar,
  /// unlike one made with this initializer: the model has only this one.
  public init(searchResultsController: UIViewController?) {
    self.searchResultsController = searchResultsController
    super.init()
    searchBar.searchController = self
  }

  /// The page the search belongs to: for a search bar in a navigation bar, the top page of that
  /// bar's navigation controller; else the nearest controller whose view holds the search bar
  /// and that is in a navigation controller.
  var pageOfSearchBar: UIViewController? {
    if let bar = searchBar.superview as? UINavigationBar {
      return (bar.delegate as? UINavigationController)?.topViewController
    }
    var view: UIView? = searchBar
    while let current = view {
      if let owner = current.owningController, owner.navigationController != nil { return owner }
      view = current.superview
    }
    return nil
  }

  /// The base of `setActive:`.
  func performSetActive(_ active: Bool) {
    guard active != activeFlag else { return }
    let request = active ? "activate the search" : "dismiss the search"
    func refuse(_ reason: String) {
      UIKitModelIssues.report(
        .searchRefused(controller: description, request: request, reason: reason))
    }
    if isChangingActivation {
      return refuse("while its presentation or dismissal is in progress")
    }
    if active { activate(refusing: refuse) } else { deactivate() }
  }

  private func activate(refusing refuse: (String) -> Void) {
    let page = pageOfSearchBar
    let navigation = page?.navigationController
    if navigation?.isTransitioning == true {
      return refuse("while its navigation controller pushes or pops")
    }
    let delegateObject = delegate as? ObjCObject
    let presentsItself =
      delegateObject?.responds(to: SearchDelegateSelectors.present) == true
    // The automatic presentation is in context (Apple's documentation of
    // `definesPresentationContext`; Thomas Denney's "UISearchController and
    // definesPresentationContext" shows the search controller presented so).
    let context = presentsItself ? nil : presentationContext(from: page)
    if let context, let current = context.presentedViewController {
      return refuse("while \(context) already presents \(current)")
    }
    // Everything is in place before the delegate hears of it, and the activation counts as
    // changing meanwhile: a delegate that sets `isActive` from its callback is refused, and
    // the search is never left half active.
    activeFlag = true
    isChangingActivation = true
    searchBar.isFirstResponder = true
    searchingPage = page
    searchingNavigation = navigation
    if let context {
      context.presentedViewController = self
      presentingViewController = context
      isPresentedInContext = true
      isBeingPresented = true
    }
    hidBar =
      hidesNavigationBarDuringPresentation && navigation != nil
      && !(searchBar.superview is UINavigationBar)
    navigation?.listenForWillShow(self)
    if presentsItself {
      tell(SearchDelegateSelectors.present) { _ in }
      isChangingActivation = false
    } else {
      tell(SearchDelegateSelectors.willPresent) { $0.willPresentSearchController(self) }
      finishLater { $0.willPresentFinished() }
    }
    if hidBar { navigation?.setNavigationBarHidden(true, animated: true) }
  }

  /// Dismisses the search, running `completion` once the dismissal ended: what a dismissal sent
  /// to the controller that presents it in context does
  /// (``UIViewController/dismiss(animated:completion:)``). Refused, with an issue and without
  /// the completion, while the presentation or the dismissal runs.
  func dismissSearch(completion: (() -> Void)?) {
    guard !isChangingActivation else {
      UIKitModelIssues.report(
        .searchRefused(
          controller: description, request: "dismiss the search",
          reason: "while its presentation or dismissal is in progress"))
      return
    }
    guard activeFlag else {
      completion?()
      return
    }
    deactivate(completion: completion)
  }

  private func deactivate(completion: (() -> Void)? = nil) {
    activeFlag = false
    isChangingActivation = true
    searchBar.isFirstResponder = false
    if isPresentedInContext { isBeingDismissed = true }
    let navigation = searchingNavigation
    let showsBar = hidBar && navigation?.topViewController === searchingPage
    hidBar = false
    navigation?.stopListeningForWillShow(self)
    searchingPage = nil
    searchingNavigation = nil
    tell(SearchDelegateSelectors.willDismiss) { $0.willDismissSearchController(self) }
    if showsBar { navigation?.setNavigationBarHidden(false, animated: true) }
    finishLater { search in
      if search.isPresentedInContext, let presenter = search.presentingViewController {
        if presenter.presentedViewController === search { presenter.presentedViewController = nil }
        search.presentingViewController = nil
      }
      search.isPresentedInContext = false
      search.isBeingDismissed = false
      search.tell(SearchDelegateSelectors.didDismiss) { $0.didDismissSearchController(search) }
      completion?()
    }
  }

  private func willPresentFinished() {
    isBeingPresented = false
    tell(SearchDelegateSelectors.didPresent) { $0.didPresentSearchController(self) }
  }

  /// The controller an automatic presentation of the search is made by, for `page`: the
  /// nearest from `page` up its parents that defines the presentation context (a navigation
  /// controller does by default), else the root of the page's hierarchy (the window's root, or
  /// the presented controller it is in; Apple's documentation of `presentingViewController`
  /// names both); nil without a page.
  private func presentationContext(from page: UIViewController?) -> UIViewController? {
    var current = page
    while let controller = current {
      if controller.definesPresentationContext { return controller }
      current = controller.parent
    }
    return page?.presentationRoot
  }

  /// Runs `body` once the presentation's duration has passed on the virtual clock; the
  /// activation is changing until then.
  private func finishLater(_ body: @escaping (UISearchController) -> Void) {
    isChangingActivation = true
    VirtualRunLoop.main.perform(after: UIViewController.presentationDuration, waitedFor: true) {
      [weak self] in
      guard let self else { return }
      self.isChangingActivation = false
      body(self)
    }
  }

  /// The base of `_navigationControllerWillShowViewController:`: while active, the bar shows
  /// for any page but the searching one, which gets the bar as the search wants it.
  func navigationControllerWillShow(_ navigation: UINavigationController) {
    guard activeFlag, navigation === searchingNavigation else { return }
    guard let page = searchingPage, navigation.viewControllers.contains(where: { $0 === page })
    else {
      // The searching page left the stack: nothing is left to keep the bar for.
      navigation.stopListeningForWillShow(self)
      return
    }
    navigation.setNavigationBarHidden(
      navigation.topViewController === page ? hidBar : false, animated: true)
  }

  /// Tells the delegate `selector` through the runtime when its class has it, else through the
  /// Swift protocol with `swift`.
  private func tell(_ selector: Selector, swift: (any UISearchControllerDelegate) -> Void) {
    guard let delegate else { return }
    guard let object = delegate as? ObjCObject, object.responds(to: selector) else {
      return swift(delegate)
    }
    do {
      try objc_msgSend(object, selector, self as ObjCObject) as Void
    } catch {
      Diagnostics.warn("-[\(type(of: object)) \(selector)]", refused: error)
    }
  }
}

/// The selectors of `UISearchControllerDelegate`, as the model sends them.
public enum SearchDelegateSelectors {
  /// `presentSearchController:`: a delegate that has it presents the search itself.
  public static let present: Selector = "presentSearchController:"
  /// `willPresentSearchController:`.
  public static let willPresent: Selector = "willPresentSearchController:"
  /// `didPresentSearchController:`.
  public static let didPresent: Selector = "didPresentSearchController:"
  /// `willDismissSearchController:`.
  public static let willDismiss: Selector = "willDismissSearchController:"
  /// `didDismissSearchController:`.
  public static let didDismiss: Selector = "didDismissSearchController:"
}

extension UINavigationController {
  /// Adds `search` to the active searches told of this controller's will-show.
  func listenForWillShow(_ search: UISearchController) {
    activeSearches.removeAll { $0.object == nil || $0.object === search }
    activeSearches.append(WeakReference(search))
  }

  /// Removes `search` from the active searches.
  func stopListeningForWillShow(_ search: UISearchController) {
    activeSearches.removeAll { $0.object == nil || $0.object === search }
  }

  /// Sends `_navigationControllerWillShowViewController:` to each active search of this
  /// controller: after the arriving page's `viewWillAppear:` and the delegate's will-show.
  func tellActiveSearchesWillShow() {
    for search in activeSearches.compactMap(\.object) {
      search.sendToTableReportingFailure(SearchSelectors.willShow, self as ObjCObject?)
    }
  }
}

enum SearchBase {
  static let isActive: @convention(c) (id, SEL) -> Bool = { me, _ in
    MainThread.enterIMP(with: me) { me in
      me.receiver(as: UISearchController.self).activeFlag
    }
  }
  static let setActive: @convention(c) (id, SEL, Bool) -> Void = { me, _, active in
    MainThread.enterIMP(with: me, active) { me, active in
      me.receiver(as: UISearchController.self).performSetActive(active)
    }
  }
  static let willShow: @convention(c) (id, SEL, id?) -> Void = { me, _, navigation in
    MainThread.enterIMP(with: me, navigation) { me, navigation in
      guard let navigation = navigation?.takeUnretainedObject() as? UINavigationController else {
        return
      }
      me.receiver(as: UISearchController.self).navigationControllerWillShow(navigation)
    }
  }
}

enum SearchEntry {
  static let isActive: @convention(c) (id, SEL) -> Bool = { me, _ in
    MainThread.enterIMP(with: me) { me in
      me.receiver(as: UISearchController.self).isActive
    }
  }
  static let setActive: @convention(c) (id, SEL, Bool) -> Void = { me, _, active in
    MainThread.enterIMP(with: me, active) { me, active in
      me.receiver(as: UISearchController.self).isActive = active
    }
  }
}

enum SearchBarBase {
  static let become: @convention(c) (id, SEL) -> Bool = { me, _ in
    MainThread.enterIMP(with: me) { me in
      let bar = me.receiver(as: UISearchBar.self)
      if let search = bar.searchController, !search.activeFlag {
        search.isActive = true
        return search.activeFlag
      }
      bar.isFirstResponder = true
      return true
    }
  }
  static let resign: @convention(c) (id, SEL) -> Bool = { me, _ in
    MainThread.enterIMP(with: me) { me in
      me.receiver(as: UISearchBar.self).isFirstResponder = false
      return true
    }
  }
}

enum SearchBarEntry {
  static let become: @convention(c) (id, SEL) -> Bool = { me, _ in
    MainThread.enterIMP(with: me) { me in
      me.receiver(as: UISearchBar.self).becomeFirstResponder()
    }
  }
  static let resign: @convention(c) (id, SEL) -> Bool = { me, _ in
    MainThread.enterIMP(with: me) { me in
      me.receiver(as: UISearchBar.self).resignFirstResponder()
    }
  }
}

/// The selectors the search sends, kept in static storage (`SelectorReference`).
enum SearchSelectors {
  static let isActive = SelectorReference("isActive")
  static let setActive = SelectorReference("setActive:")
  static let willShow = SelectorReference("_navigationControllerWillShowViewController:")
  static let become = SelectorReference("becomeFirstResponder")
  static let resign = SelectorReference("resignFirstResponder")
}
