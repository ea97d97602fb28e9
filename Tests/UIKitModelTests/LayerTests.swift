// CALayer: the shadow properties, opacity tied to alpha, and CABasicAnimation on the virtual
// clock with its delegate told through the runtime.
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

/// An animation delegate whose `animationDidStop:finished:` is in its class's table.
final class TableAnimationDelegate: ObjCObject, CAAnimationDelegate {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(TableAnimationDelegate.self) {
      ObjCMethodDeclaration("animationDidStop:finished:", TableAnimationDelegate.didStop)
    }
  }
  var stops: [Bool] = []
  nonisolated static let didStop: @convention(c) (id, SEL, id?, Bool) -> Void = {
    me, _, _, finished in
    MainThread.assumeIsolated(with: me, finished) { me, finished in
      me.receiver(as: TableAnimationDelegate.self).stops.append(finished)
    }
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("CALayer")
  struct LayerTests {
    @Test("a view's layer: Core Animation's shadow defaults; opacity is the view's alpha")
    func properties() {
      let view = UIView(frame: .zero)
      let layer = view.layer
      #expect(view.layer === layer)
      #expect(layer.shadowOpacity == 0 && layer.shadowRadius == 3)
      #expect(layer.shadowOffset == CGSize(width: 0, height: -3))
      layer.opacity = 0.5
      #expect(view.alpha == 0.5)
      view.alpha = 0.25
      #expect(layer.opacity == 0.25)
    }

    @Test("a basic animation draws from → to on the clock, then the model value; delegate told")
    func shadowFade() throws {
      freshModel()
      let view = UIView(frame: .zero)
      view.layer.shadowOpacity = 0.5
      let delegate = TableAnimationDelegate()
      let fade = CABasicAnimation(keyPath: "shadowOpacity")
      fade.fromValue = 0.5
      fade.toValue = 0
      fade.duration = 0.25
      fade.delegate = delegate
      view.layer.add(fade, forKey: "fade")
      VirtualRunLoop.main.advance(by: 0.125)
      let halfway = try #require(view.layer.presentation()).shadowOpacity
      #expect(abs(halfway - 0.25) < 0.01)
      #expect(view.layer.shadowOpacity == 0.5, "the model value is untouched")
      VirtualRunLoop.main.runUntilIdle()
      #expect(delegate.stops == [true])
      #expect(view.layer.animationKeys() == nil)
      #expect(view.layer.presentation()?.shadowOpacity == 0.5, "removed: the model value shows")
    }

    @Test("animationDidStop:finished: goes through the runtime: a hook on the delegate sees it")
    func delegateHookable() throws {
      freshModel()
      let seen = Atomic(0)
      let token = try TableAnimationDelegate.hook(before: "animationDidStop:finished:") {
        (_, _: CABasicAnimation?, finished: Bool) in
        if finished { seen.add(1, ordering: .relaxed) }
      }
      defer { token.remove() }
      let view = UIView(frame: .zero)
      let fade = CABasicAnimation(keyPath: "shadowRadius")
      fade.toValue = 8
      fade.delegate = TableAnimationDelegate()
      view.layer.add(fade, forKey: nil)
      VirtualRunLoop.main.runUntilIdle()
      #expect(seen.load(ordering: .relaxed) == 1)
    }

    @Test("removed early: not finished; kept on completion: its end value stays drawn")
    func removalAndFill() {
      freshModel()
      let view = UIView(frame: .zero)
      let delegate = TableAnimationDelegate()
      let grow = CABasicAnimation(keyPath: "cornerRadius")
      grow.toValue = 10
      grow.delegate = delegate
      view.layer.add(grow, forKey: "grow")
      VirtualRunLoop.main.advance(by: 0.1)
      view.layer.removeAnimation(forKey: "grow")
      #expect(delegate.stops == [false])
      let kept = CABasicAnimation(keyPath: "cornerRadius")
      kept.toValue = 10
      kept.isRemovedOnCompletion = false
      view.layer.add(kept, forKey: "kept")
      VirtualRunLoop.main.runUntilIdle()
      #expect(view.layer.presentation()?.cornerRadius == 10)
      #expect(view.layer.cornerRadius == 0)
    }

    @Test("an opacity animation is what the user sees of the view's alpha")
    func opacityDrawn() {
      freshModel()
      let view = UIView(frame: .zero)
      let fade = CABasicAnimation(keyPath: "opacity")
      fade.fromValue = 1
      fade.toValue = 0
      fade.duration = 1
      view.layer.add(fade, forKey: "fade")
      VirtualRunLoop.main.advance(by: 0.5)
      #expect(abs(view.presentationAlpha - 0.5) < 0.02)
      #expect(abs((view.layer.presentation()?.opacity ?? 1) - 0.5) < 0.02)
      #expect(view.alpha == 1 && view.layer.opacity == 1)
    }

    @Test("an animation of a key path the model does not draw is refused with an issue")
    func unsupported() {
      freshModel()
      let view = UIView(frame: .zero)
      view.layer.add(CABasicAnimation(keyPath: "position"), forKey: "move")
      view.layer.add(CABasicAnimation(), forKey: "none")
      let infinite = CABasicAnimation(keyPath: "shadowOpacity")
      infinite.toValue = Double.infinity
      view.layer.add(infinite, forKey: "infinite")
      #expect(view.layer.animationKeys() == nil)
      #expect(UIKitModelIssues.all.filter { "\($0)".contains("does not draw") }.count == 2)
      #expect(UIKitModelIssues.all.contains { "\($0)".contains("shadowOpacity from") })
    }
  }
}
