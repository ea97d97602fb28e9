// A scenario's checks: held, failed, known to fail on some profiles or devices, and the report
// the matrix reads.
import Foundation
import Hooks
import Scenarios
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("ScenarioReport")
  struct ScenarioReportTests {
    /// A scenario that checks a bar it turned blue, expecting `expected`, known to fail on
    /// `failsOn` and `devices`.
    private func scenario(
      expecting expected: UIColor, failsOn: Set<String> = [], devices: Set<DeviceProfile> = []
    ) -> Scenario {
      Scenario(name: "check", summary: "") { context in
        let session = context.start(root: UIViewController())
        session.navigationController.navigationBar.setBackgroundImage(
          UIImage(color: .blue), for: .default)
        context.expectBar(
          ExpectedBar(background: expected), "the bar", failsOn: failsOn, onDevices: devices)
      }
    }

    private func report(
      _ scenario: Scenario, ios: String = "13.0", device: DeviceProfile = .iPhone8
    )
      throws -> ScenarioReport
    {
      try scenario.check(
        options: ScenarioOptions(device: device, systemVersion: ios, plugins: []))
    }

    @Test("plugins' log lines are kept with their virtual time and the moment they came before")
    func log() throws {
      let log = PluginLog("logging-test")
      let scenario = Scenario(name: "logging", summary: "") { context in
        let session = context.start(root: UIViewController())
        log("launched")
        context.mark("start")
        session.push(UIViewController())
        log("pushed")
        DispatchQueue.main.async { log("from the main queue") }
        session.waitUntilIdle()
        context.mark("pushed")
        log("after the last moment")
        // Another thread's line is not the run's: it goes to standard error.
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          log("from another thread")
          written.signal()
        }
        written.wait()
      }
      let report = try report(scenario)
      let lines = report.log.filter { $0.plugin == "logging-test" }
      #expect(
        lines.map(\.message) == [
          "launched", "pushed", "from the main queue", "after the last moment",
        ])
      #expect(lines.map(\.moment) == [0, 1, 1, 2])
      #expect(lines[0].time == 0 && lines[1].time > 0 && lines[2].time >= lines[1].time)
      #expect(lines[3].time == report.moments[1].time)
      #expect(lines[0].description == "[logging-test] launched")
    }

    @Test("a check that holds is as expected; one that fails is a surprise, described")
    func heldAndFailed() throws {
      let held = try report(scenario(expecting: .blue))
      #expect(held.isAsExpected && !held.hasKnownFailures && held.checks.count == 1)
      let failed = try report(scenario(expecting: .red))
      #expect(!failed.isAsExpected)
      #expect(failed.firstSurprise?.hasPrefix("the bar: background: expected #FF0000FF") == true)
    }

    @Test("a failure where it is known is as expected; a pass there is a surprise")
    func knownFailures() throws {
      let known = try report(scenario(expecting: .red, failsOn: ["13"]))
      #expect(known.isAsExpected && known.hasKnownFailures)
      let elsewhere = try report(scenario(expecting: .red, failsOn: ["15"]))
      #expect(!elsewhere.isAsExpected, "known on 15, run on 13")
      let surprise = try report(scenario(expecting: .blue, failsOn: ["13"]))
      #expect(surprise.firstSurprise == "the bar: held, though known to fail here")
      let device = try report(
        scenario(expecting: .red, devices: [.iPhoneX]), device: .iPhoneX)
      #expect(device.isAsExpected && device.hasKnownFailures)
      let bothGiven = try report(
        scenario(expecting: .red, failsOn: ["15"], devices: [.iPhoneX]), device: .iPhoneX)
      #expect(!bothGiven.isAsExpected, "a known failure must match every set given")
    }
  }
}
