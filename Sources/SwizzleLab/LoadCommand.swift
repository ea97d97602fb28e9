// `load`: opens a plugin library and lists what it brings.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import UIKitModel

/// `load` and `--load`: a plugin library.
enum LoadCommand {
  @MainActor static func run(path: String, output: LabOutput) -> LabExit {
    do {
      try load(path, output: output, reportingTo: output.out)
      return .ok
    } catch {
      output.err("error: \(error.message)\n")
      return .failure
    }
  }

  /// Loads the library at `path` and says what it brought (to `report`: standard output for
  /// `load`, standard error for `--load`, whose command owns standard output): its plugins
  /// (registered) and their scenarios. A library that cannot be opened, carries a second copy
  /// of SwizzleKit or brings no plugin is a failure.
  @MainActor static func load(
    _ path: String, output: LabOutput, reportingTo report: (String) -> Void
  )
    throws(LabError)
  {
    let before = Set(ScenarioCatalog.all().map(\.name))
    let library: LibraryReport
    do {
      library = try PluginRegistry.shared.loadLibrary(at: path)
    } catch {
      throw .failure(error.description)
    }
    for refusal in library.refused {
      output.err("warning: \(refusal)\n")
    }
    guard library.alreadyLoaded.isEmpty || !library.plugins.isEmpty else {
      report(
        "\(path) was loaded before; plugins: \(library.alreadyLoaded.joined(separator: ", "))\n")
      return
    }
    guard !library.plugins.isEmpty else {
      throw .failure(
        "\(path) brings no plugin (no DiscoverablePlugin type, and none registered at awake)")
    }
    let scenarios = ScenarioCatalog.all().map(\.name).filter { !before.contains($0) }
    report("loaded \(path)\n")
    report("plugins: \(library.plugins.joined(separator: ", "))\n")
    report("scenarios: \(scenarios.isEmpty ? "none" : scenarios.joined(separator: ", "))\n")
  }
}
