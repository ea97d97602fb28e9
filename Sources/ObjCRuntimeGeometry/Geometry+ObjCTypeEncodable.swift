// The @encode of Foundation's geometry types, kept out of ObjCRuntime so the runtime itself never
// loads Foundation.
public import Foundation
public import ObjCRuntime

extension CGFloat: ObjCScalar {
  /// `d`: a `CGFloat` is a `double` on 64-bit machines.
  public static var objcTypeEncoding: String { "d" }
  /// Travels in a floating-point register.
  @inlinable public static var registerKind: ObjCRegisterKind { .floatingPoint }
  /// `d`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "d") }
  /// The IEEE 754 bits of the double.
  @inlinable public var registerBits: UInt64 { Double(self).bitPattern }
  /// The double in the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> CGFloat? {
    CGFloat(Double(bitPattern: bits))
  }
}

extension CGPoint: ObjCTypeEncodable {
  /// `{CGPoint=dd}`, as clang encodes it on 64-bit machines.
  public static var objcTypeEncoding: String { "{CGPoint=dd}" }
}

extension CGSize: ObjCTypeEncodable {
  /// `{CGSize=dd}`.
  public static var objcTypeEncoding: String { "{CGSize=dd}" }
}

extension CGRect: ObjCTypeEncodable {
  /// `{CGRect={CGPoint=dd}{CGSize=dd}}`.
  public static var objcTypeEncoding: String { "{CGRect={CGPoint=dd}{CGSize=dd}}" }
}

extension AffineTransform: ObjCTypeEncodable {
  /// `{CGAffineTransform=dddddd}`: Foundation on Linux has no `CGAffineTransform`, but its
  /// `AffineTransform` has the same six doubles in the same order (a, b, c, d, tx, ty).
  public static var objcTypeEncoding: String { "{CGAffineTransform=dddddd}" }
}
