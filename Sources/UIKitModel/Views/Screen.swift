// The device: screen sizes and status-bar heights by model, and the system version plugins
// branch on.
public import Foundation

/// The devices the model knows, with their screen size and status-bar height.
public enum DeviceProfile: String, CaseIterable, Sendable {
  /// 375 x 667, status bar 20.
  case iPhone8 = "iPhone 8"
  /// 375 x 812, status bar 44.
  case iPhoneX = "iPhone X"
  /// 375 x 812, status bar 44.
  case iPhoneXS = "iPhone XS"
  /// 414 x 896, status bar 44.
  case iPhoneXR = "iPhone XR"
  /// 414 x 896, status bar 44.
  case iPhoneXSMax = "iPhone XS Max"
  /// 393 x 852, status bar 54 (a current iPhone).
  case iPhone15 = "iPhone 15"
  /// 820 x 1180, status bar 24.
  case iPadAir = "iPad Air"

  /// The screen size in points.
  public var screenSize: CGSize {
    switch self {
    case .iPhone8: CGSize(width: 375, height: 667)
    case .iPhoneX, .iPhoneXS: CGSize(width: 375, height: 812)
    case .iPhoneXR, .iPhoneXSMax: CGSize(width: 414, height: 896)
    case .iPhone15: CGSize(width: 393, height: 852)
    case .iPadAir: CGSize(width: 820, height: 1180)
    }
  }

  /// The status bar's height in points.
  public var statusBarHeight: CGFloat {
    switch self {
    case .iPhone8: 20
    case .iPhoneX, .iPhoneXS, .iPhoneXR, .iPhoneXSMax: 44
    case .iPhone15: 54
    case .iPadAir: 24
    }
  }

  /// The home indicator's inset at the bottom of the screen, which a tab bar adds to its own
  /// height: 34 points on an iPhone without a home button (useyourloaf.com, "Supporting iPhone
  /// X": "our safe area now has a 34 point inset at the bottom"), none with one; 20 on the iPad
  /// Air without a home button (the model's figure: no source read here gives it).
  public var homeIndicatorInset: CGFloat {
    switch self {
    case .iPhone8: 0
    case .iPhoneX, .iPhoneXS, .iPhoneXR, .iPhoneXSMax, .iPhone15: 34
    case .iPadAir: 20
    }
  }

  /// Whether the device is an iPad (its bar is 50 points tall from iOS 12).
  public var isPad: Bool { self == .iPadAir }

  /// Finds a profile by name, case and spaces ignored (`iphone-x`, `iPhone X`).
  public static func named(_ name: String) -> DeviceProfile? {
    func key(_ text: String) -> String {
      text.lowercased().filter { $0.isLetter || $0.isNumber }
    }
    return allCases.first { key($0.rawValue) == key(name) }
  }
}

/// The screen, as UIKit's `UIScreen.main`.
@preconcurrency @MainActor
public final class UIScreen {
  /// The device's screen.
  public static let main = UIScreen()

  /// The device profile the model emulates.
  public var profile: DeviceProfile = .iPhone8

  /// The screen's bounds in points.
  public var bounds: CGRect { CGRect(origin: .zero, size: profile.screenSize) }
}

/// The device, as UIKit's `UIDevice.current`: its system version is settable, because plugins
/// branch on it (the bar hierarchy of iOS 10 differs from iOS 11's).
@preconcurrency @MainActor
public final class UIDevice {
  /// The device the model runs as.
  public static let current = UIDevice()

  /// The system version, such as `"13.0"` or `"10.3.1"`: one to three numbers separated by dots,
  /// the first from 2 to 99. Anything else is refused with an issue and the version kept, since
  /// the model picks the bar's hierarchy and rules by it.
  public var systemVersion: String {
    get { version }
    set {
      guard UIDevice.isSystemVersion(newValue) else {
        UIKitModelIssues.report(.invalidSystemVersion(newValue, kept: version))
        return
      }
      version = newValue
      majorSystemVersion = UIDevice.majorVersion(of: newValue)
      updateLinkedMajorVersion()
    }
  }

  private var version = "13.0"

