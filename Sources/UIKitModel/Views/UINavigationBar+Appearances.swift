// The bar's iOS 13 appearances, and which one is drawn: the scroll-edge one when the top page's
// content is at its top (or the page has no scroll view), on iOS 15 and later for every bar, on
// iOS 13 and 14 for a bar showing a large title.
import Foundation

extension UINavigationBar {
  /// The appearance of the bar when its content is scrolled (iOS 13 and later; ignored before).
  /// Nil draws the bar from its legacy properties (`barTintColor`, the background image...), as
  /// iOS does by deriving a standard appearance from them.
  public var standardAppearance: UINavigationBarAppearance? {
    get { standardStorage }
    set {
      standardStorage = newValue?.copy()
      appearancesChanged()
    }
  }

  /// The appearance of the bar when the top page's content is at its top. iOS 15 draws it for
  /// every bar there (iOS 13 and 14 only while the bar shows a large title), and
  /// when it is nil, draws the standard appearance with a **transparent background**: a bar
  /// that set only the legacy properties turns transparent at the top on iOS 15 (the white or
  /// see-through bars apps shipped with).
  public var scrollEdgeAppearance: UINavigationBarAppearance? {
    get { scrollEdgeStorage }
    set {
      scrollEdgeStorage = newValue?.copy()
      appearancesChanged()
    }
  }

  /// The appearance in a compact height (kept; the model draws portrait bars).
  public var compactAppearance: UINavigationBarAppearance? {
    get { compactStorage }
    set { compactStorage = newValue?.copy() }
  }

  /// Whether the top page's content is at its top edge: its first scroll view (depth first in
  /// its view) has an offset at or above its top inset, or it has no scroll view.
  public var isAtScrollEdge: Bool {
    guard let scrollView = topContentScrollView else { return true }
    return scrollView.contentOffset.y <= -scrollView.contentInset.top
  }

  /// The scroll view of the content the bar sits over: the first (depth first) in the view of
  /// the top controller of the navigation controller the bar belongs to, if that view is loaded.
  /// The scroll edge and the large title's collapse both read it.
  var topContentScrollView: UIScrollView? {
    (delegate as? UINavigationController)?.topViewController?.viewIfLoaded?.firstScrollView
  }

  /// The appearance drawn now, if the bar draws one: none before iOS 13; on iOS 15 and later at
  /// the scroll edge, for an application built with the iOS 15 SDK or later, the scroll-edge
  /// appearance or else a transparent version of the standard one (or of the legacy look); else
  /// the standard appearance, if set.
  func activeAppearance() -> UINavigationBarAppearance? {
    guard UIDevice.current.majorSystemVersion >= 13 else { return nil }
    // Apple's documentation of `scrollEdgeAppearance`: for an app built for iOS 14 or earlier
    // it applies to bars with a large title only; from iOS 15 to every bar.
    if UIDevice.current.linkedMajorVersion >= 15 || showsLargeTitle, isAtScrollEdge {
      return UIBarAppearance.drawnAtScrollEdge(
        scrollEdgeStorage, standard: standardStorage, legacy: legacyAppearance)
    }
    return standardStorage
  }

  /// The legacy properties as an appearance (what iOS 13 derives): the title attributes.
  private func legacyAppearance() -> UINavigationBarAppearance {
    let appearance = UINavigationBarAppearance()
    appearance.titleTextAttributes = attributes ?? [:]
    return appearance
  }

  /// Draws the bar again after an appearance changed.
  private func appearancesChanged() {
    drawnAtScrollEdge = isAtScrollEdge
    applyAppearance()
  }

}

extension UINavigationBar: ScrollEdgeDrawing {
  /// Draws the bar again when the top page's content crossed its top edge (the bar also checks
  /// on each change of its items).
  func redrawForScrollEdge() { applyAppearance() }
}
