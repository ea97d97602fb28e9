// How the lab writes colours, numbers and times: the same way everywhere, so that output is byte
// for byte stable.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import UIKitModel

/// Formats colours and numbers the same way everywhere, so that output is byte for byte stable.
enum Format {
  static func hex(_ color: UIColorComponents) -> String {
    String(color.color.hexDescription.prefix(7))
  }

  static func number(_ value: CGFloat, digits: Int = 2) -> String {
    String(format: "%.\(digits)f", Double(value) == 0 ? 0 : Double(value))
  }

  static func time(_ value: TimeInterval) -> String { String(format: "%.3fs", value) }

  /// The status bar style by UIKit's name for it, as the testing library's timelines write it
  /// (`default` is not `darkContent`: from iOS 13 it follows the interface style).
  static func status(_ style: UIStatusBarStyle) -> String {
    switch style {
    case .default: "default"
    case .darkContent: "darkContent"
    case .lightContent: "lightContent"
    }
  }

  /// What a moment's line adds when it is not the usual: a hidden bar (whose colours are what
  /// is behind it), the title's or the buttons' alpha below 1, and the status bar's strip in
  /// another colour than the bar (an overlay too short for the device).
  static func exceptions(_ bar: SeenBar) -> String {
    var parts: [String] = []
    if bar.isHidden { parts.append("bar hidden") }
    if bar.titleColor.alpha < 0.995 || bar.buttonAlpha < 0.995 {
      parts.append(
        "elements \(number(bar.titleColor.alpha))/\(number(bar.buttonAlpha))")
    }
    if bar.statusBarAreaColor != bar.backgroundColor {
      parts.append("status area \(hex(bar.statusBarAreaColor))")
    }
    return parts.isEmpty ? "" : "\n            " + parts.joined(separator: "  ")
  }

  /// The bar as a strip: in 24-bit colour on a terminal (the background, with the title in its
  /// colour), else its hex value.
  static func strip(_ bar: SeenBar, title: String, color: Bool) -> String {
    guard color else { return "[\(hex(bar.backgroundColor))]" }
    func channel(_ value: CGFloat) -> Int { Int((max(0, min(1, value)) * 255).rounded()) }
    let background = bar.backgroundColor
    let text = bar.titleColor
    let label = String(title.prefix(8)).padding(toLength: 8, withPad: " ", startingAt: 0)
    return "\u{1B}[48;2;\(channel(background.red));\(channel(background.green));"
      + "\(channel(background.blue))m\u{1B}[38;2;\(channel(text.red));\(channel(text.green));"
      + "\(channel(text.blue))m \(label)\u{1B}[0m"
  }
}
