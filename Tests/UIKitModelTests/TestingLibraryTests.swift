// The testing library's expectations and golden timelines, and the session's drivers.
import Foundation
import Scenarios
import SwizzleKitTesting
import Synchronization
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("ExpectedBar")
  struct ExpectedBarTests {
    @Test("only the values given are checked, within the tolerance; each difference is a line")
    func differences() {
      let bar = NavigationSession(root: UIViewController()).navigationController.navigationBar
      bar.setBackgroundImage(UIImage(color: .blue), for: .default)
      let seen = bar.asSeen(over: .white)
      #expect(ExpectedBar(background: .blue, backgroundAlpha: 1).differences(from: seen).isEmpty)
      #expect(ExpectedBar().differences(from: seen).isEmpty)
      let lines = ExpectedBar(background: .red, backgroundAlpha: 0.5, hairline: true)
        .differences(from: seen)
      #expect(lines.count == 2, "\(lines)")
      #expect(lines.first?.hasPrefix("background: expected #FF0000FF, seen #0000FFFF") == true)
      let near = UIColor(red: 0, green: 0, blue: 0.995, alpha: 1)
      #expect(ExpectedBar(background: near).differences(from: seen).isEmpty)
      #expect(!ExpectedBar(background: near).differences(from: seen, tolerance: 0.001).isEmpty)
    }

    @Test("expectBar passes on what is seen and records the differences otherwise")
    func expectations() {
      let session = NavigationSession(root: UIViewController())
      let bar = session.navigationController.navigationBar
      expectBar(bar, ExpectedBar(translationY: 0, hairline: true, height: 44))
      withKnownIssue {
        expectBar(bar, ExpectedBar(translationY: -44))
      }
      withKnownIssue {
        expectMoment("missing", of: [], ExpectedBar())
      }
    }
  }

  @MainActor
  @Suite("GoldenTimeline", .snapshots(record: .missing))
  struct GoldenTimelineTests {
    @Test("the first line that differs, a missing line included; nil when equal")
    func firstDifference() {
      #expect(GoldenTimeline.firstDifference("a\nb\n", "a\nb\n") == nil)
      let changed = GoldenTimeline.firstDifference("a\nb\nc\n", "a\nB\nc\n")
      #expect(changed?.line == 2 && changed?.expected == "b" && changed?.seen == "B")
      let shorter = GoldenTimeline.firstDifference("a\nb\n", "a\n")
      #expect(shorter?.line == 2 && shorter?.seen == "(end of text)")
    }

    @Test("a golden with CRLF line ends reads as the same lines, and a difference names its line")
    func crlf() {
      #expect(GoldenTimeline.firstDifference("a\r\nb\r\n", "a\nb\n") == nil)
      let changed = GoldenTimeline.firstDifference("a\r\nb\r\nc\r\n", "a\nB\nc\n")
      #expect(changed?.line == 2 && changed?.expected == "b" && changed?.seen == "B")
    }

    @Test("a golden name that climbs out, is empty or holds a slash is refused; nothing written")
    func badNames() throws {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("golden-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let source = directory.appendingPathComponent("Inner/FakeTests.swift").path
      for name in ["", " ", ".", "..", "../escape", "a/b", "nul\0", "\n", "a\rb"] {
        withKnownIssue {
          GoldenTimeline.check("one\n", named: name, filePath: source)
        } matching: { issue in
          issue.comments.contains { $0.rawValue.contains("is not a file name") }
        }
      }
      #expect(!FileManager.default.fileExists(atPath: directory.path), "nothing was written")
    }

    @Test("a golden path that is a directory says so")
    func directoryGolden() throws {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("golden-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("Golden/taken.txt"), withIntermediateDirectories: true)
      let source = directory.appendingPathComponent("FakeTests.swift").path
      withKnownIssue {
        GoldenTimeline.check("one\n", named: "taken", filePath: source)
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("is a directory, not a file") }
      }
    }

    @Test("a missing golden file is written and fails; an unreadable one fails and is kept")
    func missingAndMalformed() throws {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("golden-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let source = directory.appendingPathComponent("FakeTests.swift").path
      let file = directory.appendingPathComponent("Golden/new.txt")
      withKnownIssue {
        GoldenTimeline.check("one\n", named: "new", filePath: source)
      }
      #expect(try String(contentsOf: file, encoding: .utf8) == "one\n")
      GoldenTimeline.check("one\n", named: "new", filePath: source)
      withKnownIssue {
        GoldenTimeline.check("two\n", named: "new", filePath: source)
      }
      try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: file)
      withKnownIssue {
        GoldenTimeline.check("one\n", named: "new", filePath: source)
      }
      #expect(try Data(contentsOf: file) == Data([0xFF, 0xFE, 0x00, 0xC3]), "left as it is")
    }

    @Test("a timeline is one line per moment: time, name, what the user sees")
    func timeline() throws {
      let scenario = Scenario(name: "two", summary: "") { context in
        let session = context.start(root: UIViewController())
        context.mark("start")
        session.push(UIViewController())
        context.mark("pushed")
      }
      let text = GoldenTimeline.timeline(try scenario.run(options: ScenarioOptions(plugins: [])))
      let lines = text.split(separator: "\n")
      #expect(lines.count == 2)
      #expect(lines[0].hasPrefix("0.000  start: background #"))
      #expect(lines[1].contains("  pushed: background #"))
    }
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("expectScenario")
  struct ExpectScenarioTests {
    /// A scenario with three promises, one said to fail on iOS 15 where it holds.
    static let promising = Scenario(name: "promising", summary: "") { context in
      let session = context.start(root: UIViewController())
      context.mark("start")
      context.expectBar(ExpectedBar(height: 44), "44 points tall")
      context.expectBar(ExpectedBar(translationY: 0), "in place", failsOn: ["15"])
      session.push(UIViewController())
      context.expect(
        session.navigationController.viewControllers.count == 2, "two deep", seen: "not two")
    }

    @Test("a run as the scenario says records nothing and returns the report")
    func asExpected() throws {
      let report = try #require(
        expectScenario(Self.promising, options: ScenarioOptions(plugins: [])))
      #expect(report.checks.map(\.label) == ["44 points tall", "in place", "two deep"])
      #expect(report.isAsExpected)
    }

    @Test("a scenario that marks other moments when run again is an issue naming the moment")
    func notRepeatable() {
      let runs = Mutex(0)
      let drifting = Scenario(name: "drifting", summary: "") { context in
        context.start(root: UIViewController())
        context.mark("start")
        let run = runs.withLock { count in
          count += 1
          return count
        }
        context.mark("run \(run)")
      }
      withKnownIssue {
        expectScenariosRepeatable([drifting])
      } matching: { issue in
        issue.comments.contains {
          $0.rawValue.hasPrefix("drifting ran otherwise the second time, from line 2")
            && $0.rawValue.contains("run 1")
        }
      }
      expectScenariosRepeatable([Self.promising])
    }

    @Test("a known failure that holds is an issue naming the scenario and the profile")
    func knownFailureHolds() {
      withKnownIssue {
        expectScenario(
          Self.promising, options: ScenarioOptions(systemVersion: "15.0", plugins: []))
      } matching: { issue in
        issue.comments.contains {
          $0.rawValue.hasPrefix("promising on iPhone 8, iOS 15: \"in place\"")
            && $0.rawValue.contains("held, though the scenario says it fails here")
        }
      }
    }

    @Test("a system version or SDK that does not parse is an issue; the scenario does not run")
    func badVersions() throws {
      for options in [
        ScenarioOptions(systemVersion: "thirteen", plugins: []),
        ScenarioOptions(systemVersion: "15.0", sdkVersion: "14.x", plugins: []),
        ScenarioOptions(systemVersion: "13.0", sdkVersion: "17.0", plugins: []),
      ] {
        withKnownIssue {
          #expect(expectScenario(Self.promising, options: options) == nil)
        } matching: { issue in
          issue.comments.contains {
            $0.rawValue.contains("is not a version number") || $0.rawValue.contains("is newer")
          }
        }
        // Run without the testing library: a failed check says why, and no moment was marked.
        let report = try Self.promising.check(options: options)
        #expect(report.moments.isEmpty)
        #expect(report.checks.map(\.held) == [false])
        #expect(report.checks.first?.differences.first?.contains("the script did not run") == true)
      }
      withKnownIssue {
        #expect(
          expectScenario(
            Self.promising, options: ScenarioOptions(plugins: ["bar-layer", "bar-layer"])) == nil)
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("is named twice") }
      }
    }

    @Test("a trait with a version that does not parse is an issue, and the test body does not run")
    func badTraitVersion() async throws {
      let test = try #require(Test.current)
      let trait = UIKitModelTrait.uiKitModel(device: .iPhone8, systemVersion: "1e3")
      let ran = Mutex(false)
      try await withKnownIssue {
        try await trait.provideScope(for: test, testCase: nil) { ran.withLock { $0 = true } }
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("\"1e3\" is not a version number") }
      }
      #expect(!ran.withLock { $0 })
    }

    @Test("a bar checked before the scenario started a session fails, saying so")
    func noSession() throws {
      let early = Scenario(name: "early", summary: "") { context in
        context.expectBar(ExpectedBar(backgroundAlpha: 1), "the bar")
      }
      let report = try early.check(options: ScenarioOptions(plugins: []))
      #expect(report.checks.map(\.held) == [false])
      #expect(
        report.checks.first?.differences == [
          "no session: the scenario calls start(root:) before it checks the bar"
        ])
    }

    @Test("a plugin that does not exist is an issue naming the cell, and no report")
    func unknownPlugin() {
      withKnownIssue {
        #expect(
          expectScenario(
            Self.promising,
            options: ScenarioOptions(device: .iPhoneX, plugins: ["no-such-plugin"])) == nil)
      } matching: { issue in
        issue.comments.contains { $0.rawValue.hasPrefix("promising on iPhone X, iOS 13:") }
      }
    }

    @Test("the timeline of a report lists moments, checks and the traced sends")
    func timelineWithSends() throws {
      let (report, sends) = try GoldenTimeline.recordingSends(of: ["pushViewController:animated:"])
      {
        try Self.promising.check(options: ScenarioOptions(plugins: []))
      }
      let text = GoldenTimeline.timeline(report)
      #expect(text.contains("check 44 points tall: ok\ncheck in place: ok\ncheck two deep: ok\n"))
      #expect(sends == ["0.000  -[UINavigationController pushViewController:animated:]"])
    }
  }
}

