// Activating the search: a tap in the search field or `isActive`, the delegate's callbacks in
// Apple's documented order, the navigation bar hidden for a search bar outside it, and the bar's
// visibility set on every push and pop while the search is active (QMUI_iOS issue 479).
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

/// A Swift delegate that records what it hears, with the virtual time.
private final class RecordingSearchDelegate: UISearchControllerDelegate {
  var heard: [String] = []
  private func note(_ what: String) {
    heard.append("\(what) \(VirtualRunLoop.main.currentTime)")
  }
  func willPresentSearchController(_ searchController: UISearchController) { note("willPresent") }
  func didPresentSearchController(_ searchController: UISearchController) { note("didPresent") }
  func willDismissSearchController(_ searchController: UISearchController) { note("willDismiss") }
  @MainActor func didDismissSearchController(_ searchController: UISearchController) {
    note("didDismiss")
  }
}

/// A delegate whose class has `presentSearchController:` in its table, as an Objective-C
/// delegate that presents the search itself.
private final class PresentingSearchDelegate: ObjCObject, UISearchControllerDelegate {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(PresentingSearchDelegate.self) {
      ObjCMethodDeclaration("presentSearchController:", PresentingSearchDelegate.present)
    }
  }
  var presented = 0
  var willPresent = 0
  nonisolated static let present: @convention(c) (id, SEL, id?) -> Void = { me, _, _ in
    MainThread.assumeIsolated(with: me) { me in
      me.receiver(as: PresentingSearchDelegate.self).presented += 1
    }
  }
  func willPresentSearchController(_ searchController: UISearchController) { willPresent += 1 }
}

/// A delegate that changes its mind: it ends the search as it is about to be presented, or
/// activates it again as it is about to be dismissed.
private final class FickleSearchDelegate: UISearchControllerDelegate {
  func willPresentSearchController(_ searchController: UISearchController) {
    searchController.isActive = false
  }
  func willDismissSearchController(_ searchController: UISearchController) {
    searchController.isActive = true
  }
}

/// A page that hides the navigation bar in its `viewWillAppear:`, as QMUI's
/// `preferredNavigationBarHidden` and FD's per-page preference do.
private final class BarlessPage: UIViewController {
  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    navigationController?.setNavigationBarHidden(true, animated: animated)
  }
}

/// A page with a search controller: in its navigation item, or (`inHeader`) its search bar at
/// the top of the page's view, as a table header's.
private final class SearchingPage: UIViewController {
  let search = UISearchController(searchResultsController: nil)
  let inHeader: Bool

  init(inHeader: Bool) {
    self.inHeader = inHeader
    super.init()
    title = "Inbox"
    if !inHeader { navigationItem.searchController = search }
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    guard inHeader else { return }
    search.searchBar.frame = CGRect(x: 0, y: 64, width: view.bounds.width, height: 56)
    view.addSubview(search.searchBar)
  }
}

@MainActor private func searchingScene(inHeader: Bool = false, version: String = "13.0")
  -> (NavigationSession, SearchingPage)
{
  UIApplication.resetModel(device: .iPhone8, systemVersion: version)
  let page = SearchingPage(inHeader: inHeader)
  return (NavigationSession(root: page, device: .iPhone8, systemVersion: version), page)
}

extension UIKitModelTests {
  @MainActor
  @Suite("Activating the search")
  struct SearchActivationTests {
    @Test("a tap in the field activates: willPresent now, didPresent once the presentation ran")
    func tapActivates() {
      let (session, page) = searchingScene()
      let delegate = RecordingSearchDelegate()
      page.search.delegate = delegate
      #expect(!page.search.isActive && !page.search.searchBar.isFirstResponder)
      let start = VirtualRunLoop.main.currentTime
      #expect(page.search.searchBar.becomeFirstResponder())
      #expect(page.search.isActive && page.search.searchBar.isFirstResponder)
      #expect(delegate.heard == ["willPresent \(start)"])
      session.waitUntilIdle()
      #expect(delegate.heard == ["willPresent \(start)", "didPresent \(start + 0.35)"])
      // A search bar in the navigation bar leaves the bar shown.
      #expect(!session.navigationController.isNavigationBarHidden)
    }

    @Test("isActive = false dismisses: willDismiss, didDismiss, and the field loses the keyboard")
    func dismiss() {
      let (session, page) = searchingScene()
      let delegate = RecordingSearchDelegate()
      page.search.delegate = delegate
      page.search.isActive = true
      session.waitUntilIdle()
      delegate.heard.removeAll()
      let start = VirtualRunLoop.main.currentTime
      page.search.isActive = false
      #expect(!page.search.isActive && !page.search.searchBar.isFirstResponder)
      session.waitUntilIdle()
      #expect(delegate.heard == ["willDismiss \(start)", "didDismiss \(start + 0.35)"])
    }

