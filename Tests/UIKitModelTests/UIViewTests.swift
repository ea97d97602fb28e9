// UIView: the tree and its edits, refusals, geometry, appearance, and dispatch through the
// runtime's table.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// A view subclass that overrides a table method in Swift, calling super.
final class RecordingView: UIView {
  var inserted: [Int] = []

  override func insertSubview(_ view: UIView, at index: Int) {
    inserted.append(index)
    super.insertSubview(view, at: index)
  }
}

/// A view that counts its layouts.
private final class Counting: UIView {
  var layouts = 0
  override func layoutSubviews() {
    layouts += 1
    super.layoutSubviews()
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("UIView")
  struct UIViewTests {
    @Test("subviews are kept back to front through every kind of insertion")
    func tree() {
      freshModel()
      let root = UIView()
      let (a, b, c, d) = (UIView(), UIView(), UIView(), UIView())
      root.addSubview(a)
      root.addSubview(b)
      root.insertSubview(c, at: 0)
      root.insertSubview(d, belowSubview: b)
      #expect(root.subviews == [c, a, d, b])
      root.bringSubviewToFront(c)
      root.sendSubviewToBack(b)
      #expect(root.subviews == [b, a, d, c])
      root.exchangeSubview(at: 0, withSubviewAt: 3)
      #expect(root.subviews == [c, a, d, b])
      root.insertSubview(a, aboveSubview: b)
      #expect(root.subviews == [c, d, b, a], "re-inserting moves the view")
      d.removeFromSuperview()
      #expect(root.subviews == [c, b, a] && d.superview == nil && a.superview === root)
      let other = UIView()
      other.addSubview(a)
      #expect(root.subviews == [c, b] && other.subviews == [a], "adding takes it from its parent")
    }

    @Test("cycles and bad indexes are refused, the tree unchanged")
    func refusals() {
      freshModel()
      let root = UIView()
      let child = UIView()
      root.addSubview(child)
      child.addSubview(root)
      root.insertSubview(root, at: 0)
      root.insertSubview(UIView(), at: 5)
      root.exchangeSubview(at: 0, withSubviewAt: 3)
      #expect(root.subviews == [child] && root.superview == nil && child.subviews.isEmpty)
      #expect(
        UIKitModelIssues.all.map { "\($0)" }.filter { $0.contains("ancestor") }.count == 2)
      #expect(
        UIKitModelIssues.all.contains(.indexOutOfRange(view: root.description, index: 5, count: 1)))
      root.frame = CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)
      #expect(root.frame == .zero)
      #expect(UIKitModelIssues.all.count == 5)
    }

    @Test("a move within the superview counts the others without it; a refused one changes nothing")
    func moveWithinSuperview() {
      freshModel()
      let root = UIView()
      let (a, b, c) = (UIView(), UIView(), UIView())
      for view in [a, b, c] { root.addSubview(view) }
      root.insertSubview(a, aboveSubview: c)
      #expect(root.subviews == [b, c, a])
      root.insertSubview(a, at: 0)
      #expect(root.subviews == [a, b, c])
      // Index 3 counts a as well: the others are two, so it is refused and a stays first.
      root.insertSubview(a, at: 3)
      root.insertSubview(a, belowSubview: a)
      root.insertSubview(a, belowSubview: UIView())
      #expect(root.subviews == [a, b, c] && a.superview === root)
      #expect(
        UIKitModelIssues.all == [.indexOutOfRange(view: root.description, index: 3, count: 2)])
    }

    @Test("alpha is clamped; effective alpha is the product up the tree, zero when hidden")
    func alpha() {
      freshModel()
      let root = UIView()
      let middle = UIView()
      let leaf = UIView()
      root.addSubview(middle)
      middle.addSubview(leaf)
      root.alpha = 2
      middle.alpha = 0.5
      leaf.alpha = -1
      #expect(root.alpha == 1 && leaf.alpha == 0)
      leaf.alpha = 0.5
      #expect(leaf.effectiveAlpha == 0.25)
      middle.isHidden = true
      #expect(leaf.effectiveAlpha == 0)
    }

    @Test("tint colour is inherited down the tree until a view sets its own")
    func tint() {
      freshModel()
      let root = UIView()
      let child = UIView()
      root.addSubview(child)
      #expect(child.tintColor == UIColor.systemBlue)
      root.tintColor = .red
      #expect(child.tintColor == UIColor.red)
      child.tintColor = .green
      root.tintColor = .blue
      #expect(child.tintColor == UIColor.green)
      child.tintColor = nil
      #expect(child.tintColor == UIColor.blue)
    }

    @Test("autoresizing follows the superview's new size; conversion goes through the tree")
    func geometry() {
      freshModel()
      let bar = UIView(frame: CGRect(x: 0, y: 20, width: 375, height: 44))
      let background = UIView(frame: CGRect(x: 0, y: -20, width: 375, height: 64))
      background.autoresizingMask = .flexibleWidth
      let pinned = UIView(frame: CGRect(x: 335, y: 0, width: 40, height: 44))
      pinned.autoresizingMask = .flexibleLeftMargin
      bar.addSubview(background)
      bar.addSubview(pinned)
      bar.frame = CGRect(x: 0, y: 20, width: 414, height: 44)
      #expect(background.frame == CGRect(x: 0, y: -20, width: 414, height: 64))
      #expect(pinned.frame == CGRect(x: 374, y: 0, width: 40, height: 44))
      // Outside a window, nil converts to the root view's coordinates.
      #expect(
        background.convert(background.bounds, to: nil)
          == CGRect(x: 0, y: -20, width: 414, height: 64))
      #expect(
        pinned.convert(CGRect(x: 0, y: 0, width: 1, height: 1), to: background).origin
          == CGPoint(x: 374, y: 20))
      bar.center = CGPoint(x: 207, y: 42)
      #expect(bar.frame.origin == CGPoint(x: 0, y: 20))
    }

    /// UIKit documents `frame` as undefined under a non-identity transform; what it returns is
    /// the layer's frame, the bounding box of the bounds transformed about the anchor point (the
    /// middle). LTNavigationBar's `lt_setTranslationY` moves the bar by a translation, and code
    /// that reads the bar's frame afterwards sees it moved (issue #29).
    @Test("frame under a transform is the bounding box of the transformed bounds")
    func frameUnderTransform() {
      let bar = UIView(frame: CGRect(x: 0, y: 20, width: 375, height: 44))
      bar.transform = CGAffineTransform(translationX: 0, y: -22)
      #expect(bar.frame == CGRect(x: 0, y: -2, width: 375, height: 44))
      #expect(bar.center == CGPoint(x: 187.5, y: 42), "the centre is the layer's position")
      #expect(bar.bounds == CGRect(x: 0, y: 0, width: 375, height: 44))

      let scaled = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 10))
      scaled.transform = CGAffineTransform(scaleX: 2, y: 2)
      #expect(scaled.frame == CGRect(x: 0, y: 5, width: 40, height: 20))
      scaled.frame = CGRect(x: 100, y: 100, width: 80, height: 40)
      #expect(scaled.bounds.size == CGSize(width: 40, height: 20))
      #expect(scaled.center == CGPoint(x: 140, y: 120))

      let rotated = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 10))
      rotated.transform = CGAffineTransform(rotationAngle: .pi / 2)
      #expect(abs(rotated.frame.width - 10) < 1e-9 && abs(rotated.frame.height - 20) < 1e-9)
      #expect(abs(rotated.frame.midX - 10) < 1e-9 && abs(rotated.frame.midY - 5) < 1e-9)

      bar.transform = .identity
      #expect(bar.frame == CGRect(x: 0, y: 20, width: 375, height: 44))
      bar.transform = CGAffineTransform(translationX: 0, y: -22)
      bar.frame = CGRect(x: 0, y: 0, width: 375, height: 44)
      #expect(bar.center == CGPoint(x: 187.5, y: 44), "set under a translation: the centre moves")
    }

    @Test("a swizzle of -insertSubview:atIndex: runs for Swift calls and runtime sends alike")
    func swizzleSeenByEveryCaller() throws {
      freshModel()
      let cls = try #require(objc_allocateClassPair(UIView.runtimeClass, "SwizzledInsertView", 0))
      objc_registerClassPair(cls)
      let log = RuntimeLock<[Int]>([])
      let original = class_getMethodImplementation(UIView.runtimeClass, "insertSubview:atIndex:")!
      let replacement = try imp_implementationWithBlock {
        (me: UIView, view: ObjCObject?, index: Int) in
        log.withLock { $0.append(index) }
        typealias Insert = @convention(c) (id, SEL, id?, Int) -> Void
        unsafeBitCast(original.rawValue, to: Insert.self)(
          me.passUnretained(), Selector("insertSubview:atIndex:").sel, view?.passUnretained(), 0)
      }
      class_addMethod(cls, "insertSubview:atIndex:", replacement, "v@:@q")
      let view = RecordingView()
      try view.setClass(cls)
      view.insertSubview(UIView(), at: 0)
      try objc_msgSend(view, "insertSubview:atIndex:", UIView(), 1) as Void
      #expect(log.withLock { $0 } == [0, 1], "the swizzle ran for both calls")
      #expect(view.inserted == [0, 1], "and the Swift override ran first, both times")
      #expect(view.subviews.count == 2)
    }

    @Test("layoutIfNeeded lays out views that need it, through overridable layoutSubviews")
    func layout() {
      freshModel()
      let view = Counting()
      view.layoutIfNeeded()
      view.layoutIfNeeded()
      #expect(view.layouts == 1)
      view.setNeedsLayout()
      view.layoutIfNeeded()
      #expect(view.layouts == 2)
    }

    @Test("setNeedsLayout lays a view in a window out at the end of the frame, once")
    func layoutAtTheEndOfTheFrame() {
      // Apple: setNeedsLayout "makes a note of the request and returns immediately"; "the
      // system updates the layout during the next update cycle".
      freshModel()
      let window = UIWindow(frame: UIScreen.main.bounds)
      window.makeKeyAndVisible()
      let inWindow = Counting()
      let outside = Counting()
      window.addSubview(inWindow)
      VirtualRunLoop.main.advance(frames: 1)
      let before = inWindow.layouts
      inWindow.setNeedsLayout()
      inWindow.setNeedsLayout()
      outside.setNeedsLayout()
      #expect(inWindow.layouts == before, "not at once")
      VirtualRunLoop.main.advance(frames: 1)
      #expect(inWindow.layouts == before + 1, "once, at the frame's end")
      #expect(outside.layouts == 0, "a view in no window waits for layoutIfNeeded")
      outside.layoutIfNeeded()
      #expect(outside.layouts == 1)
    }
  }
}