extension UIKitModelTests.SessionTests {
  @Test(
    "a trait on a profile; scroll to an offset; advance by frames mid-push",
    .uiKitModel(device: .iPhoneX, profile: .ios15))
  func scrollToAndFrames() throws {
    #expect(UIDevice.current.majorSystemVersion == 15 && UIScreen.main.profile == .iPhoneX)
    let page = UIViewController()
    let scrollView = UIScrollView(frame: CGRect(x: 0, y: 0, width: 375, height: 812))
    scrollView.contentSize = CGSize(width: 375, height: 3000)
    page.view.addSubview(scrollView)
    let session = NavigationSession(root: page, device: .iPhoneX, systemVersion: "15.0")
    session.scroll(scrollView, to: 120)
    #expect(abs(scrollView.contentOffset.y - 120) < 0.5)
    session.scroll(scrollView, to: 40)
    #expect(abs(scrollView.contentOffset.y - 40) < 0.5)
    session.navigationController.pushViewController(UIViewController(), animated: true)
    session.advance(frames: 4)
    #expect(session.navigationController.isTransitioning, "four frames into a push")
    #expect(session.trace.last?.hasPrefix("t=0.") == true)
    #expect(session.trace.last?.contains("advance 4 frames") == true)
  }

  @Test("popTo, popToRoot, and a swipe released with a chosen velocity")
  func moreDrivers() {
    let pages = (0..<4).map { index -> UIViewController in
      let page = UIViewController()
      page.title = "P\(index)"
      return page
    }
    let session = NavigationSession(root: pages[0])
    session.push(pages[1]).push(pages[2]).push(pages[3])
    session.popTo(pages[1])
    #expect(session.navigationController.viewControllers.count == 2)
    session.push(pages[2]).popToRoot()
    #expect(session.navigationController.viewControllers.count == 1)
    session.push(pages[1])
    session.swipeBack(to: 0.3, release: .velocity(900))
    #expect(session.navigationController.viewControllers.count == 1, "a fast release finishes")
    session.push(pages[2])
    session.swipeBack(to: 0.7, release: .velocity(-900))
    #expect(session.navigationController.viewControllers.count == 2, "a release backwards cancels")
    #expect(session.trace.last?.contains("velocity(-900.0)") == true)
  }
}
