// The steps scenarios take on a tab bar: a page that hides it pushed, swiped back and cancelled,
// then swiped back and finished, with the tab bar checked after each.
public import UIKitModel

extension ScenarioContext {
  /// Checks that the session's tab bar is `hidden`, or shows in place (at x 0, not mid-slide),
  /// as the label says; `failsOn` marks the profiles where a technique is known to break it.
  public func expectTabBar(
    hidden: Bool, _ label: String, failsOn profiles: Set<String> = []
  ) {
    let seen = session?.seenTabBar
    let holds = seen.map { hidden ? $0.isHidden : !$0.isHidden && $0.frame.minX == 0 } ?? false
    expect(
      holds, label, seen: seen.map { "\($0)" } ?? "no tab bar: the session has no tabs",
      failsOn: profiles)
  }

  /// On the session's selected tab, at its root: pushes `page` (which hides the tab bar) and
  /// marks it mid push (half the default duration in) and pushed; swipes back released at 30 % (cancelled: the page stays and
  /// the tab bar stays hidden) and from 70 % (finished: the root, and the tab bar back in
  /// place), marking and checking each, names after `prefix`; the swipes start at `startX`
  /// (the left edge by default; further in for a full-screen pan). `finishFailsOn` names the
  /// profiles where a technique is known to keep the finished swipe from popping. `checkBar`
  /// runs after each step with the step's name (`pushed`, `cancelled`, `finished`), for the
  /// plugin's own checks.
  public func pushAndSwipeBackOverTabBar(
    _ page: UIViewController, in session: NavigationSession, prefix: String = "",
    from startX: CGFloat = 5, finishFailsOn: Set<String> = [],
    checkBar: (String) -> Void = { _ in }
  ) {
    let depth = { session.navigationController.viewControllers.count }
    session.navigationController.pushViewController(page, animated: true)
    VirtualRunLoop.main.advance(by: UINavigationController.transitionDuration / 2)
    mark("\(prefix)mid push")
    session.waitUntilIdle()
    mark("\(prefix)pushed")
    expectTabBar(hidden: true, "\(prefix)the pushed page hides the tab bar")
    checkBar("pushed")
    session.swipeBack(to: 0.3, from: startX)
    mark("\(prefix)swipe cancelled at 30 %")
    expect(depth() == 2, "\(prefix)still on the page", seen: "\(depth()) deep")
    expectTabBar(hidden: true, "\(prefix)hidden again after the cancelled swipe")
    checkBar("cancelled")
    session.swipeBack(to: 0.7, from: startX)
    mark("\(prefix)swipe finished from 70 %")
    expect(
      depth() == 1, "\(prefix)back at the root", seen: "\(depth()) deep",
      failsOn: finishFailsOn)
    expectTabBar(hidden: false, "\(prefix)the tab bar back in place", failsOn: finishFailsOn)
    checkBar("finished")
  }
}
