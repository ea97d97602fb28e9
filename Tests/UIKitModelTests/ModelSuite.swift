// The UIKit model is confined to one thread at a time, like UIKit's main thread: the
// `.uiKitModel` trait of SwizzleKitTesting gives every test of this target a fresh model and runs
// it alone among the model-driving tests of every target.
import Foundation
import SwizzleKitTesting
import Testing
import UIKitModel

/// The parent of every UIKit model suite.
@MainActor
@Suite("UIKit model", .uiKitModel)
struct UIKitModelTests {}

/// Resets the model again, for a test that starts over half way.
@MainActor func freshModel() {
  UIApplication.resetModel()
}

/// Whether two numbers agree to 1e-9.
func close(_ a: CGFloat, _ b: CGFloat, tolerance: CGFloat = 1e-9) -> Bool {
  abs(a - b) <= tolerance
}
