// UIView's runtime table: the base IMP of each method the seeds swizzle and the Swift entry
// point a send reaches, the tree edits they share, and the selectors, registered once.
import Foundation
import ObjCRuntime

// MARK: - The base IMPs and Swift entry points

extension UIView {
  /// The base behaviour of each runtime method, as the table holds it.
  enum Base {
    static let addSubview: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      MainThread.enterIMP(with: me, view) { me, view in
        guard let child = UIView.optionalView(view) else { return }
        UIView.view(me).place(child) { others in others.count }
      }
    }
    static let insertAt: @convention(c) (id, SEL, id?, Int) -> Void = { me, _, view, index in
      MainThread.enterIMP(with: me, view, index) { me, view, index in
        guard let child = UIView.optionalView(view) else { return }
        UIView.view(me).place(child) { _ in index }
      }
    }
    static let insertBelow: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, view, sibling in
      MainThread.enterIMP(with: me, view, sibling) { me, view, sibling in
        guard let child = UIView.optionalView(view), let sibling = UIView.optionalView(sibling),
          sibling !== child
        else { return }
        UIView.view(me).place(child) { others in others.firstIndex(ofIdentical: sibling) }
      }
    }
    static let insertAbove: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, view, sibling in
      MainThread.enterIMP(with: me, view, sibling) { me, view, sibling in
        guard let child = UIView.optionalView(view), let sibling = UIView.optionalView(sibling),
          sibling !== child
        else { return }
        UIView.view(me).place(child) { others in
          others.firstIndex(ofIdentical: sibling).map { $0 + 1 }
        }
      }
    }
    static let removeFromSuperview: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        let view = UIView.view(me)
        let wasInWindow = view.window != nil
        view.detachFromSuperview()
        if wasInWindow { view.windowChanged() }
      }
    }
    static let bringToFront: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      MainThread.enterIMP(with: me, view) { me, view in
        let parent = UIView.view(me)
        guard let child = UIView.optionalView(view),
          let index = parent.subviews.firstIndex(ofIdentical: child)
        else { return }
        parent.subviews.append(parent.subviews.remove(at: index))
      }
    }
    static let sendToBack: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      MainThread.enterIMP(with: me, view) { me, view in
        let parent = UIView.view(me)
        guard let child = UIView.optionalView(view),
          let index = parent.subviews.firstIndex(ofIdentical: child)
        else { return }
        parent.subviews.insert(parent.subviews.remove(at: index), at: 0)
      }
    }
    static let exchange: @convention(c) (id, SEL, Int, Int) -> Void = { me, _, first, second in
      MainThread.enterIMP(with: me, first, second) { me, first, second in
        let parent = UIView.view(me)
        let count = parent.subviews.count
        for index in [first, second] where !(0..<count).contains(index) {
          UIKitModelIssues.report(
            .indexOutOfRange(view: parent.description, index: index, count: count))
          return
        }
        parent.subviews.swapAt(first, second)
      }
    }
    static let setHidden: @convention(c) (id, SEL, Bool) -> Void = { me, _, hidden in
      MainThread.enterIMP(with: me, hidden) { me, hidden in
        UIView.view(me).hiddenFlag = hidden
      }
    }
    // CGFloat is a Swift struct, which C cannot pass: IMPs take the Double it wraps.
    static let setAlpha: @convention(c) (id, SEL, Double) -> Void = { me, _, value in
      MainThread.enterIMP(with: me, value) { me, value in
        me.withReceiver(as: UIView.self) { view in
          let alpha = CGFloat(value)
          if alpha.isNaN {
            UIKitModelIssues.report(.invalidGeometry(view: view.description, value: "alpha nan"))
          }
          let clamped = alpha.isNaN ? view.modelAlpha : max(0, min(1, alpha))
          view.animate("alpha", from: { .scalar($0.presentationAlpha) }, to: .scalar(clamped))
          view.modelAlpha = clamped
        }
      }
    }
    static let setBackgroundColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      MainThread.enterIMP(with: me, color) { me, color in
        let view = UIView.view(me)
        let newColor = color.unretainedObject as? UIColor
        view.animate(
          "backgroundColor", from: { .color(UIColorComponents($0.presentationBackgroundColor)) },
          to: .color(UIColorComponents(newColor)))
        view.modelBackgroundColor = newColor
      }
    }
    static let setTintColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      MainThread.enterIMP(with: me, color) { me, color in
        let view = UIView.view(me)
        let newColor = color.unretainedObject as? UIColor
        view.animate(
          "tintColor", from: { .color(UIColorComponents($0.presentationTintColor)) },
          to: .color(UIColorComponents(newColor ?? view.superview?.tintColor ?? .systemBlue)))
        view.ownTintColor = newColor
      }
    }
    static let layoutSubviews: @convention(c) (id, SEL) -> Void = { _, _ in }
    static let setNeedsLayout: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        let view = UIView.view(me)
        view.needsLayout = true
        // Laid out at the end of the frame, as UIKit does in its next update cycle.
        VirtualRunLoop.main.scheduleLayout(of: view)
      }
    }
    static let layoutIfNeeded: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        let view = UIView.view(me)
        if view.needsLayout {
          view.needsLayout = false
          view.layoutSubviews()
        }
        for subview in view.subviews { subview.layoutIfNeeded() }
      }
    }
  }

  /// The Swift entry points: a send of the selector calls the Swift method, virtually.
  enum Entry {
    static let addSubview: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      MainThread.enterIMP(with: me, view) { me, view in
        if let child = UIView.optionalView(view) { UIView.view(me).addSubview(child) }
      }
    }
    static let insertAt: @convention(c) (id, SEL, id?, Int) -> Void = { me, _, view, index in
      MainThread.enterIMP(with: me, view, index) { me, view, index in
        if let child = UIView.optionalView(view) { UIView.view(me).insertSubview(child, at: index) }
      }
    }
    static let insertBelow: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, view, sibling in
      MainThread.enterIMP(with: me, view, sibling) { me, view, sibling in
        if let child = UIView.optionalView(view), let sibling = UIView.optionalView(sibling) {
          UIView.view(me).insertSubview(child, belowSubview: sibling)
        }
      }
    }
    static let insertAbove: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, view, sibling in
      MainThread.enterIMP(with: me, view, sibling) { me, view, sibling in
        if let child = UIView.optionalView(view), let sibling = UIView.optionalView(sibling) {
          UIView.view(me).insertSubview(child, aboveSubview: sibling)
        }
      }
    }
    static let removeFromSuperview: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIView.view(me).removeFromSuperview()
      }
    }
    static let bringToFront: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      MainThread.enterIMP(with: me, view) { me, view in
        if let child = UIView.optionalView(view) { UIView.view(me).bringSubviewToFront(child) }
      }
    }
    static let sendToBack: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      MainThread.enterIMP(with: me, view) { me, view in
        if let child = UIView.optionalView(view) { UIView.view(me).sendSubviewToBack(child) }
      }
    }
    static let exchange: @convention(c) (id, SEL, Int, Int) -> Void = { me, _, first, second in
      MainThread.enterIMP(with: me, first, second) { me, first, second in
        UIView.view(me).exchangeSubview(at: first, withSubviewAt: second)
      }
    }
    static let setHidden: @convention(c) (id, SEL, Bool) -> Void = { me, _, hidden in
      MainThread.enterIMP(with: me, hidden) { me, hidden in
        UIView.view(me).isHidden = hidden
      }
    }
    static let setAlpha: @convention(c) (id, SEL, Double) -> Void = { me, _, alpha in
      MainThread.enterIMP(with: me, alpha) { me, alpha in
        UIView.view(me).alpha = CGFloat(alpha)
      }
    }
    static let setBackgroundColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      MainThread.enterIMP(with: me, color) { me, color in
        UIView.view(me).backgroundColor = color.unretainedObject as? UIColor
      }
    }
    static let setTintColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      MainThread.enterIMP(with: me, color) { me, color in
        UIView.view(me).tintColor = color.unretainedObject as? UIColor
      }
    }
    static let layoutSubviews: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIView.view(me).layoutSubviews()
      }
    }
    static let setNeedsLayout: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIView.view(me).setNeedsLayout()
      }
    }
    static let layoutIfNeeded: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UIView.view(me).layoutIfNeeded()
      }
    }
  }
}

