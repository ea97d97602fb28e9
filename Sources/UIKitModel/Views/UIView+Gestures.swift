// Gesture recognizers live on views: attached, listed and removed as in UIKit.
import Foundation

extension UIView {
  /// The gesture recognizers attached to the view, in the order they were added; nil when there
  /// are none, as UIKit answers.
  public var gestureRecognizers: [UIGestureRecognizer]? {
    prepareBuiltInRecognizers()
    return recognizers.isEmpty ? nil : recognizers
  }

  /// Attaches `recognizer` to the view (taking it from the view it was on): it gets the touches
  /// that begin in the view or its subviews (``GestureDriver/touchDown(at:in:)``), and its
  /// ``UIGestureRecognizer/view`` is this view.
  public func addGestureRecognizer(_ recognizer: UIGestureRecognizer) {
    prepareBuiltInRecognizers()
    if let previous = recognizer.view, previous !== self {
      previous.removeGestureRecognizer(recognizer)
    }
    guard !recognizers.contains(where: { $0 === recognizer }) else { return }
    recognizers.append(recognizer)
    recognizer.view = self
  }

  /// Detaches `recognizer` (a gesture under way is cancelled first, as in UIKit); one that is
  /// not attached to the view is ignored.
  public func removeGestureRecognizer(_ recognizer: UIGestureRecognizer) {
    prepareBuiltInRecognizers()
    guard recognizers.contains(where: { $0 === recognizer }) else { return }
    recognizer.cancelIfUnderWay()
    recognizers.removeAll { $0 === recognizer }
    if recognizer.view === self { recognizer.view = nil }
  }
}
