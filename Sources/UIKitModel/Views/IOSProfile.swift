// The iOS versions the model tells apart, by the names users give them.
import Foundation

/// An iOS version the model draws differently, named the way users name it (`--ios 15`): what
/// changed there for navigation bars, which is where the seeds broke.
public struct IOSProfile: Sendable, Hashable, CustomStringConvertible {
  /// The name: `10`, `11`, `12`, `13`, `15`, `17`, `18`, `26` (`15/sdk14` for iOS 15 running an
  /// app built with the iOS 14 SDK).
  public let name: String
  /// The system version it runs (`15.0`).
  public let systemVersion: String
  /// The SDK the application was built with, when older than the system (`14.0`); nil for the
  /// running version.
  public let sdkVersion: String?
  /// What the model does differently from the profile before it.
  public let changes: String

  /// A profile named `name` running `systemVersion`, with an application built with the SDK
  /// `sdkVersion` (nil: the running version's).
  public init(name: String, systemVersion: String, sdkVersion: String? = nil, changes: String) {
    self.name = name
    self.systemVersion = systemVersion
    self.sdkVersion = sdkVersion
    self.changes = changes
  }

  /// `iOS 15`, or `iOS 15/sdk14` for an application built with an older SDK.
  public var description: String { "iOS \(name)" }

  /// iOS 10: the old bar (`_UINavigationBarBackground`, the title view and buttons straight in
  /// the bar, the private keys `_titleView`, `_leftViews`, `_rightViews`).
  public static let ios10 = IOSProfile(
    name: "10", systemVersion: "10.3",
    changes: "the old bar: _UINavigationBarBackground, _titleView and the buttons in the bar")
  /// iOS 11: the rebuilt bar (`_UIBarBackground`, `_UINavigationBarContentView`).
  public static let ios11 = IOSProfile(
    name: "11", systemVersion: "11.0",
    changes: "the rebuilt bar: _UIBarBackground and _UINavigationBarContentView; no _titleView")
  /// iOS 12: a presented navigation controller's bar gets its background only once in the
  /// window (WRNavigationBar issue 153).
  public static let ios12 = IOSProfile(
    name: "12", systemVersion: "12.0",
    changes: "a presented navigation controller's bar gets _UIBarBackground once in the window")
  /// iOS 13: `navigationBar:shouldPopItem:` returning YES after a manual pop is an error;
  /// `UINavigationBarAppearance`.
  public static let ios13 = IOSProfile(
    name: "13", systemVersion: "13.0",
    changes: "shouldPopItem after a manual pop is an error; UINavigationBarAppearance")
  /// iOS 15: the scroll-edge appearance (transparent unless set) at the top of the content.
  public static let ios15 = IOSProfile(
    name: "15", systemVersion: "15.0",
    changes: "the scroll-edge appearance at the top: bars with legacy looks turn transparent")
  /// iOS 17: as 15 for the model.
  public static let ios17 = IOSProfile(
    name: "17", systemVersion: "17.0", changes: "as 15 for the model")
  /// iOS 18: during a push or a pop the bar takes `_UIBarBackground` out and inserts it again
  /// at index 0, its own subviews back in their default state (HBDNavigationBar issue 188, pull
  /// request 191); meanwhile `subviews[0]` is a private view with a zero frame.
  public static let ios18 = IOSProfile(
    name: "18", systemVersion: "18.0",
    changes: "a push or pop re-inserts _UIBarBackground, its subviews reset; subviews[0] differs"
      + " meanwhile")

  /// iOS 26: the Liquid Glass design for an app built with the iOS 26 SDK (unless
  /// `UIDesignRequiresCompatibility`): bar button items share a glass background unless
  /// `hidesSharedBackground` is set. The model draws no glass; `Docs/UIKitModel.md` lists what
  /// is and is not modelled.
  public static let ios26 = IOSProfile(
    name: "26", systemVersion: "26.0",
    changes: "Liquid Glass: bar button items on a shared background unless"
      + " hidesSharedBackground (the material is not drawn)")

  /// iOS 15 running an application built with the iOS 14 SDK: the bar keeps the iOS 14 look
  /// at the scroll edge (the scroll-edge appearance for every bar came with the iOS 15 SDK;
  /// infinum/ios-loggie issue 22, Apple developer forums thread 682420).
  public static let ios15sdk14 = IOSProfile(
    name: "15/sdk14", systemVersion: "15.0", sdkVersion: "14.0",
    changes: "iOS 15 with an app built with the iOS 14 SDK: no scroll-edge look for every bar")

  /// Every system version the model tells apart, oldest first, each with an application built
  /// with its own SDK.
  public static let all: [IOSProfile] = [ios10, ios11, ios12, ios13, ios15, ios17, ios18, ios26]

  /// The profiles a matrix runs: ``all``, and beside iOS 15 the application built with the iOS
  /// 14 SDK.
  public static let matrix: [IOSProfile] = [
    ios10, ios11, ios12, ios13, ios15sdk14, ios15, ios17, ios18, ios26,
  ]

  /// The major version the profile runs (`15`).
  public var majorVersion: Int { UIDevice.majorVersion(of: systemVersion) }

  /// The major version whose behaviour the application gets where UIKit checks the SDK it was
  /// linked against: the older of the system's and the SDK's.
  public var linkedMajorVersion: Int {
    min(majorVersion, sdkVersion.map(UIDevice.majorVersion(of:)) ?? majorVersion)
  }

  /// The names of every matrix profile running iOS `major` or later: for a check that fails
  /// from the version where UIKit changed (`IOSProfile.names(from: 11)`), so a profile added
  /// later is included.
  public static func names(from major: Int) -> Set<String> {
    Set(matrix.filter { $0.majorVersion >= major }.map(\.name))
  }

  /// The names of every matrix profile whose application gets the behaviour of iOS `major` or
  /// later where UIKit checks the linked SDK: for a check that fails from a change that applies
  /// only to apps built with the new SDK (`IOSProfile.names(linkedFrom: 15)`).
  public static func names(linkedFrom major: Int) -> Set<String> {
    Set(matrix.filter { $0.linkedMajorVersion >= major }.map(\.name))
  }

  /// The profile running `systemVersion` with an application built with `sdkVersion` (nil: the
  /// running version's), if the matrix has one.
  public static func running(_ systemVersion: String, sdk sdkVersion: String?) -> IOSProfile? {
    let sdkMajor = sdkVersion.map(UIDevice.majorVersion(of:))
    return matrix.first { profile in
      profile.systemVersion == systemVersion
        && (profile.sdkVersion.map(UIDevice.majorVersion(of:)) ?? profile.majorVersion)
          == (sdkMajor ?? profile.majorVersion)
    }
  }

  /// The profile named `name` (`15`, `15/sdk14`), or whose system version is `name` (`15.0`,
  /// with the application built with that version's SDK).
  public static func named(_ name: String) -> IOSProfile? {
    matrix.first { $0.name == name } ?? all.first { $0.systemVersion == name }
  }
}
