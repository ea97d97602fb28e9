// The breakage gallery: every entry names a scenario that, on the entry's device and profile,
// fails in its seed half as the report says and holds in its fixed half.
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

@testable import SwizzleLab

@MainActor
@Suite("Breakage gallery", .uiKitModel)
struct GalleryTests {
  @Test("each breakage fails where it was reported, as known, and its fix holds there")
  func reproduced() throws {
    let gallery = BreakageGallery.all()
    #expect(gallery.count >= 9)
    #expect(Set(gallery.map(\.name)).count == gallery.count, "names are unique")
    for breakage in gallery {
      let scenario = try #require(
        ScenarioCatalog.named(breakage.scenario), "\(breakage.name): no scenario")
      let report = try scenario.check(options: breakage.options)
      #expect(report.isAsExpected, "\(breakage.name): \(report.firstSurprise ?? "")")
      #expect(report.hasKnownFailures, "\(breakage.name): the seed half fails there")
      #expect(
        report.checks.contains { $0.held && !$0.isKnownFailure },
        "\(breakage.name): the fixed half holds there")
      #expect(breakage.report.contains(" issue ") || breakage.report.contains(" pull request "))
    }
  }

  @Test("the lab lists the gallery, runs an entry, and refuses an unknown name with the list")
  func lab() {
    UIApplication.resetModel()
    let list = CapturedOutput(terminal: false)
    #expect(Lab.main(["gallery"], output: list, environment: [:]) == .ok)
    #expect(list.standardOutput.contains("  et-33    EnderTan/ETNavBarTransparent issue 33"))
    let run = CapturedOutput(terminal: false)
    #expect(Lab.main(["gallery", "et-33", "--no-color"], output: run, environment: [:]) == .ok)
    #expect(run.standardOutput.contains("iPhone 8, iOS 12.0, plugin transparent"))
    let unknown = CapturedOutput(terminal: false)
    #expect(Lab.main(["gallery", "nope"], output: unknown, environment: [:]) == .usage)
    #expect(unknown.standardError.hasPrefix("error: no breakage 'nope'; the gallery: "))
  }
}
