// The article's custom pop on a page whose scroll view scrolls sideways: its pan on the
// navigation controller's view meets the scroll view's own pan, as FD's does (FD issues 61 and
// 27).
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension FullscreenPopScenarios {
  /// The article's pop (a pan on the navigation controller's view driving a percent-driven
  /// custom pop) on a page filled by a scroll view three screens wide, pushed after the
  /// article's page B. On its second screen a swipe to the right from mid-screen scrolls the
  /// content back and stays, in both halves. At the left edge the scroll view's pan, nearer the
  /// finger, begins first and the article's fails (FD issue 61's mechanism, which the article's
  /// code shares): the page stays with the article as written (`article-seed: ...`, fails
  /// everywhere). Fixed (`article: ...`), the plugin's scroll-view category lets the article's
  /// pan recognize beside the scroll view's at the left edge, as it does FD's, and the swipe
  /// pops. No report names the article's code with a scroll view.
  public static let articleScrollView = Scenario(
    name: "fd-article-scroll-view",
    summary: "the article's pop on a sideways scroll view: the scroll view keeps the finger;"
      + " fixed, it yields at the left edge",
    plugin: plugin
  ) { context in
    FullscreenPopPlugin.technique.withEach([PopTechnique.articleSeed, .article]) { technique in
      let session = context.start(root: homePage())
      session.push(opaquePage())
      swipeOnGallery(
        pushedIn: session, context, technique.rawValue, popsTo: "Detail",
        failsOn: technique == .articleSeed ? IOSProfile.everyName : [])
    }
  }
}