    @Test("resigning the keyboard leaves the search active; activating twice changes nothing")
    func resignAndTwice() {
      let (session, page) = searchingScene()
      let delegate = RecordingSearchDelegate()
      page.search.delegate = delegate
      page.search.isActive = true
      session.waitUntilIdle()
      #expect(page.search.searchBar.resignFirstResponder())
      #expect(page.search.isActive && !page.search.searchBar.isFirstResponder)
      page.search.isActive = true
      #expect(delegate.heard.count == 2 && UIKitModelIssues.all.isEmpty)
    }

    @Test("a delegate whose table has presentSearchController: presents; no will or did")
    func presentingDelegate() {
      let (session, page) = searchingScene()
      let delegate = PresentingSearchDelegate()
      page.search.delegate = delegate
      page.search.isActive = true
      session.waitUntilIdle()
      #expect(delegate.presented == 1 && delegate.willPresent == 0 && page.search.isActive)
    }

    @Test("a search bar outside the bar hides it while searching, and shows it on dismissal")
    func headerHidesBar() {
      let (session, page) = searchingScene(inHeader: true)
      let navigation = session.navigationController
      page.search.searchBar.becomeFirstResponder()
      #expect(navigation.isNavigationBarHidden)
      session.waitUntilIdle()
      page.search.isActive = false
      #expect(!navigation.isNavigationBarHidden)
      page.search.hidesNavigationBarDuringPresentation = false
      session.waitUntilIdle()
      page.search.isActive = true
      #expect(!navigation.isNavigationBarHidden)
    }

    @Test("QMUI issue 479: pushed while searching, a page hiding the bar sees it shown again")
    func pushWhileSearching() {
      let (session, page) = searchingScene(inHeader: true)
      let navigation = session.navigationController
      page.search.isActive = true
      session.waitUntilIdle()
      session.push(BarlessPage())
      #expect(!navigation.isNavigationBarHidden)
      // Back on the searching page, the search hides the bar again.
      session.pop()
      #expect(navigation.isNavigationBarHidden && page.search.isActive)
    }

    @Test("NavigationBackport issue 35: the same with the search bar in the navigation item")
    func pushWhileSearchingInItem() {
      let (session, page) = searchingScene()
      page.search.isActive = true
      session.waitUntilIdle()
      session.push(BarlessPage())
      #expect(!session.navigationController.isNavigationBarHidden)
      // Once dismissed, the search no longer touches the bar.
      session.pop()
      page.search.isActive = false
      session.waitUntilIdle()
      session.push(BarlessPage())
      #expect(session.navigationController.isNavigationBarHidden)
    }

    @Test("the override is a hookable method: a hook that skips it lets the page keep its bar")
    func overrideIsHookable() throws {
      let (session, page) = searchingScene()
      let hook = try UISearchController.hook(
        instead: "_navigationControllerWillShowViewController:"
      ) { (_: HookOriginal<Void, ObjCObject?>, _: UISearchController, _: ObjCObject?) in }
      defer { hook.remove() }
      page.search.isActive = true
      session.waitUntilIdle()
      session.push(BarlessPage())
      #expect(session.navigationController.isNavigationBarHidden)
    }

    @Test("activating or dismissing while the presentation runs is refused, nothing changed")
    func refusedWhilePresenting() {
      let (session, page) = searchingScene()
      page.search.isActive = true
      page.search.isActive = false
      #expect(page.search.isActive)
      #expect(
        UIKitModelIssues.all.map(\.description) == [
          "\(page.search) refused to dismiss the search while its presentation or dismissal is"
            + " in progress; nothing changed"
        ])
      session.waitUntilIdle()
      page.search.isActive = false
      #expect(!page.search.isActive)
    }

    @Test("activating while the stack pushes is refused, nothing changed")
    func refusedDuringPush() {
      let (session, page) = searchingScene(inHeader: true)
      session.navigationController.pushViewController(UIViewController(), animated: true)
      #expect(!page.search.searchBar.becomeFirstResponder())
      #expect(!page.search.isActive && !page.search.searchBar.isFirstResponder)
      #expect(UIKitModelIssues.all.count == 1)
      #expect(!session.navigationController.isNavigationBarHidden)
      session.waitUntilIdle()
    }

    @Test("the search is presented in context: by the window's root, or the page defining it")
    func presentedInContext() {
      let (session, page) = searchingScene()
      page.search.isActive = true
      #expect(page.search.presentingViewController === session.navigationController)
      #expect(session.navigationController.presentedViewController === page.search)
      #expect(page.search.isBeingPresented)
      session.waitUntilIdle()
      #expect(!page.search.isBeingPresented)
      page.search.isActive = false
      #expect(page.search.isBeingDismissed)
      session.waitUntilIdle()
      #expect(page.search.presentingViewController == nil)
      #expect(session.navigationController.presentedViewController == nil)
      page.definesPresentationContext = true
      page.search.isActive = true
      #expect(page.search.presentingViewController === page)
      #expect(page.presentedViewController === page.search)
    }