// MARK: - Tree edits

extension UIView {
  /// Puts `child` among the subviews at the index `position` gives for the subviews without
  /// `child` (nil: a sibling that is not a subview, and nothing happens), refusing cycles and
  /// bad indexes.
  func place(_ child: UIView, at position: ([UIView]) -> Int?) {
    guard !isDescendant(of: child) else {
      UIKitModelIssues.report(.viewCycle(view: child.description, into: description))
      return
    }
    // The index counts the subviews as they are once the child left its current place, as in
    // UIKit, which takes the view out first (even from this view). A child of another view
    // leaves this view's subviews as they are. A child of this view is taken out of them now,
    // which nobody is told of (a move within one view sends no notification), and put back
    // where it was if the index is refused: no filtered copy is made.
    let moved = child.superview !== self
    let oldIndex = moved ? nil : subviews.firstIndex(ofIdentical: child)
    if let oldIndex { subviews.remove(at: oldIndex) }
    let count = subviews.count
    let index = position(subviews)
    guard let index, (0...count).contains(index) else {
      if let oldIndex { subviews.insert(child, at: oldIndex) }
      if let index {
        UIKitModelIssues.report(.indexOutOfRange(view: description, index: index, count: count))
      }
      return
    }
    guard moved else {
      subviews.insert(child, at: index)
      setNeedsLayout()
      return
    }
    let oldWindow = child.window
    child.detachFromSuperview()
    // An override of `willRemoveSubview:` or `didMoveToSuperview` may have changed the subviews.
    subviews.insert(child, at: min(index, subviews.count))
    child.superview = self
    didAddSubview(child)
    child.didMoveToSuperview()
    if window !== oldWindow { child.windowChanged() }
    setNeedsLayout()
  }

