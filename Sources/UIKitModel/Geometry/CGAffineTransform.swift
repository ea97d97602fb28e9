// CGAffineTransform: Foundation on Linux has no such type, so the model defines it, with Core
// Graphics' names and semantics.
public import Foundation
public import ObjCRuntime

/// A 2-D affine transform, as Core Graphics defines it: a point (x, y) maps to
/// (a·x + c·y + tx, b·x + d·y + ty).
///
/// The navigation-bar techniques use it to move the bar up (`translationY` is `transform.ty`).
public struct CGAffineTransform: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The matrix entries.
  public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

  /// A transform from its six entries.
  public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// The identity: maps every point to itself.
  public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// A translation.
  public init(translationX tx: CGFloat, y ty: CGFloat) {
    self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
  }

  /// A scale.
  public init(scaleX sx: CGFloat, y sy: CGFloat) {
    self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  /// A rotation by `angle` radians (counter-clockwise in a y-up space, clockwise on screen).
  public init(rotationAngle angle: CGFloat) {
    let cosine = CGFloat(Foundation.cos(Double(angle)))
    let sine = CGFloat(Foundation.sin(Double(angle)))
    self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
  }

  /// Whether this is the identity.
  public var isIdentity: Bool { self == .identity }

  /// This transform followed by `other` (Core Graphics' `CGAffineTransformConcat(self, other)`).
  public func concatenating(_ other: CGAffineTransform) -> CGAffineTransform {
    CGAffineTransform(
      a: a * other.a + b * other.c, b: a * other.b + b * other.d,
      c: c * other.a + d * other.c, d: c * other.b + d * other.d,
      tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
  }

  /// The inverse, or the transform unchanged when it cannot be inverted (as Core Graphics does).
  public func inverted() -> CGAffineTransform {
    let determinant = a * d - b * c
    guard determinant != 0, determinant.isFinite else { return self }
    return CGAffineTransform(
      a: d / determinant, b: -b / determinant, c: -c / determinant, d: a / determinant,
      tx: (c * ty - d * tx) / determinant, ty: (b * tx - a * ty) / determinant)
  }

  /// A translation applied before this transform.
  public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
    CGAffineTransform(translationX: x, y: y).concatenating(self)
  }

  /// A scale applied before this transform.
  public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
    CGAffineTransform(scaleX: x, y: y).concatenating(self)
  }

  /// A rotation applied before this transform.
  public func rotated(by angle: CGFloat) -> CGAffineTransform {
    CGAffineTransform(rotationAngle: angle).concatenating(self)
  }

  /// `[a, b, c, d, tx, ty]`.
  public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

extension CGAffineTransform: ObjCTypeEncodable {
  /// `{CGAffineTransform=dddddd}`, as clang encodes it on 64-bit machines.
  public static var objcTypeEncoding: String { "{CGAffineTransform=dddddd}" }
}

extension CGPoint {
  /// The point mapped by `transform`.
  public func applying(_ transform: CGAffineTransform) -> CGPoint {
    CGPoint(
      x: transform.a * x + transform.c * y + transform.tx,
      y: transform.b * x + transform.d * y + transform.ty)
  }
}

/// Insets from the edges of a rectangle, as UIKit's `UIEdgeInsets`.
public struct UIEdgeInsets: Equatable, Hashable, Sendable, ObjCTypeEncodable {
  /// The insets.
  public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat

  /// Insets from their four values.
  public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// No inset.
  public static let zero = UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

  /// `{UIEdgeInsets=dddd}`.
  public static var objcTypeEncoding: String { "{UIEdgeInsets=dddd}" }
}

extension CGRect {
  /// The rectangle shrunk by `insets`.
  public func inset(by insets: UIEdgeInsets) -> CGRect {
    CGRect(
      x: origin.x + insets.left, y: origin.y + insets.top,
      width: size.width - insets.left - insets.right,
      height: size.height - insets.top - insets.bottom)
  }
}
