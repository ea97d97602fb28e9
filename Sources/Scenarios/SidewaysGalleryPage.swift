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

extension ScenarioContext {
  /// Swipes back twice from `gallery`, pushed on the session's root (the depths checked are 2,
  /// then 1), from the left edge to 70 %:
  /// first as the app leaves it, when the gallery's own pan keeps the finger and the page stays;
  /// then, after `between`, with the gallery's pan required to fail on `pans` (by default the
  /// enabled edge pans of the navigation controller's view: the system's swipe-back, or a
  /// library's own), the app's usual answer, when the swipe pops. Marks each swipe and checks
  /// the stack's depth after it, each name after `prefix`.
  public func swipeBackOverGallery(
    _ gallery: SidewaysGalleryPage, in session: NavigationSession,
    requiringToFail pans: [UIGestureRecognizer]? = nil, prefix: String = "",
    between: () -> Void = {}
  ) {
    let depth = { session.navigationController.viewControllers.count }
    session.swipeBack(to: 0.7)
    mark("\(prefix)swiped: the gallery kept the finger")
    expect(depth() == 2, "\(prefix)still on the gallery", seen: "\(depth()) deep")
    between()
    let edgePans = (session.navigationController.view.gestureRecognizers ?? [])
      .filter { $0 is UIScreenEdgePanGestureRecognizer && $0.isEnabled }
    for pan in pans ?? edgePans {
      gallery.scrollView.panGestureRecognizer.require(toFail: pan)
    }
    session.swipeBack(to: 0.7)
    mark("\(prefix)swiped with require(toFail:)")
    expect(depth() == 1, "\(prefix)the swipe popped", seen: "\(depth()) deep")
  }
}
