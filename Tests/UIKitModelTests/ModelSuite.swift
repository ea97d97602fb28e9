// The UIKit model is confined to one thread, like UIKit's main thread: every suite of this target
// is nested in one serialized suite, and each test starts from a reset run loop.
import Foundation
import Testing
import UIKitModel

/// The parent of every UIKit model suite: its tests run one at a time.
@Suite("UIKit model", .serialized)
struct UIKitModelTests {}

/// Resets the model's run loop and issues, for a test that starts from nothing.
func freshModel() {
  VirtualRunLoop.main.reset()
  UIKitModelIssues.removeAll()
  UIScreen.main.profile = .iPhone8
  UIDevice.current.systemVersion = "13.0"
  UIApplication.shared.isViewControllerBasedStatusBarAppearance = true
}

/// Whether two numbers agree to 1e-9.
func close(_ a: CGFloat, _ b: CGFloat, tolerance: CGFloat = 1e-9) -> Bool {
  abs(a - b) <= tolerance
}
