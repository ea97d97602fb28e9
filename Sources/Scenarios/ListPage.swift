// A page scenarios scroll up and down: a list, as a table view controller's view.
public import UIKitModel

/// A page filled by a scroll view 2,000 points tall (a list, as a table view controller's): the
/// content whose scroll collapses a large title or a search bar, and brings it back at the top.
/// Its bar is whatever the plugins give a page that sets nothing.
open class ListPage: UIViewController {
  /// The list.
  public let scrollView = UIScrollView()

  /// A page titled `title`.
  public init(title: String) {
    super.init()
    self.title = title
  }

  open override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
    view.addSubview(scrollView)
  }
}
