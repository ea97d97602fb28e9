// How the model reports bad input: UIKit raises an exception; the model refuses the call, leaves
// every object as it was, and reports a typed issue.
import ObjCRuntime

/// A call the model refused, as UIKit would have raised for it.
public enum UIKitModelIssue: Error, Equatable, Sendable, CustomStringConvertible {
  /// A view inserted into itself or into one of its own subviews.
  case viewCycle(view: String, into: String)
  /// A subview index out of range.
  case indexOutOfRange(view: String, index: Int, count: Int)
  /// A frame, bounds or centre with a NaN or infinite component.
  case invalidGeometry(view: String, value: String)
  /// A display link added to a run loop twice.
  case displayLinkAddedTwice(String)
  /// `CATransaction.commit()` without a matching `begin()`.
  case unbalancedTransaction
  /// A display link whose target does not respond to its selector.
  case displayLinkTargetMissingSelector(target: String, selector: String)
  /// A push or pop requested while another transition runs.
  case transitionInProgress(controller: String, request: String)
  /// A controller pushed while it is already in the stack.
  case pushedTwice(controller: String)
  /// A pop to a controller that is not in the stack.
  case notInStack(controller: String, navigationController: String)
  /// An empty list of view controllers.
  case emptyViewControllers(controller: String)
  /// On iOS 13 and later (built with its SDK), `navigationBar(_:shouldPop:)` returned true after
  /// popping by itself.
  case shouldPopAfterManualPop(controller: String)
  /// A gesture moved or released that never began.
  case gestureNotBegun(String)
  /// `completeTransition(_:)` called a second time.
  case transitionCompletedTwice(controller: String)
  /// A nil view controller was passed where one is required (UIKit raises
  /// NSInvalidArgumentException: "Application tried to push a nil view controller").
  case nilViewController(method: String, navigationController: String)
  /// `setViewControllers` was given a list holding one controller more than once (UIKit raises:
  /// "All view controllers in a navigation controller must be distinct").
  case duplicateViewControllers(controller: String, navigationController: String)
  /// A system version that is not a version number (`"13.0"`, `"10.3.1"`).
  case invalidSystemVersion(String, kept: String)
  /// A presentation or dismissal UIKit refuses (with a warning in its console): presenting on a
  /// controller that already presents one, or whose view is not in a window, or presenting a
  /// controller that is already presented; dismissing while a transition runs.
  case presentationRefused(presenter: String, presented: String, reason: String)
  /// A custom transition's animator never called `completeTransition(_:)`: the model completed
  /// the transition `timeout` seconds after its duration.
  case transitionNeverCompleted(controller: String, timeout: TimeInterval)
  /// A layer animation of a key path the model does not draw (it animates `opacity`,
  /// `shadowOpacity`, `shadowRadius` and `cornerRadius`).
  case unsupportedAnimation(layer: String, keyPath: String)
  /// The run loop was asked to advance by more than
  /// ``VirtualRunLoop/maximumAdvance`` at once, or by NaN: nothing was run.
  case advanceRefused(String)
  /// A value that is not a property-list type given to `NSUserDefaults` (Foundation raises
  /// NSInvalidArgumentException: "Attempt to insert non-property list object").
  case nonPropertyListValue(key: String, type: String)
  /// A colour given a NaN or infinite component (its components, in order).
  case invalidColor(String)
  /// The model was used off the main thread while the main thread runs the model's loop (a test
  /// not isolated to the main actor): the main queue's work runs beside it (``MainThread``).
  case offMainThread(String)
  /// ``NavigationSession/waitUntilIdle(limit:)`` ran `limit` seconds of virtual time (a driver's
  /// step, 60) and the session was still busy with what it names.
  case notIdle(String, limit: TimeInterval)
  /// An API used on a profile that does not have it (`UITabBar.scrollEdgeAppearance` before
  /// iOS 15): `introduced` names the version that brought it; nothing changed.
  case unavailable(api: String, introduced: Int, running: String)
  /// A request a tab bar controller refuses, as UIKit raises or ignores it: a selection out of
  /// range or of a controller not in its list, a list that names a controller twice or holds
  /// the tab bar controller itself (a cycle), and (the model's choice) a selection or a new list
  /// while the selected tab pushes or pops, or asked from the callbacks of a switch under way.
  case tabBarControllerRefused(controller: String, request: String, reason: String)
  /// A search controller refused to activate or dismiss its search: while the presentation or
  /// dismissal runs, while the controller that would present it already presents another, or
  /// (the model's choice) while the searching page's navigation controller pushes or pops.
  case searchRefused(controller: String, request: String, reason: String)
  /// A `modalPresentationStyle` the model does not present (a swizzle or an override answered
  /// the popover, a custom style, a current-context one): the controller is presented full
  /// screen.
  case unsupportedPresentationStyle(controller: String, rawValue: Int)

