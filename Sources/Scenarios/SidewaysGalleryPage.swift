// A page scenarios put under a swipe back: a scroll view that scrolls sideways.
public import UIKitModel

/// A page filled by a scroll view three screens wide (a gallery of screens side by side), whose
/// own pan takes sideways swipes: the page a scenario puts under a swipe back to show the
/// conflict FDFullscreenPopGesture issues 27 and 61 report, and its answers. Its content starts
/// at the left edge; its bar is whatever the plugins give a page that sets nothing.
open class SidewaysGalleryPage: UIViewController {
  /// The gallery.
  public let scrollView = UIScrollView()

  /// A page titled `title`.
  public init(title: String = "Gallery") {
    super.init()
    self.title = title
  }

  open override func viewDidLoad() {
    super.viewDidLoad()
    view.backgroundColor = .white
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width * 3, height: view.bounds.height)
    view.addSubview(scrollView)
  }
}
