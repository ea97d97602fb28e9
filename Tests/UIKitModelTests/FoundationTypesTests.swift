// Geometry and colour: CGAffineTransform's algebra, UIColor's components, equality and
// compositing.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("CGAffineTransform")
  struct TransformTests {
    @Test("translation, scale and rotation map points as Core Graphics does")
    func mapping() {
      let point = CGPoint(x: 2, y: 3)
      #expect(point.applying(CGAffineTransformMakeTranslation(10, -4)) == CGPoint(x: 12, y: -1))
      #expect(point.applying(CGAffineTransformMakeScale(2, 3)) == CGPoint(x: 4, y: 9))
      let rotated = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
      #expect(close(rotated.x, 0) && close(rotated.y, 1))
      #expect(CGAffineTransform(translationX: 0, y: -44).ty == -44)
    }

    @Test("concatenation applies the first transform first; inversion undoes it")
    func algebra() {
      let scale = CGAffineTransform(scaleX: 2, y: 2)
      let move = CGAffineTransform(translationX: 5, y: 0)
      let point = CGPoint(x: 1, y: 1)
      #expect(point.applying(scale.concatenating(move)) == CGPoint(x: 7, y: 2))
      #expect(point.applying(move.concatenating(scale)) == CGPoint(x: 12, y: 2))
      let both = scale.concatenating(move)
      #expect(point.applying(both).applying(both.inverted()) == point)
      #expect(CGAffineTransformConcat(both, CGAffineTransformInvert(both)).isIdentity)
      let singular = CGAffineTransform(scaleX: 0, y: 1)
      #expect(singular.inverted() == singular, "not invertible: returned unchanged")
    }
  }

  @MainActor
  @Suite("UIColor")
  struct ColorTests {
    @Test("components come back through getRed(_:green:blue:alpha:)")
    func components() {
      var (red, green, blue, alpha): (CGFloat, CGFloat, CGFloat, CGFloat) = (-1, -1, -1, -1)
      #expect(UIColor.systemBlue.getRed(&red, green: &green, blue: &blue, alpha: &alpha))
      #expect(red == 0 && close(green, 0.478431, tolerance: 1e-6) && blue == 1 && alpha == 1)
      #expect(UIColor(white: 0.5, alpha: 0.25).withAlphaComponent(1).alpha == 1)
    }

    /// Apple's documentation of `init(red:green:blue:alpha:)`: "Alpha values below 0.0 are
    /// interpreted as 0.0, and values above 1.0 are interpreted as 1.0"; the colour components
    /// keep extended-range values.
    @Test("alpha is clamped to 0...1, the colour components are kept as given")
    func alphaClamped() {
      #expect(UIColor(red: 1, green: 0, blue: 0, alpha: 1.5).alpha == 1)
      #expect(UIColor(white: 0.5, alpha: -0.25).alpha == 0)
      #expect(UIColor.red.withAlphaComponent(7).alpha == 1)
      #expect(UIColor(red: 1.25, green: -0.5, blue: 0, alpha: 1).red == 1.25)
    }

    @Test("equality is by components; hex descriptions round to 8 bits")
    func equality() {
      #expect(UIColor(red: 1, green: 1, blue: 1, alpha: 1) == UIColor.white)
      #expect(UIColor(red: 1, green: 1, blue: 1, alpha: 0.5) != UIColor.white)
      #expect(UIColor(hex: 0x3A7BD5).hexDescription == "#3A7BD5FF")
      #expect(UIColor.clear.hexDescription == "#00000000")
    }

    @Test("compositing over a background and interpolating, as the bar query needs")
    func compositing() {
      let half = UIColor.black.withAlphaComponent(0.5).composited(over: .white)
      #expect(close(half.red, 0.5) && half.alpha == 1)
      #expect(UIColor.red.composited(over: .white, opacity: 0) == UIColor.white)
      let middle = UIColor.black.interpolated(to: .white, fraction: 0.25)
      #expect(close(middle.green, 0.25))
    }
  }
}
