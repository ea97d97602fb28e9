// The gallery: breakages users reported against navigation-bar libraries, each reproduced by a
// scenario on the device and iOS profile where it happened.
import Hooks
public import UIKitModel

/// A breakage that users reported against a navigation-bar library (a seed or one of its peers),
/// reproduced by one of a plugin's scenarios: its seed half fails there as the report says, its
/// fixed half holds.
///
/// The report is the source: ``mechanism`` says only what the report (or the model's source for
/// it, named in `Docs/UIKitModel.md`) gives.
public struct Breakage: Sendable, Hashable {
  /// The name used on the command line (`lt-62`).
  public let name: String
  /// The library it was reported against (`LTNavigationBar`).
  public let library: String
  /// The report: the repository and the issue or pull request (`ltebean/LTNavigationBar issue
  /// 62`).
  public let report: String
  /// What the users saw, in a line.
  public let reported: String
  /// Why it happens, as the report and the model's sources give it.
  public let mechanism: String
  /// The scenario that reproduces it (its seed half fails there, its fixed half holds).
  public let scenario: String
  /// The device it runs on.
  public let device: DeviceProfile
  /// The iOS profile (and SDK) where it happened.
  public let profile: IOSProfile

  /// A breakage from its parts.
  public init(
    name: String, library: String, report: String, reported: String, mechanism: String,
    scenario: String, device: DeviceProfile = .iPhone8, profile: IOSProfile
  ) {
    self.name = name
    self.library = library
    self.report = report
    self.reported = reported
    self.mechanism = mechanism
    self.scenario = scenario
    self.device = device
    self.profile = profile
  }

  /// The options its scenario runs with: its device and profile.
  public var options: ScenarioOptions { ScenarioOptions(device: device, profile: profile) }
}

/// A plugin whose scenarios reproduce reported breakages (``Breakage``), listed in the gallery.
public protocol BreakageGalleryPlugin: ScenarioPlugin {
  /// The breakages, each naming one of ``ScenarioPlugin/scenarios``; read on the main actor,
  /// as the scenarios are.
  @MainActor var breakages: [Breakage] { get }
}

/// Every breakage the loaded plugins reproduce, found through plugin discovery.
@MainActor
public enum BreakageGallery {
  /// The breakages of every ``BreakageGalleryPlugin`` registered, by plugin in the order of
  /// their short names, each plugin's in its own order.
  public static func all() -> [Breakage] {
    let registry = PluginRegistry.shared
    _ = try? registry.discover()
    let plugins = registry.plugins.sorted { ($0.name, $0.identifier) < ($1.name, $1.identifier) }
    return plugins.flatMap { info -> [Breakage] in
      (registry.plugin(named: info.identifier) as? any BreakageGalleryPlugin)?.breakages ?? []
    }
  }

  /// The breakage named `name`, if a loaded plugin reproduces one.
  public static func named(_ name: String) -> Breakage? {
    all().first { $0.name == name }
  }
}
