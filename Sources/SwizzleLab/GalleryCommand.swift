// The gallery: breakages users reported against navigation-bar libraries, listed with their
// sources, and each run on the device and iOS profile where it happened.
import Foundation
import Scenarios
import UIKitModel

enum GalleryCommand {
  /// With no name, lists the breakages; with one, tells its story and runs its scenario on its
  /// device and profile (the seed half fails there, the fixed half holds).
  @MainActor static func run(
    name: String?, _ options: Options, output: LabOutput, environment: [String: String]
  )
    throws(LabError) -> LabExit
  {
    let gallery = BreakageGallery.all()
    guard let name else {
      output.out(listText(gallery))
      return .ok
    }
    guard let breakage = gallery.first(where: { $0.name == name }) else {
      throw .usage(
        "no breakage '\(name)'; the gallery: "
          + (gallery.isEmpty ? "empty" : gallery.map(\.name).joined(separator: ", ")),
        topic: "gallery")
    }
    let story = [
      "\(breakage.name): \(breakage.library), \(breakage.report)",
      "reported: \(breakage.reported)",
      "why: \(breakage.mechanism)",
    ]
    output.out(story.flatMap { Lab.wrap($0, width: 79) }.joined(separator: "\n") + "\n\n")
    var run = options
    run.scenario = breakage.scenario
    run.device = breakage.device
    run.systemVersion = breakage.profile.systemVersion
    run.sdkVersion = breakage.profile.sdkVersion
    return try RunCommand.run(run, output: output, environment: environment)
  }

  static func listText(_ gallery: [Breakage]) -> String {
    guard !gallery.isEmpty else {
      return "the gallery is empty: no loaded plugin lists a breakage\n"
    }
    let width = gallery.map(\.name.count).max() ?? 0
    var lines = ["BREAKAGES (swizzle-lab gallery NAME runs one where it happened)"]
    for breakage in gallery {
      let lead = "  " + breakage.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
      let text =
        "\(breakage.report), \(breakage.device.rawValue), \(breakage.profile):"
        + " \(breakage.reported) [scenario \(breakage.scenario)]"
      for (index, line) in Lab.wrap(text, width: 79 - lead.count).enumerated() {
        lines.append((index == 0 ? lead : String(repeating: " ", count: lead.count)) + line)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