  /// Tells the view and its subtree that they moved to another window (or out of one).
  func windowChanged() {
    didMoveToWindow()
    for subview in subviews { subview.windowChanged() }
  }

  func detachFromSuperview() {
    guard let parent = superview else { return }
    parent.willRemoveSubview(self)
    if let index = parent.subviews.firstIndex(ofIdentical: self) {
      parent.subviews.remove(at: index)
    }
    superview = nil
    didMoveToSuperview()
  }
}

/// The selectors of UIView's table methods, registered once and kept in static storage: a literal
/// is looked up on every use, and a `static let` of type `Selector` costs a `swift_once` per read.
enum ViewSelectors {
  static let addSubview = SelectorReference("addSubview:")
  static let bringSubviewToFront = SelectorReference("bringSubviewToFront:")
  static let exchangeSubviewAtIndexWithSubviewAtIndex = SelectorReference(
    "exchangeSubviewAtIndex:withSubviewAtIndex:")
  static let insertSubviewAboveSubview = SelectorReference("insertSubview:aboveSubview:")
  static let insertSubviewAtIndex = SelectorReference("insertSubview:atIndex:")
  static let insertSubviewBelowSubview = SelectorReference("insertSubview:belowSubview:")
  static let layoutIfNeeded = SelectorReference("layoutIfNeeded")
  static let layoutSubviews = SelectorReference("layoutSubviews")
  static let removeFromSuperview = SelectorReference("removeFromSuperview")
  static let sendSubviewToBack = SelectorReference("sendSubviewToBack:")
  static let setAlpha = SelectorReference("setAlpha:")
  static let setBackgroundColor = SelectorReference("setBackgroundColor:")
  static let setHidden = SelectorReference("setHidden:")
  static let setNeedsLayout = SelectorReference("setNeedsLayout")
  static let setTintColor = SelectorReference("setTintColor:")
}
