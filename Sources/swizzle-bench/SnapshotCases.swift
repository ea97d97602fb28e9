// What an image snapshot costs: one screen drawn, its reference read from a PNG and compared;
// and a matrix cell with a snapshot of each moment against the cell without.
import Foundation
import Scenarios
import ScreenRendering
import UIKitModel

enum SnapshotCases {
  static let all: [BenchCase] = [
    BenchCase(
      name: "snapshot-compare",
      target: "<= 5 ms of CPU (15,000,000 instructions at 3 a nanosecond): one screen drawn, its"
        + " PNG reference read and compared",
      limit: 15_000_000, iterations: (10, 30), body: compares),
    BenchCase(
      name: "scenario-run-snapshots",
      target: "<= 2x scenario-run (a matrix cell with a snapshot: its last moment's)",
      limit: 2, iterations: (36, 108), body: runsWithSnapshots, relativeTo: "scenario-run",
      relativeFactor: true),
  ]

  /// A folder of the benchmark's references, made once per process.
  private static let folder: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("swizzle-bench-snapshots-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// `count` comparisons of an iPhone 8's screen (a pushed page under a coloured bar) with its
  /// reference on disk.
  @MainActor static func compares(_ count: Int) -> Int {
    UIApplication.resetModel()
    let session = NavigationSession(root: UIViewController())
    let page = UIViewController()
    page.title = "Profile"
    session.push(page)
    session.navigationController.navigationBar.barTintColor = .orange
    guard let frame = ScreenFrame.current() else { return 0 }
    let path = folder.appendingPathComponent("compare.png").path
    try? frame.image().write(to: path)
    var matched = 0
    Stopwatch.time {
      for _ in 0..<count {
        guard let reference = try? RGBAImage.read(path) else { continue }
        if frame.image() == reference { matched += 1 }
      }
    }
    return matched
  }

  /// The cells `scenario-run` cycles through, with each moment's reference written once (the
  /// most a measured run takes, so that the set-up is the same for every count).
  @MainActor private static let references: [(Scenario, IOSProfile, [String])] = {
    let scenarios = ScenarioCatalog.all()
    guard !scenarios.isEmpty else { return [] }
    return (0..<108).map { index in
      let scenario = scenarios[index % scenarios.count]
      let profile = IOSProfile.matrix[(index / scenarios.count) % IOSProfile.matrix.count]
      let options = ScenarioOptions(profile: profile)
      let moments = (try? scenario.run(options: options)) ?? []
      let paths = moments.suffix(1).map { moment in
        let path = folder.appendingPathComponent("cell-\(index).png").path
        try? ScreenFrame(moment: moment, options: options).image().write(to: path)
        return path
      }
      return (scenario, profile, paths)
    }
  }()

  /// `count` scenario runs as `scenario-run` makes them, each with a snapshot: its last moment's
  /// screen drawn and compared with its reference on disk, as `expectSnapshot` does.
  @MainActor static func runsWithSnapshots(_ count: Int) -> Int {
    let cells = references
    guard !cells.isEmpty else { return 0 }
    var matched = 0
    Stopwatch.time {
      for index in 0..<count {
        let (scenario, profile, paths) = cells[index % cells.count]
        let options = ScenarioOptions(profile: profile)
        let moments = (try? scenario.run(options: options)) ?? []
        for (moment, path) in zip(moments.suffix(1), paths) {
          guard let reference = try? RGBAImage.read(path) else { continue }
          if ScreenFrame(moment: moment, options: options).image() == reference { matched += 1 }
        }
      }
    }
    return matched
  }
}