  /// The version of the SDK the application was built with (Xcode's iOS SDK, `"14.0"`), or nil
  /// for the running version. Some of UIKit's changes apply only to applications built against
  /// the new SDK: an app built with the iOS 14 SDK keeps the old bar on iOS 15 (infinum/ios-loggie
  /// issue 22: "this happens only when building with new iOS sdk, included in Xcode 13"). A model
  /// door, not UIKit API (UIKit reads it from the binary); a version that does not read as one is
  /// refused with an issue and the previous one kept; one newer than the running version counts
  /// as the running version (``linkedMajorVersion``). A model reset sets it back to nil.
  public var linkedSDKVersion: String? {
    get { sdkVersion }
    set {
      if let newValue, !UIDevice.isSystemVersion(newValue) {
        UIKitModelIssues.report(.invalidSystemVersion(newValue, kept: sdkVersion ?? version))
        return
      }
      sdkVersion = newValue
      updateLinkedMajorVersion()
    }
  }

  private var sdkVersion: String?

  /// The major version whose behaviour an application gets where UIKit checks the SDK it was
  /// linked against: the older of the running version and ``linkedSDKVersion``.
  public private(set) var linkedMajorVersion = 13

  private func updateLinkedMajorVersion() {
    linkedMajorVersion = min(
      majorSystemVersion, sdkVersion.map(UIDevice.majorVersion(of:)) ?? majorSystemVersion)
  }

  /// Whether version `first` is newer than `second`, number by number (`14.2` is newer than
  /// `14.0`, `14` and `14.0` are the same); a part that is not a number counts as 0.
  nonisolated public static func isVersion(_ first: String, newerThan second: String) -> Bool {
    let numbers = { (text: String) in text.split(separator: ".").map { Int($0) ?? 0 } }
    let (a, b) = (numbers(first), numbers(second))
    for index in 0..<max(a.count, b.count) {
      let (x, y) = (index < a.count ? a[index] : 0, index < b.count ? b[index] : 0)
      if x != y { return x > y }
    }
    return false
  }

  /// Whether `text` reads as a system version.
  nonisolated public static func isSystemVersion(_ text: String) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count),
      parts.allSatisfy({ part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII)
          && part.allSatisfy(\.isNumber)
      }),
      let major = Int(parts[0]), (2...99).contains(major)
    else { return false }
    return true
  }

  /// The major version number (`13` for `"13.0"`), kept with the version: the model and the
  /// plugins branch on it in every frame.
  public private(set) var majorSystemVersion = 13

  /// The major version of `systemVersion` (`15` for `"15.0"`), 0 when it has none.
  nonisolated public static func majorVersion(of systemVersion: String) -> Int {
    Int(systemVersion.split(separator: ".").first ?? "") ?? 0
  }

  /// `iOS`.
  public var systemName: String { "iOS" }

  /// An identifier for the app's vendor on this device, as UIKit's `identifierForVendor`: the
  /// same for every read, and the same in every run (the model is deterministic), one per device
  /// profile. UIKit documents nil after a restart until the user unlocks the device, which the
  /// model does not model.
  public var identifierForVendor: UUID? {
    let index = UInt8(DeviceProfile.allCases.firstIndex(of: UIScreen.main.profile) ?? 0)
    // A version 4, variant 1 UUID whose last byte is the profile.
    return UUID(
      uuid: (
        0x53, 0x57, 0x49, 0x5A, 0x5A, 0x4C, 0x40, 0x4B, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        index
      ))
  }
}

extension UIDevice {
  /// Whether `api`, which came with iOS `major`, exists on this profile (for the application's
  /// SDK when `linked`); reports ``UIKitModelIssue/unavailable(api:introduced:running:)`` when
  /// not, so the caller changes nothing.
  static func isAvailable(_ api: String, from major: Int, linked: Bool = false) -> Bool {
    let device = UIDevice.current
    let version = linked ? device.linkedMajorVersion : device.majorSystemVersion
    guard version < major else { return true }
    let running =
      device.linkedMajorVersion < device.majorSystemVersion
      ? "iOS \(device.majorSystemVersion) with an application built with the iOS"
        + " \(device.linkedMajorVersion) SDK"
      : "iOS \(device.majorSystemVersion)"
    UIKitModelIssues.report(.unavailable(api: api, introduced: major, running: running))
    return false
  }
}
