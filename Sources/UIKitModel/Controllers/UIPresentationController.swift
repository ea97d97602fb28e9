// Sheets: the presentation styles, how a style resolves on a device and a system version, the
// presentation controller that runs a sheet's swipe-down dismissal, and the adaptive delegate it
// asks and tells (iOS 13).
import Foundation
public import ObjCRuntime

/// How a controller is presented, as UIKit's `UIModalPresentationStyle` (UIKit's raw values).
/// The model has the two full-screen presentations and the two sheets; the others (popover,
/// custom, the current-context ones) are left out, and a controller that answers one is
/// presented full screen with an issue.
public enum UIModalPresentationStyle: Int, Sendable, CaseIterable {
  /// The presented view covers the screen; UIKit removes the presenter's views once it has
  /// (the model leaves them under it), and the presenter hears the appearance callbacks.
  case fullScreen = 0
  /// A sheet. On an iPhone before iOS 13 (or with an older SDK) it is adapted to full screen.
  case pageSheet = 1
  /// A smaller sheet; on an iPhone as ``pageSheet``.
  case formSheet = 2
  /// The presented view covers the screen, and the presenter's views stay: Apple documents it
  /// as the style that prevents their removal, so the presenter hears no appearance callback.
  case overFullScreen = 5
  /// The system's choice (iOS 13): a page sheet for a controller of the app.
  case automatic = -2
}

/// The delegate of a presentation controller, as UIKit's
/// `UIAdaptivePresentationControllerDelegate`: asked and told about the user's swipe down on a
/// sheet (iOS 13), never about a `dismiss(animated:completion:)` from code (Apple: "not called
/// if the presented view controller is dismissed programmatically"). Swift methods, with
/// defaults; the model does not send them through the runtime.
@preconcurrency @MainActor
public protocol UIAdaptivePresentationControllerDelegate: AnyObject {
  /// Whether the swipe may dismiss the sheet; no makes it an attempt
  /// (``presentationControllerDidAttemptToDismiss(_:)``).
  func presentationControllerShouldDismiss(_ presentationController: UIPresentationController)
    -> Bool
  /// The swipe began to dismiss the sheet; it may still be cancelled.
  func presentationControllerWillDismiss(_ presentationController: UIPresentationController)
  /// The swipe dismissed the sheet.
  func presentationControllerDidDismiss(_ presentationController: UIPresentationController)
  /// The swipe was refused: the presented controller is `isModalInPresentation`, or
  /// ``presentationControllerShouldDismiss(_:)`` said no.
  func presentationControllerDidAttemptToDismiss(
    _ presentationController: UIPresentationController)
}

extension UIAdaptivePresentationControllerDelegate {
  /// Yes.
  public func presentationControllerShouldDismiss(
    _ presentationController: UIPresentationController
  ) -> Bool { true }
  /// Nothing.
  public func presentationControllerWillDismiss(
    _ presentationController: UIPresentationController
  ) {}
  /// Nothing.
  public func presentationControllerDidDismiss(
    _ presentationController: UIPresentationController
  ) {}
  /// Nothing.
  public func presentationControllerDidAttemptToDismiss(
    _ presentationController: UIPresentationController
  ) {}
}

