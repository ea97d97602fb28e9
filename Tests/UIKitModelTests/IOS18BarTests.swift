// iOS 18's bar during a push or a pop: the background taken out and inserted again at index 0,
// its own subviews reset, another view at subviews[0] meanwhile. The source is HBDNavigationBar
// issue 188 (the two calls, and what subviews[0] answered between them) and pull request 191
// (the same object comes back with its subviews in their default state; the fix re-applies its
// state when the bar adds the background again).
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

/// A page that makes the bar's background see-through the way HBDNavigationBar did before its
/// iOS 18 fix: in `viewWillAppear:` it takes `navigationBar.subviews[0]` and sets its alpha.
private final class SeeThroughBarPage: UIViewController {
  var firstSubviewClass = ""

  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    guard let first = navigationController?.navigationBar.subviews.first else { return }
    firstSubviewClass = object_getClass(first)?.name ?? "?"
    first.alpha = 0
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("iOS 18 bar background")
  struct IOS18BarTests {
    private func push(on version: String) -> (UINavigationBar, SeeThroughBarPage, UIView) {
      freshModel()
      let session = NavigationSession(
        root: UIViewController(), device: .iPhone8, systemVersion: version)
      let bar = session.navigationController.navigationBar
      let background = bar.backgroundContainer
      let page = SeeThroughBarPage()
      _ = session.push(page)
      return (bar, page, background)
    }

    @Test("iOS 17: subviews[0] in viewWillAppear is the background, and the page hides it")
    func beforeEighteen() {
      let (bar, page, background) = push(on: "17.0")
      #expect(page.firstSubviewClass == "_UIBarBackground")
      #expect(bar.subviews.first === background && background.alpha == 0)
    }

    @Test("iOS 18: subviews[0] is a zero-frame private view meanwhile, and the bar stays opaque")
    func eighteen() throws {
      let (bar, page, background) = push(on: "18.0")
      #expect(page.firstSubviewClass == "_UIPointerInteractionAssistantEffectContainerView")
      #expect(bar.subviews.first === background, "the same object, back at index 0")
      #expect(background.alpha == 1, "the page's alpha went to the other view: HBD issue 188")
      let other = try #require(bar.subviews.dropFirst().first)
      #expect(other.frame == .zero && other.alpha == 0)
    }

    @Test("iOS 18: the background's own subviews come back in their default state")
    func ownSubviewsReset() throws {
      freshModel()
      let session = NavigationSession(
        root: UIViewController(), device: .iPhone8, systemVersion: "18.0")
      let bar = session.navigationController.navigationBar
      let background = try #require(bar.backgroundContainer as? _UIBarBackground)
      background.backgroundEffectView.alpha = 0
      let added = UIView(frame: .zero)
      added.alpha = 0.5
      background.insertSubview(added, at: 0)
      _ = session.push(UIViewController())
      #expect(background.backgroundEffectView.alpha == 1)
      #expect(added.superview === background && added.alpha == 0.5, "a view someone added stays")
      _ = session.pop()
      #expect(bar.subviews.first === background)
    }

    @Test("iOS 18: re-applying the state when the bar inserts the background again holds")
    func fixedByReapplying() throws {
      let reapplied = Mutex(0)
      // HBDNavigationBar pull request 191 re-applies in didAddSubview:; WRNavigationBar issue
      // 153's reporter in insertSubview:atIndex:, which is in the model's table.
      let token = try UINavigationBar.hook(after: "insertSubview:atIndex:") {
        (bar: UINavigationBar, view: UIView, _: Int) in
        MainThread.assumeIsolated {
          guard object_getClass(view)?.name == "_UIBarBackground" else { return }
          view.alpha = 0
          reapplied.withLock { $0 += 1 }
        }
      }
      defer { token.remove() }
      let (bar, _, background) = push(on: "18.0")
      #expect(reapplied.withLock { $0 } == 1)
      #expect(bar.subviews.first === background && background.alpha == 0)
    }
  }
}

extension UIKitModelTests {
  /// iOS 26's documented API only: `hidesSharedBackground` (Apple's UIBarButtonItem reference;
  /// CruGlobal/godtools-swift pull request 2790), `UIDesignRequiresCompatibility` (Apple's
  /// Information Property List reference; EdgeApp pull request 5990), and the new design only
  /// for apps built with the iOS 26 SDK (insidegui/WWDC pull request 761).
  @MainActor
  @Suite("iOS 26 bar button items")
  struct IOS26BarTests {
    private func bar(_ version: String, sdk: String? = nil) -> (UINavigationBar, [UIBarButtonItem])
    {
      freshModel()
      UIDevice.current.linkedSDKVersion = sdk
      let page = UIViewController()
      let plain = UIBarButtonItem(title: "Edit")
      let bare = UIBarButtonItem(title: "Share")
      bare.hidesSharedBackground = true
      page.navigationItem.rightBarButtonItems = [plain, bare]
      let session = NavigationSession(root: page, systemVersion: version)
      return (session.navigationController.navigationBar, [plain, bare])
    }

    @Test("iOS 26: items share the glass background unless they hide it")
    func shared() {
      let (bar, items) = bar("26.0")
      #expect(UIApplication.shared.usesLiquidGlass)
      #expect(
        bar.itemsOnSharedBackground.map(ObjectIdentifier.init) == [ObjectIdentifier(items[0])])
    }

    @Test("no glass before iOS 26, for an app built with an older SDK, or opted out")
    func noGlass() {
      #expect(bar("18.0").0.itemsOnSharedBackground.isEmpty)
      #expect(bar("26.0", sdk: "18.0").0.itemsOnSharedBackground.isEmpty)
      let (optedOut, _) = bar("26.0")
      UIApplication.shared.designRequiresCompatibility = true
      #expect(optedOut.itemsOnSharedBackground.isEmpty)
      UIApplication.resetModel()
      #expect(!UIApplication.shared.designRequiresCompatibility, "a reset clears the key")
    }
  }
}
