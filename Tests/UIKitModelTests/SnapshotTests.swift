// Image snapshots and record modes of the testing library, the images they compare, failures a
// team can read (diffs, artifacts, a hidden bar, the backdrop) and waits until idle.
import Foundation
import ObjCRuntime
import Scenarios
import ScreenRendering
import SwizzleKitTesting
import Synchronization
import Testing
import UIKitModel

/// A fresh directory holding a fake test file, removed at the end; `body` gets the file's path
/// and the artifacts directory its failures write to.
private func inScratch(_ body: (_ testFile: String, _ artifacts: URL) throws -> Void) rethrows {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("snapshots-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: directory) }
  let artifacts = directory.appendingPathComponent("artifacts")
  try withArtifactsDirectory(artifacts.path) {
    try body(directory.appendingPathComponent("FakeTests.swift").path, artifacts)
  }
}

/// The comments of the issues `body` records, in order (each recorded as a known issue).
private func failures(_ body: () -> Void) -> [String] {
  let messages = Mutex<[String]>([])
  withKnownIssue(isIntermittent: true) {
    body()
  } matching: { issue in
    messages.withLock { $0 += issue.comments.map(\.rawValue) }
    return true
  }
  return messages.withLock { $0 }
}

extension UIKitModelTests {
  @MainActor
  @Suite("RGBAImage")
  struct RGBAImageTests {
    @Test("opaque and translucent fills land on the right pixels, clipped to the image")
    func fills() {
      var image = RGBAImage(width: 4, height: 3, color: [1, 1, 1, 1])
      image.fill(x: 1, y: 1, width: 10, height: 10, color: [1, 0, 0, 1])
      #expect(image.pixel(x: 0, y: 0) == [255, 255, 255, 255])
      #expect(image.pixel(x: 1, y: 1) == [255, 0, 0, 255])
      #expect(image.pixel(x: 3, y: 2) == [255, 0, 0, 255])
      image.fill(x: 0, y: 0, width: 1, height: 1, color: [0, 0, 0, 1], opacity: 0.5)
      #expect(image.pixel(x: 0, y: 0) == [128, 128, 128, 255])
      #expect(image.pixel(x: 4, y: 0) == nil && image.pixel(x: -1, y: 0) == nil)
      image.fill(x: .nan, y: 0, width: 1, height: 1, color: [0, 0, 0, 1])
      image.fill(x: 0, y: 0, width: .infinity, height: 1, color: [0, 0, 0, 1])
      #expect(image.pixel(x: 1, y: 0) == [255, 255, 255, 255], "a bad rectangle draws nothing")
    }

    @Test("PNG files round-trip; a file that is not a PNG is an error naming it")
    func files() throws {
      try inScratch { testFile, _ in
        let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var image = RGBAImage(width: 7, height: 5, color: [0.2, 0.4, 0.6, 1])
        image.fill(x: 2, y: 2, width: 2, height: 2, color: [1, 0, 1, 1])
        let path = folder.appendingPathComponent("image.png").path
        try image.write(to: path)
        #expect(try RGBAImage.read(path) == image)
        let text = folder.appendingPathComponent("text.png").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: text))
        let error = #expect(throws: ImageFileError.self) { try RGBAImage.read(text) }
        #expect(error?.path == text)
        #expect(throws: ImageFileError.self) {
          try image.write(to: folder.appendingPathComponent("no/such/folder/x.png").path)
        }
        // A write replaces the file whole, and leaves nothing of its own beside it.
        let other = RGBAImage(width: 2, height: 2, color: [0, 1, 0, 1])
        try other.write(to: path)
        #expect(try RGBAImage.read(path) == other)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.hasSuffix(".partial") }, "\(names)")
      }
    }

    @Test("sizes are clamped to 1 ... 8,192 pixels a side; pixels of the wrong count are refused")
    func sizes() {
      let tiny = RGBAImage(width: 0, height: -5)
      #expect(tiny.width == 1 && tiny.height == 1)
      #expect(RGBAImage(width: 2, height: 2, pixels: [0, 0, 0]) == nil)
      #expect(
        RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4])?.pixel(x: 0, y: 0) == [1, 2, 3, 4])
    }
  }

  @MainActor
  @Suite("ImageComparison")
  struct ImageComparisonTests {
    @Test("equal images have no differing pixel; a changed one is counted and drawn in magenta")
    func differences() throws {
      let reference = RGBAImage(width: 10, height: 10, color: [0, 0, 1, 1])
      #expect(ImageComparison(reference, reference)?.differingPixels.isEmpty == true)
      #expect(ImageComparison(RGBAImage(width: 3, height: 3), reference) == nil, "other sizes")
      var actual = reference
      actual.fill(x: 3, y: 4, width: 2, height: 1, color: [1, 0, 0, 1])
      let comparison = try #require(ImageComparison(actual, reference))
      #expect(comparison.differingPixels == [43, 44])
      #expect(!comparison.matches())
      #expect(comparison.matches(precision: 0.98), "2 of 100 pixels may differ at 0.98")
      #expect(!comparison.matches(precision: 0.99))
      let difference = comparison.differenceImage()
      #expect(difference.pixel(x: 3, y: 4) == [255, 0, 255, 255])
      let unchanged = try #require(difference.pixel(x: 0, y: 0))
      #expect(unchanged[0] == unchanged[1] && unchanged[0] > 190, "the rest faded to grey")
      #expect(comparison.summary.hasPrefix("2 of 100 pixels differ (2.00 %)"))
    }

    @Test("perceptualPrecision lets pass a colour change the eye cannot tell, not a visible one")
    func perceptual() throws {
      let reference = RGBAImage(width: 4, height: 4, color: [0.5, 0.5, 0.5, 1])
      let near = RGBAImage(width: 4, height: 4, color: [0.5, 0.5, 0.505, 1])
      let far = RGBAImage(width: 4, height: 4, color: [0.5, 0.5, 0.7, 1])
      #expect(try #require(ImageComparison(near, reference)).matches() == false)
      #expect(try #require(ImageComparison(near, reference, perceptualPrecision: 0.98)).matches())
      #expect(
        try #require(ImageComparison(far, reference, perceptualPrecision: 0.98)).matches() == false)
      #expect(try #require(ImageComparison(far, reference)).largestDistance > 10)
    }
  }

  @MainActor
  @Suite("Image snapshots", .uiKitModel, .snapshots(record: .missing))
  struct ImageSnapshotTests {
    /// The screen of a pushed page with a blue bar.
    private func bluePage() -> ScreenFrame? {
      let session = NavigationSession(root: UIViewController())
      let page = UIViewController()
      page.title = "Blue"
      session.push(page)
      session.navigationController.navigationBar.isTranslucent = false
      session.navigationController.navigationBar.barTintColor = .blue
      return ScreenFrame.current()
    }

    @Test("a missing reference is written in __Snapshots__ under the cell's name, and fails")
    func missing() throws {
      try inScratch { testFile, _ in
        let frame = try #require(bluePage())
        let messages = failures {
          expectSnapshot(of: frame, record: .missing, filePath: testFile, function: "pushed()")
        }
        let reference = URL(fileURLWithPath: testFile).deletingLastPathComponent()
          .appendingPathComponent("__Snapshots__/FakeTests/pushed.1.iPhone8-iOS13.0@1x.png")
        #expect(messages.count == 1 && messages[0].contains("recorded the snapshot"))
        #expect(messages.first?.contains(reference.path) == true)
        let image = try RGBAImage.read(reference.path)
        #expect(image == frame.image())
        #expect(image.pixel(x: 300, y: 40) == [0, 0, 255, 255], "the bar drawn blue")
        // An unnamed second snapshot of the same test and cell is number 2.
        let second = failures {
          expectSnapshot(of: frame, record: .missing, filePath: testFile, function: "pushed()")
        }
        #expect(second.first?.contains("pushed.2.iPhone8-iOS13.0@1x.png") == true)
      }
    }

    @Test("the same screen matches its reference; the name carries device, version, SDK, scale")
    func matches() throws {
      try inScratch { testFile, _ in
        var frame = try #require(bluePage())
        frame.sdkVersion = "12.0"
        _ = failures { expectSnapshot(of: frame, named: "blue", scale: 2, filePath: testFile) }
        let reference = URL(fileURLWithPath: testFile).deletingLastPathComponent()
          .appendingPathComponent(
            "__Snapshots__/FakeTests/matches.blue.iPhone8-iOS13.0-SDK12.0@2x.png")
        #expect(try RGBAImage.read(reference.path).width == 750)
        #expect(expectSnapshot(of: frame, named: "blue", scale: 2, filePath: testFile))
      }
    }

    @Test("a mismatch writes the actual image, the reference and a difference, and names them")
    func mismatch() throws {
      try inScratch { testFile, artifacts in
        var frame = try #require(bluePage())
        _ = failures { expectSnapshot(of: frame, named: "bar", filePath: testFile) }
        frame.sample.background = [1, 0, 0, 1]
        let messages = failures { expectSnapshot(of: frame, named: "bar", filePath: testFile) }
        let message = try #require(messages.first)
        #expect(message.contains("differs from its reference"))
        #expect(message.contains("pixels differ"))
        for role in ["actual", "reference", "difference"] {
          let path = artifacts.appendingPathComponent(
            "FakeTests/mismatch.bar.iPhone8-iOS13.0@1x.\(role).png"
          ).path
          #expect(message.contains(path), "names the \(role) image")
          #expect(FileManager.default.fileExists(atPath: path))
        }
        let difference = try RGBAImage.read(
          artifacts.appendingPathComponent(
            "FakeTests/mismatch.bar.iPhone8-iOS13.0@1x.difference.png"
          )
          .path)
        #expect(difference.pixel(x: 300, y: 40) == [255, 0, 255, 255], "the bar changed")
        // The reference was not touched without a record mode.
        let reference = URL(fileURLWithPath: testFile).deletingLastPathComponent()
          .appendingPathComponent("__Snapshots__/FakeTests/mismatch.bar.iPhone8-iOS13.0@1x.png")
        #expect(try RGBAImage.read(reference.path).pixel(x: 300, y: 40) == [0, 0, 255, 255])
      }
    }

    @Test("record modes: never refuses to write, failed rewrites what differs, all rewrites all")
    func recordModes() throws {
      try inScratch { testFile, _ in
        var frame = try #require(bluePage())
        let reference = URL(fileURLWithPath: testFile).deletingLastPathComponent()
          .appendingPathComponent("__Snapshots__/FakeTests/recordModes.m.iPhone8-iOS13.0@1x.png")
        let never = failures {
          expectSnapshot(of: frame, named: "m", record: .never, filePath: testFile)
        }
        #expect(never.first?.contains("there is no reference") == true)
        #expect(!FileManager.default.fileExists(atPath: reference.path), "never writes nothing")
        _ = failures { expectSnapshot(of: frame, named: "m", record: .missing, filePath: testFile) }
        #expect(expectSnapshot(of: frame, named: "m", record: .failed, filePath: testFile))
        frame.sample.background = [1, 0, 0, 1]
        let rewritten = withRecordMode(.failed) {
          failures { expectSnapshot(of: frame, named: "m", filePath: testFile) }
        }
        #expect(rewritten.first?.contains("recorded the snapshot") == true)
        #expect(rewritten.first?.contains("pixels differ") == true, "says what changed")
        #expect(try RGBAImage.read(reference.path) == frame.image())
        let all = failures {
          expectSnapshot(of: frame, named: "m", record: .all, filePath: testFile)
        }
        #expect(all.first?.contains("(unchanged)") == true, "all writes, and fails, even unchanged")
      }
    }

    @Test("a reference that is not a PNG, of another size, or a directory fails and is kept")
    func badReferences() throws {
      try inScratch { testFile, _ in
        let frame = try #require(bluePage())
        let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent()
          .appendingPathComponent("__Snapshots__/FakeTests")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = folder.appendingPathComponent("badReferences.text.iPhone8-iOS13.0@1x.png")
        try Data("hello".utf8).write(to: text)
        let notPNG = failures { expectSnapshot(of: frame, named: "text", filePath: testFile) }
        #expect(notPNG.first?.contains("is not a readable PNG") == true)
        #expect(try Data(contentsOf: text) == Data("hello".utf8), "left as it is")
        let small = folder.appendingPathComponent("badReferences.small.iPhone8-iOS13.0@1x.png")
        try RGBAImage(width: 10, height: 10).write(to: small.path)
        let size = failures { expectSnapshot(of: frame, named: "small", filePath: testFile) }
        #expect(size.first?.contains("the reference is 10x10 pixels, the screen 375x667") == true)
        try FileManager.default.createDirectory(
          at: folder.appendingPathComponent("badReferences.dir.iPhone8-iOS13.0@1x.png"),
          withIntermediateDirectories: true)
        let directory = failures { expectSnapshot(of: frame, named: "dir", filePath: testFile) }
        #expect(directory.first?.contains("is a directory") == true)
      }
    }

    /// One folder for the cases of `countsPerCase`, which share their references' names.
    private static let sharedFolder = FileManager.default.temporaryDirectory
      .appendingPathComponent("snapshots-cases-\(UUID().uuidString)")

    @Test(
      "each case of a parameterized test numbers its unnamed snapshots from 1", arguments: [1, 2])
    func countsPerCase(_ number: Int) throws {
      let frame = try #require(bluePage())
      let testFile = Self.sharedFolder.appendingPathComponent("FakeTests.swift").path
      let messages = failures {
        expectSnapshot(of: frame, record: .all, filePath: testFile, function: "same()")
      }
      #expect(messages.first?.contains("same.1.iPhone8-iOS13.0@1x.png") == true, "case \(number)")
    }

    @Test("a run's moments whose names differ only in punctuation get names of their own")
    func momentNames() {
      #expect(
        SnapshotName.momentIdentifiers(scenario: "s", moments: ["a b", "a-b", "a/b", "c"])
          == ["s-a-b", "s-a-b-2", "s-a-b-3", "s-c"])
    }

    @Test("bad arguments and an unwritable folder are failures naming what to do")
    func badInput() throws {
      let frame = try #require(bluePage())
      #expect(failures { expectSnapshot(of: frame, scale: 0) }.first?.contains("scale 0") == true)
      #expect(
        failures { expectSnapshot(of: frame, precision: 2) }.first?.contains("shares from 0")
          == true)
      #expect(
        failures { expectSnapshot(of: frame, named: "../up") }.first?.contains("not a file name")
          == true)
      #expect(
        failures { expectSnapshot(of: frame, named: "12") }.first?.contains("not digits alone")
          == true)
      let unwritable = failures {
        expectSnapshot(
          of: frame, named: "x", record: .all, filePath: "/proc/no-such-folder/FakeTests.swift")
      }
      #expect(
        unwritable.first?.contains("could not create the directory /proc/no-such-folder") == true)
    }

    @Test("a hidden bar is drawn as nothing: the page shows up to the status bar")
    func hiddenBar() throws {
      let session = NavigationSession(root: UIViewController())
      session.navigationController.setNavigationBarHidden(true, animated: false)
      let frame = try #require(ScreenFrame.current())
      #expect(frame.sample.hidden == true)
      let image = frame.image()
      #expect(image.pixel(x: 300, y: 40) == image.pixel(x: 200, y: 400), "no bar at y 40")
    }
  }

  @MainActor
  @Suite("Record modes")
  struct RecordModeTests {
    @Test("SWIZZLEKIT_RECORD names the mode; UPDATE_GOLDEN means all; unknown is an error")
    func environment() throws {
      func mode(_ environment: [String: String]) -> String {
        switch RecordMode.resolved(environment: environment) {
        case .success(let mode): mode.rawValue
        case .failure(let error): "\(error)"
        }
      }
      #expect(mode([:]) == "missing")
      #expect(mode(["SWIZZLEKIT_RECORD": "never"]) == "never")
      #expect(mode(["SWIZZLEKIT_RECORD": "failed"]) == "failed")
      #expect(mode(["SWIZZLEKIT_UPDATE_GOLDEN": "1"]) == "all")
      #expect(mode(["SWIZZLEKIT_UPDATE_GOLDEN": "0"]) == "missing")
      #expect(mode(["SWIZZLEKIT_UPDATE_GOLDEN": ""]) == "missing")
      #expect(mode(["SWIZZLEKIT_RECORD": "always"]).contains("is not a record mode"))
      #expect(withRecordMode(.never) { mode(["SWIZZLEKIT_RECORD": "all"]) } == "never")
    }

    @Test(
      ".snapshots(record:) sets the mode of the test's expectations", .snapshots(record: .never))
    func trait() throws {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("golden-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let source = directory.appendingPathComponent("FakeTests.swift").path
      let messages = failures { GoldenTimeline.check("one\n", named: "new", filePath: source) }
      #expect(messages.first?.contains("record mode is never") == true)
    }
  }

  @MainActor
  @Suite("Golden timelines: diffs and artifacts", .snapshots(record: .missing))
  struct GoldenDiffTests {
    @Test("a unified diff of the whole file: hunks with three lines of context, - before +")
    func unifiedDiff() throws {
      let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
      var lines = (1...20).map { "line \($0)" }
      lines[9] = "line ten"
      lines.append("line 21")
      let diff = try #require(
        GoldenTimeline.unifiedDiff(old, lines.joined(separator: "\n"), from: "a", to: "b"))
      #expect(
        diff == """
          --- a
          +++ b
          @@ -7,7 +7,7 @@
           line 7
           line 8
           line 9
          -line 10
          +line ten
           line 11
           line 12
           line 13
          @@ -18,3 +18,4 @@
           line 18
           line 19
           line 20
          +line 21
          """)
      #expect(GoldenTimeline.unifiedDiff("a\r\nb\r\n", "a\nb", from: "a", to: "b") == nil)
      let long = String(repeating: "x", count: 400)
      let whole = try #require(GoldenTimeline.unifiedDiff(long + "\n", "y\n", from: "a", to: "b"))
      #expect(whole.contains("-" + long), "lines are not cut")
    }

    @Test("a golden that differs leaves the text seen and the reference as artifacts")
    func artifacts() throws {
      try inScratch { testFile, artifacts in
        _ = failures { GoldenTimeline.check("one\ntwo\n", named: "g", filePath: testFile) }
        let messages = failures {
          GoldenTimeline.check("one\nthree\n", named: "g", filePath: testFile)
        }
        let message = try #require(messages.first)
        #expect(message.contains("-two\n+three"))
        let actual = artifacts.appendingPathComponent("FakeTests/g.actual.txt")
        #expect(message.contains(actual.path))
        #expect(try String(contentsOf: actual, encoding: .utf8) == "one\nthree\n")
        let rewritten = failures {
          GoldenTimeline.check("one\nthree\n", named: "g", record: .failed, filePath: testFile)
        }
        #expect(rewritten.first?.contains("1 line added, 1 removed") == true)
        #expect(GoldenTimeline.check("one\nthree\n", named: "g", filePath: testFile))
      }
    }
  }

  @MainActor
  @Suite("Failures a team can read", .uiKitModel)
  struct ReadableFailureTests {
    @Test("a hidden bar is its own difference, and colours seen through it say so")
    func hiddenBar() {
      let session = NavigationSession(root: UIViewController())
      session.navigationController.setNavigationBarHidden(true, animated: false)
      let seen = session.navigationController.navigationBar.asSeen(over: scenarioBackdrop)
      #expect(seen.isHidden && seen.description.hasPrefix("hidden (frame 0 20 375 44)"))
      let lines = ExpectedBar(background: .white, hidden: false).differences(from: seen)
      #expect(lines.first == "hidden: expected shown, seen hidden (frame 0 20 375 44)")
      #expect(lines.last?.hasSuffix("(the bar is hidden)") == true)
    }

    @Test("expectBar names the backdrop it composited over")
    func backdrop() {
      let session = NavigationSession(root: UIViewController())
      let bar = session.navigationController.navigationBar
      let messages = failures { expectBar(bar, ExpectedBar(translationY: -44)) }
      #expect(
        messages.first?.contains("composited over #33994DFF, the scenarios' backdrop") == true)
      let white = failures { expectBar(bar, ExpectedBar(translationY: -44), over: .white) }
      #expect(white.first?.contains("composited over #FFFFFFFF)") == true)
    }
  }

  @MainActor
  @Suite("Waiting until idle", .uiKitModel)
  struct IdleTests {
    @Test("a push is waited out by its driver: idle after it, busy during it")
    func push() {
      let session = NavigationSession(root: UIViewController())
      #expect(session.isIdle)
      session.navigationController.pushViewController(UIViewController(), animated: true)
      #expect(!session.isIdle)
      #expect(session.busyWork.contains { $0.hasPrefix("a transition of") })
      session.waitUntilIdle()
      #expect(session.isIdle && session.navigationController.viewControllers.count == 2)
    }

    @Test("a display link that never stops is reported after the limit, naming it")
    func displayLink() throws {
      let session = NavigationSession(root: UIViewController())
      let target = TickRecorder()
      if !TickRecorder.runtimeClass.instancesRespond(to: "idleTick:") {
        let tick = try imp_implementationWithBlock { (me: TickRecorder, _: ObjCObject?) in
          me.ticks.append(0)
        }
        class_addMethod(TickRecorder.runtimeClass, "idleTick:", tick, "v@:@")
      }
      let link = CADisplayLink(target: target, selector: "idleTick:")
      link.add(to: .main, forMode: .common)
      defer { link.invalidate() }
      let before = UIKitModelIssues.all.count
      let start = VirtualRunLoop.main.currentTime
      session.waitUntilIdle(limit: 0.5)
      let issues = UIKitModelIssues.all.dropFirst(before)
      #expect(issues.count == 1)
      #expect(
        issues.first?.description.contains("display link -[TickRecorder idleTick:]") == true,
        "\(issues)")
      #expect(abs(VirtualRunLoop.main.currentTime - start - 0.5) < 0.05, "waited the limit")
      link.isPaused = true
      #expect(session.isIdle, "a paused link keeps nothing busy")
    }
  }
}