/// The object that manages one presentation, as UIKit's: made when the presented controller's
/// `presentationController` is first read or when it is presented, gone when it is dismissed. For a
/// sheet from iOS 13 it owns the swipe-down pan on the sheet's view and runs the interactive
/// dismissal; its ``delegate`` is asked and told about it.
@preconcurrency @MainActor
open class UIPresentationController: ObjCObject {
  /// `_handleDismissalPan:`, the action of the swipe-down pan (in the table, so a plugin can
  /// hook the sheet's drag as it hooks the swipe back).
  nonisolated public static let handleDismissalPanSelector: Selector = "_handleDismissalPan:"

  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIPresentationController.self) {
      ObjCMethodDeclaration(handleDismissalPanSelector, UIPresentationController.handlePan)
    }
  }

  nonisolated private static let handlePan: @convention(c) (id, SEL, id?) -> Void = {
    me, _, sender in
    MainThread.enterIMP(with: me, sender) { me, sender in
      guard let pan = sender?.takeUnretainedObject() as? UIPanGestureRecognizer else { return }
      me.receiver(as: UIPresentationController.self).handleDismissalPan(pan)
    }
  }

  /// The controller presented.
  public private(set) weak var presentedViewController: UIViewController?
  /// The controller that presents it.
  public internal(set) weak var presentingViewController: UIViewController?
  /// The style the presentation took on this device and system (``UIModalPresentationStyle``'s
  /// `.automatic` resolved, a sheet on an iPhone before iOS 13 adapted to full screen).
  public let presentationStyle: UIModalPresentationStyle
  /// The delegate, held weakly.
  open weak var delegate: (any UIAdaptivePresentationControllerDelegate)?

  /// The swipe-down pan on the sheet's view (iOS 13 and later, sheets only).
  public internal(set) var dismissalPanGestureRecognizer: UIPanGestureRecognizer?
  /// The view between a sheet and the presenter's view, over the whole window: it takes the
  /// touches outside the sheet (sheets only).
  public internal(set) var dimmingView: UIView?

  /// The presented view's frame in the window while it rests.
  var restingFrame = CGRect.zero
  /// The presenter's view's transform behind a sheet while it rests (scaled back on a phone).
  var presenterTransform = CGAffineTransform.identity
  /// The swipe-down dismissal under way, if any.
  var dragging: SheetDrag?

  /// A presentation of `presented` in `style` (already resolved); its presenter is set when the
  /// presentation begins.
  init(presented: UIViewController, style: UIModalPresentationStyle) {
    presentedViewController = presented
    presentationStyle = style
    super.init()
  }

  /// The presentation begins: `presenting` presents, the sheet rests at `frame`, the presenter's
  /// view behind it takes `transform`.
  func begin(presenting: UIViewController, frame: CGRect, transform: CGAffineTransform) {
    presentingViewController = presenting
    restingFrame = frame
    presenterTransform = transform
  }

  /// Whether the presenter's view is taken away once the presentation has covered it, as
  /// UIKit's property of that name: for a full-screen presentation only. The presenter hears
  /// appearance callbacks exactly then (the model leaves the view under the presented one).
  open var shouldRemovePresentersView: Bool { presentationStyle == .fullScreen }

  /// Whether the presentation is a page or form sheet (on an iPhone before iOS 13, or with an
  /// older SDK, a sheet has resolved to full screen): the model's.
  public var isSheet: Bool { presentationStyle == .pageSheet || presentationStyle == .formSheet }

  /// The view presented: the presented controller's.
  public var presentedView: UIView? { presentedViewController?.view }
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The view between a sheet and the presenter, named after UIKit's private `UIDimmingView`: it
/// covers the window, so a touch outside the sheet reaches neither the presenter's views nor
/// their gestures (the presenter's swipe back cannot pop its stack under a sheet). The model's
/// reading: Apple documents that with `isModalInPresentation` "UIKit ignores events outside the
/// view controller's bounds", and no source says the presenter is touchable otherwise; the
/// model keeps it untouchable either way. It draws nothing: how much UIKit dims the presenter
/// is left out, for want of a source.
public final class UIDimmingView: UIView {}

/// A swipe-down dismissal under way.
struct SheetDrag {
  /// Whether the swipe was refused (`isModalInPresentation` or the delegate): the sheet stays.
  var refused: Bool
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The pan that drags a sheet down, as UIKit's sheet interaction: it begins only for a move
/// mostly downwards.
final class _UISheetDismissalPanGestureRecognizer: UIPanGestureRecognizer {
  override func canBegin(after translation: CGPoint) -> Bool {
    translation.y > 0 && translation.y >= abs(translation.x)
  }
}

/// A block given to a method of the table (`completion:`), as an Objective-C block is an object:
/// it travels through the runtime as an `id`, so a swizzle of
/// `presentViewController:animated:completion:` receives it and can pass it on.
@preconcurrency @MainActor
public final class UICompletionBlock: ObjCObject {
  /// The work.
  public let body: () -> Void

  /// A block that runs `body`.
  public init(_ body: @escaping () -> Void) {
    self.body = body
    super.init()
  }

  /// `completion` as it travels through the runtime; nil for nil.
  public static func wrap(_ completion: (() -> Void)?) -> UICompletionBlock? {
    completion.map(UICompletionBlock.init)
  }

  /// The work of a block that travelled as `object`: nil for nil or for another object.
  public static func unwrap(_ object: ObjCObject?) -> (() -> Void)? {
    (object as? UICompletionBlock)?.body
  }
}