    @Test("while active, a presentation from its presenter is refused: it already presents")
    func presentWhileSearching() {
      let (session, page) = searchingScene()
      page.definesPresentationContext = true
      page.search.isActive = true
      session.waitUntilIdle()
      let sheet = UIViewController()
      page.present(sheet, animated: true)
      #expect(sheet.presentingViewController == nil)
      #expect(
        UIKitModelIssues.all.last?.description.contains(
          "which is already presenting \(page.search)") == true)
    }

    @Test("dismiss(animated:) from the presenter ends the search, then runs its completion")
    func dismissEndsSearch() {
      let (session, page) = searchingScene()
      page.search.isActive = true
      session.waitUntilIdle()
      var completed = false
      page.dismiss(animated: true) { completed = true }
      #expect(!page.search.isActive && !completed)
      session.waitUntilIdle()
      #expect(completed && page.search.presentingViewController == nil)
    }

    @Test("activating while the context presents another controller is refused")
    func refusedWhileContextPresents() {
      let (session, page) = searchingScene()
      let sheet = UIViewController()
      session.navigationController.present(sheet, animated: false)
      page.search.isActive = true
      #expect(!page.search.isActive && sheet.presentingViewController != nil)
      #expect(UIKitModelIssues.all.last?.description.contains("already presents") == true)
    }

    @Test("a delegate that changes isActive from its callbacks is refused; nothing half-changed")
    func reentrantDelegate() {
      let (session, page) = searchingScene(inHeader: true)
      let delegate = FickleSearchDelegate()
      page.search.delegate = delegate
      page.search.isActive = true
      #expect(page.search.isActive && session.navigationController.isNavigationBarHidden)
      #expect(page.search.presentingViewController === session.navigationController)
      session.waitUntilIdle()
      page.search.isActive = false
      #expect(!page.search.isActive && !session.navigationController.isNavigationBarHidden)
      session.waitUntilIdle()
      #expect(page.search.presentingViewController == nil)
      #expect(UIKitModelIssues.all.count == 2)
    }

    @Test("a dismissal sent while the presentation runs is refused, its completion not run")
    func dismissWhilePresenting() {
      let (session, page) = searchingScene()
      page.search.isActive = true
      var completed = false
      session.navigationController.dismiss(animated: true) { completed = true }
      session.waitUntilIdle()
      #expect(page.search.isActive && !completed)
      #expect(UIKitModelIssues.all.count == 1)
    }

    @Test("a search in a presented navigation controller is presented by that controller")
    func inPresentedNavigation() {
      let (session, _) = searchingScene()
      let page = SearchingPage(inHeader: false)
      let sheet = UINavigationController(rootViewController: page)
      session.navigationController.present(sheet, animated: false)
      session.waitUntilIdle()
      page.search.isActive = true
      #expect(page.search.isActive && page.search.presentingViewController === sheet)
      #expect(UIKitModelIssues.all.isEmpty)
    }

    @Test("a swipe back to the searching page hides the bar as it begins; a cancel says nothing")
    func swipeBackWhileSearching() {
      let (session, page) = searchingScene(inHeader: true)
      page.search.isActive = true
      session.waitUntilIdle()
      session.push(UIViewController())
      #expect(!session.navigationController.isNavigationBarHidden)
      // OpenRadar 21137690: will-show comes once as the swipe begins, and nothing follows a
      // cancel, so the pushed page keeps the bar the search set for the searching page.
      session.swipeBack(to: 0.3)
      #expect(session.navigationController.isNavigationBarHidden)
      #expect(session.navigationController.topViewController !== page)
      session.swipeBack(to: 0.7)
      #expect(session.navigationController.isNavigationBarHidden)
      #expect(session.navigationController.topViewController === page)
    }

    @Test("the will-show sent with nil or another object changes nothing")
    func willShowWithBadArgument() throws {
      let (session, page) = searchingScene(inHeader: true)
      page.search.isActive = true
      session.waitUntilIdle()
      let selector: Selector = "_navigationControllerWillShowViewController:"
      try objc_msgSend(page.search, selector, nil as ObjCObject?) as Void
      try objc_msgSend(page.search, selector, UIView() as ObjCObject?) as Void
      #expect(session.navigationController.isNavigationBarHidden && page.search.isActive)
    }

    @Test("setActive: is in the table: a swizzle of it runs for isActive = true")
    func setActiveInTable() throws {
      let (_, page) = searchingScene()
      let asked = Mutex<[Bool]>([])
      let hook = try UISearchController.hook(before: "setActive:") { (_, active: Bool) in
        asked.withLock { $0.append(active) }
      }
      defer { hook.remove() }
      page.search.isActive = true
      #expect(asked.withLock { $0 } == [true])
    }
  }
}
