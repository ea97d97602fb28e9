// Hit testing and taps: UIKit's rules for which view takes a touch, and a tap on the back button
// that reaches the bar unless a view someone else put in the bar takes it first.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("UIView hit testing")
  struct HitTestingTests {
    @Test("the front-most view containing the point takes it; hidden, faded or inert views do not")
    func rules() {
      let root = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
      let back = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
      let front = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
      root.addSubview(back)
      root.addSubview(front)
      #expect(root.hitTest(CGPoint(x: 15, y: 15), with: nil) === front)
      #expect(root.hitTest(CGPoint(x: 50, y: 50), with: nil) === back)
      #expect(root.hitTest(CGPoint(x: 150, y: 50), with: nil) == nil)
      front.isHidden = true
      #expect(root.hitTest(CGPoint(x: 15, y: 15), with: nil) === back)
      front.isHidden = false
      front.alpha = 0.009
      #expect(root.hitTest(CGPoint(x: 15, y: 15), with: nil) === back)
      front.alpha = 0.01
      #expect(root.hitTest(CGPoint(x: 15, y: 15), with: nil) === front)
      front.isUserInteractionEnabled = false
      #expect(root.hitTest(CGPoint(x: 15, y: 15), with: nil) === back)
      back.isUserInteractionEnabled = false
      #expect(root.hitTest(CGPoint(x: 15, y: 15), with: nil) === root)
    }

    @Test("a translated view is hit where it is drawn; labels and image views take no touches")
    func transformsAndDefaults() {
      let root = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
      let moved = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
      root.addSubview(moved)
      moved.transform = CGAffineTransform(translationX: 50, y: 0)
      #expect(root.hitTest(CGPoint(x: 55, y: 5), with: nil) === moved)
      #expect(root.hitTest(CGPoint(x: 5, y: 5), with: nil) === root)
      #expect(!UILabel(frame: .zero).isUserInteractionEnabled)
      #expect(!UIImageView(frame: .zero).isUserInteractionEnabled)
    }

    @Test("a tap on the back button pops, on iOS 10 and on iOS 13")
    func tapBack() {
      for version in ["10.3", "13.0"] {
        let session = NavigationSession(root: titled("Home"), systemVersion: version)
        session.push(titled("Detail"))
        session.tap(at: CGPoint(x: 30, y: 20 + 22))
        #expect(session.navigationController.viewControllers.count == 1, "iOS \(version)")
      }
    }

    @Test("a view that takes touches put in the bar swallows the back button's taps; inert, not")
    func swallowedTap() {
      let session = NavigationSession(root: titled("Home"), systemVersion: "10.3")
      session.push(titled("Detail"))
      let bar = session.navigationController.navigationBar
      // LTNavigationBar's article: an overlay at index 0 of the bar, taking touches.
      let overlay = UIView(frame: CGRect(x: 0, y: -20, width: 375, height: 64))
      bar.insertSubview(overlay, at: 0)
      session.tap(at: CGPoint(x: 30, y: 42))
      #expect(session.navigationController.viewControllers.count == 2)
      // Its fix (PR 2): the overlay takes no touches, so the bar gets the tap.
      overlay.isUserInteractionEnabled = false
      session.tap(at: CGPoint(x: 30, y: 42))
      #expect(session.navigationController.viewControllers.count == 1)
    }

    @Test("left bar button items replace the back button: a tap there does not pop")
    func leftItemsReplaceBack() {
      for version in ["10.3", "13.0"] {
        let session = NavigationSession(root: titled("Home"), systemVersion: version)
        let detail = titled("Detail")
        detail.navigationItem.leftBarButtonItem = UIBarButtonItem(title: "Close")
        session.push(detail)
        session.tap(at: CGPoint(x: 30, y: 42))
        #expect(session.navigationController.viewControllers.count == 2, "iOS \(version)")
        detail.navigationItem.leftItemsSupplementBackButton = true
        session.navigationController.navigationBar.setItems(
          session.navigationController.navigationBar.items, animated: false)
        session.tap(at: CGPoint(x: 30, y: 42))
        #expect(session.navigationController.viewControllers.count == 1, "iOS \(version)")
      }
    }

    @Test("a tap in the window outside every view takes nothing and changes nothing")
    func tapOutside() {
      let session = NavigationSession(root: titled("Home"))
      session.push(titled("Detail"))
      session.tap(at: CGPoint(x: -10, y: 5000))
      session.tap(at: CGPoint(x: CGFloat.nan, y: 1))
      #expect(session.navigationController.viewControllers.count == 2)
    }

    private func titled(_ title: String) -> UIViewController {
      let controller = UIViewController()
      controller.title = title
      return controller
    }
  }
}
