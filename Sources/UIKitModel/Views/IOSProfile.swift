// The iOS versions the model tells apart, by the names users give them.
import Foundation

/// An iOS version the model draws differently, named the way users name it (`--ios 15`): what
/// changed there for navigation bars, which is where the seeds broke.
public struct IOSProfile: Sendable, Hashable, CustomStringConvertible {
  /// The name: `10`, `11`, `12`, `13`, `15`, `17`, `18`.
  public let name: String
  /// The system version it runs (`15.0`).
  public let systemVersion: String
  /// What the model does differently from the profile before it.
  public let changes: String

  /// `iOS 15`.
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
  /// iOS 12: as 11 for the model.
  public static let ios12 = IOSProfile(
    name: "12", systemVersion: "12.0", changes: "as 11 for the model")
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

  /// Every profile, oldest first.
  public static let all: [IOSProfile] = [ios10, ios11, ios12, ios13, ios15, ios17, ios18]

  /// The major version the profile runs (`15`).
  public var majorVersion: Int { UIDevice.majorVersion(of: systemVersion) }

  /// The names of every profile from iOS `major` on: for a check that fails from the version
  /// where UIKit changed (`IOSProfile.names(from: 15)`), so a profile added later is included.
  public static func names(from major: Int) -> Set<String> {
    Set(all.filter { $0.majorVersion >= major }.map(\.name))
  }

  /// The profile named `name` (`15`), or whose system version is `name` (`15.0`).
  public static func named(_ name: String) -> IOSProfile? {
    all.first { $0.name == name || $0.systemVersion == name }
  }
}
