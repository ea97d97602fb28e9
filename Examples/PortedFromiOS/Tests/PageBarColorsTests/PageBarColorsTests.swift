// The file written for iOS, run on Linux: its own trigger installs it at the launch, its bar
// colours show in the model, and the port changed only the lines Linux forces.
import Foundation
import Hooks
import PageBarColors
import Scenarios
import SwizzleKitTesting
import Testing
import UIKit

@MainActor
private func page(_ title: String, _ color: UIColor) -> UIViewController {
  let controller = UIViewController()
  controller.title = title
  controller.pageBarColor = color
  return controller
}

@MainActor
@Suite("The port of PageBarColors", .uiKitModel)
struct PageBarColorsTests {
  @Test("its own trigger installs it at the launch, and each page's colour shows on the bar")
  func runs() {
    let navigation = PageColorNavigationController(rootViewController: page("Red", .red))
    let session = NavigationSession(navigationController: navigation, device: .iPhoneX)
    let bar = navigation.navigationBar
    expectBar(bar, ExpectedBar(background: .red, backgroundAlpha: 1), "the root's colour")
    session.push(page("Blue", .blue))
    expectBar(bar, ExpectedBar(background: .blue, backgroundAlpha: 1), "the pushed page's")
    // What @objc did on iOS, exposeMethod did here: the methods are in the tables.
    #expect(
      class_getInstanceMethod(UINavigationController.self, "pbc_pushViewController:animated:")
        != nil)
    session.swipeBack(to: 0.3)
    expectBar(bar, ExpectedBar(background: .blue, backgroundAlpha: 1), "a cancelled swipe")
    session.swipeBack(to: 0.8)
    expectBar(bar, ExpectedBar(background: .red, backgroundAlpha: 1), "a finished swipe")
  }

  @Test("half way through a swipe-back the bar shows the two colours blended")
  func blendsDuringTheSwipe() throws {
    let navigation = PageColorNavigationController(rootViewController: page("Red", .red))
    let session = NavigationSession(navigationController: navigation)
    session.push(page("Blue", .blue))
    let window = try #require(navigation.view.window)
    let pans = GestureDriver.touchDown(at: CGPoint(x: 5, y: 300), in: window)
    let width = navigation.view.bounds.width
    for step in 1...10 {
      for pan in pans where pan.isFollowingTouch {
        GestureDriver.move(pan, to: CGPoint(x: width * 0.05 * CGFloat(step), y: 0))
      }
      session.advance(frames: 1)
    }
    // Half way: red and blue, half each.
    expectBar(
      navigation.navigationBar,
      ExpectedBar(background: UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)),
      tolerance: 0.03, "half way")
    for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan) }
    session.advance(by: 1)
  }
}

/// The lines of code of a Swift file, without comments, blank lines or indentation: what the
/// count of changed lines compares.
private func codeLines(of path: String) throws -> [String] {
  try String(contentsOfFile: path, encoding: .utf8).split(
    separator: "\n", omittingEmptySubsequences: false
  )
  .map { line in
    let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
    return code.trimmingCharacters(in: .whitespaces)
  }
  .filter { !$0.isEmpty }
}

/// How many lines a diff of `old` to `new` changes: for each run of differing lines, the larger
/// of the lines removed and the lines added (a line rewritten counts once).
private func changedLines(from old: [String], to new: [String]) -> Int {
  // The longest common subsequence, by dynamic programming from the ends.
  var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
  for i in stride(from: old.count - 1, through: 0, by: -1) {
    for j in stride(from: new.count - 1, through: 0, by: -1) {
      common[i][j] =
        old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
    }
  }
  var (i, j, changed, removed, added) = (0, 0, 0, 0, 0)
  while i < old.count || j < new.count {
    if i < old.count, j < new.count, old[i] == new[j] {
      changed += max(removed, added)
      (removed, added) = (0, 0)
      i += 1
      j += 1
    } else if j < new.count, i == old.count || common[i][j + 1] >= common[i + 1][j] {
      added += 1
      j += 1
    } else {
      removed += 1
      i += 1
    }
  }
  return changed + max(removed, added)
}

@MainActor
@Suite("The port's changed lines")
struct PortedLinesTests {
  @Test("the port changed only the lines Linux forces: 24 of the iOS file's code lines")
  func onlyForcedChanges() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let iOS = try codeLines(of: root.appendingPathComponent("iOS/PageBarColors.swift").path)
    let port = try codeLines(
      of: root.appendingPathComponent("Sources/PageBarColors/PageBarColors.swift").path)
    #expect(iOS.count == 132)
    #expect(changedLines(from: iOS, to: port) == 24)
    // Every change is of a kind Docs/Porting.md names: no @objc, no #selector, no override in
    // an extension are left, and the original's calls of the swapped methods became sends.
    #expect(!port.contains { $0.contains("@objc") || $0.contains("#selector") })
    #expect(!port.contains { $0.contains("override var next") })
  }

  @Test("the iOS text's override of next would never run here; nothing of the port is shadowed")
  func shadows() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let iOSPath = root.appendingPathComponent("iOS/PageBarColors.swift").path
    let iOS = ShadowedMethods.find(
      inSource: try String(contentsOfFile: iOSPath, encoding: .utf8), file: "PageBarColors.swift")
    // The owner is UIApplication once the port's hook is installed, UIResponder before.
    #expect(iOS.map(\.swiftName) == ["next"])
    #expect(iOS.first?.method.hasSuffix(" nextResponder]") == true)
    expectNoShadowedMethods(
      inFiles: [root.appendingPathComponent("Sources/PageBarColors/PageBarColors.swift").path])
  }
}