  /// What was refused and why.
  public var description: String {
    switch self {
    case .advanceRefused(let amount):
      "the run loop was asked to advance by \(amount); it advances at most"
        + " \(Int(VirtualRunLoop.maximumAdvance)) s (\(VirtualRunLoop.maximumFrames) frames) at a"
        + " time. Nothing was run: advance in smaller steps"
    case .nonPropertyListValue(let key, let type):
      "NSUserDefaults was given a \(type) for \"\(key)\", which is not a property-list type"
        + " (strings, numbers, Data, Date, and arrays and dictionaries of them); the previous"
        + " value was kept"
    case .notIdle(let what, let limit):
      "the session was still busy after \(limit) s of waiting until idle: \(what). Stop what"
        + " runs for ever (a display link, a repeating animation) or wait with a longer limit"
    case .offMainThread(let what):
      "\(what), beside the model and not at the end of its frames: use the model on the main"
        + " actor (mark the test or its suite @MainActor)"
    case .invalidColor(let components):
      "a colour was given the components (\(components)); a NaN or infinite one names no colour"
        + " and was taken as 0"
    case .viewCycle(let view, let into):
      "cannot insert \(view) into \(into): a view cannot be its own ancestor"
    case .indexOutOfRange(let view, let index, let count):
      "index \(index) is out of range for the \(count) subviews of \(view)"
    case .invalidGeometry(let view, let value):
      "\(view) was given \(value), which has a NaN or infinite component; the value was ignored"
    case .displayLinkAddedTwice(let link):
      "\(link) is already added to a run loop; add it once"
    case .unbalancedTransaction:
      "CATransaction.commit() without a matching begin(); the commit was ignored"
    case .displayLinkTargetMissingSelector(let target, let selector):
      "the display link's target \(target) does not respond to \(selector); the tick was skipped"
    case .transitionInProgress(let controller, let request):
      "\(controller) is in a transition; \(request) was refused (wait for the completion)"
    case .pushedTwice(let controller):
      "pushing the same view controller instance (\(controller)) more than once is not supported"
    case .notInStack(let controller, let navigationController):
      "\(controller) is not in the stack of \(navigationController); nothing was popped"
    case .emptyViewControllers(let controller):
      "\(controller) was given an empty list of view controllers; the stack is unchanged"
    case .transitionCompletedTwice(let controller):
      "the transition of \(controller) was completed twice; the second call was ignored"
    case .gestureNotBegun(let recognizer):
      "\(recognizer) moved or ended while following no finger (touch down first, and move"
        + " only while isFollowingTouch); the touch was ignored"
    case .nilViewController(let method, let navigationController):
      "\(method) was sent to \(navigationController) with a nil view controller; nothing was"
        + " pushed or popped"
    case .duplicateViewControllers(let controller, let navigationController):
      "\(controller) appears more than once in the list given to \(navigationController)'s"
        + " setViewControllers; view controllers must be distinct, the stack is unchanged"
    case .invalidSystemVersion(let version, let kept):
      "\(String(reflecting: version)) is not a system version such as \"13.0\"; the model keeps"
        + " \(kept)"
    case .presentationRefused(let presenter, let presented, let reason):
      "attempt to present or dismiss \(presented) on \(presenter), \(reason); nothing changed"
    case .transitionNeverCompleted(let controller, let timeout):
      "the custom transition of \(controller) was not completed \(timeout) s after its duration"
        + " (the animator must call completeTransition); the model completed it"
    case .unsupportedAnimation(let layer, let keyPath):
      "\(layer) was given an animation of \(keyPath), which the model does not draw; it animates"
        + " opacity, shadowOpacity, shadowRadius and cornerRadius. The animation was not added"
    case .unavailable(let api, let introduced, let running):
      "\(api) came with iOS \(introduced); this is \(running): nothing changed"
    case .tabBarControllerRefused(let controller, let request, let reason):
      "\(controller) refused to \(request): \(reason); nothing changed"
    case .searchRefused(let controller, let request, let reason):
      "\(controller) refused to \(request) \(reason); nothing changed"
    case .unsupportedPresentationStyle(let controller, let rawValue):
      "-[\(controller) modalPresentationStyle] answered \(rawValue), a style the model does not"
        + " present (it has full screen, over full screen, and the page and form sheets); it is"
        + " presented full screen"
    case .shouldPopAfterManualPop(let controller):
      "override of -navigationBar:shouldPopItem: on \(controller) returned YES after manually"
        + " popping a view controller (an error on iOS 13 and later; return NO)"
    }
  }
}

/// The issues the model reported, newest last, so that tests can assert on them; each is also
/// printed as a warning (silence with `SWIZZLEKIT_QUIET=1`).
public enum UIKitModelIssues {
  private static let recorded = RuntimeLock<[UIKitModelIssue]>([])

  /// Every issue so far.
  public static var all: [UIKitModelIssue] { recorded.withLock { $0 } }

  /// Reports `issue`.
  public static func report(_ issue: UIKitModelIssue) {
    recorded.withLock { $0.append(issue) }
    Diagnostics.warn("UIKit model: \(issue)", kind: .model)
  }

  /// Forgets the issues so far.
  public static func removeAll() { recorded.withLock { $0.removeAll() } }
}

extension Diagnostic.Kind {
  /// The UIKit model refused a call, as UIKit would raise (a ``UIKitModelIssue``).
  public static let model = Diagnostic.Kind(rawValue: "model")
}
