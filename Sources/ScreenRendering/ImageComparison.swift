// Two images compared pixel by pixel: exactly, or within a perceptual distance (CIE94 ΔE, as
// swift-snapshot-testing's `perceptualPrecision` uses), with a picture of what changed.
import Foundation

/// How two images of one size differ: the pixels that differ beyond a perceptual tolerance,
/// and a picture of them.
///
/// ```swift
/// if let comparison = ImageComparison(actual, reference, perceptualPrecision: 0.98),
///   !comparison.matches(precision: 1)
/// {
///   try comparison.differenceImage().write(to: path)
/// }
/// ```
public struct ImageComparison: Sendable {
  /// The image seen.
  public let actual: RGBAImage
  /// The image expected.
  public let reference: RGBAImage
  /// The indices of the pixels that differ beyond the tolerance.
  public let differingPixels: [Int]
  /// The largest CIE94 colour distance between two pixels at one place (0 when equal; about
  /// 2.3 is the least a person notices).
  public let largestDistance: Double

  /// Compares `actual` with `reference`; nil when their sizes differ (a failure of its own,
  /// which no pixel count describes). A pixel differs when its CIE94 distance from the
  /// reference's is more than `(1 - perceptualPrecision) * 100` (1, the default, counts any
  /// change; 0.98 lets pass what the eye cannot tell).
  public init?(_ actual: RGBAImage, _ reference: RGBAImage, perceptualPrecision: Double = 1) {
    guard actual.width == reference.width, actual.height == reference.height else { return nil }
    self.actual = actual
    self.reference = reference
    let tolerance = max(0, (1 - min(1, max(0, perceptualPrecision))) * 100)
    var differing: [Int] = []
    var largest = 0.0
    if actual != reference {
      actual.pixels.withUnsafeBytes { seen in
        reference.pixels.withUnsafeBytes { wanted in
          for pixel in 0..<(actual.width * actual.height) {
            let start = pixel * 4
            if seen[start] == wanted[start], seen[start + 1] == wanted[start + 1],
              seen[start + 2] == wanted[start + 2], seen[start + 3] == wanted[start + 3]
            {
              continue
            }
            let distance = ImageComparison.distance(
              (seen[start], seen[start + 1], seen[start + 2]),
              (wanted[start], wanted[start + 1], wanted[start + 2]))
            // Alpha changes alone (both RGB equal) count as differences at any tolerance.
            let alphaOnly = distance == 0 && seen[start + 3] != wanted[start + 3]
            largest = max(largest, alphaOnly ? 100 : distance)
            if alphaOnly || distance > tolerance { differing.append(pixel) }
          }
        }
      }
    }
    differingPixels = differing
    largestDistance = largest
  }

  /// The number of pixels compared.
  public var pixelCount: Int { actual.width * actual.height }

  /// Whether at least `precision` of the pixels (1, the default: all of them) match.
  public func matches(precision: Double = 1) -> Bool {
    let allowed = (1 - min(1, max(0, precision))) * Double(pixelCount)
    return Double(differingPixels.count) <= allowed + 1e-9
  }

  /// The reference faded to light grey, with the differing pixels in magenta: where to look.
  public func differenceImage() -> RGBAImage {
    var pixels = reference.pixels
    for pixel in 0..<pixelCount {
      let start = pixel * 4
      let luma =
        (Int(pixels[start]) * 299 + Int(pixels[start + 1]) * 587 + Int(pixels[start + 2]) * 114)
        / 1000
      let faded = UInt8(191 + luma / 4)
      pixels[start] = faded
      pixels[start + 1] = faded
      pixels[start + 2] = faded
      pixels[start + 3] = 255
    }
    for pixel in differingPixels {
      pixels.replaceSubrange(pixel * 4..<pixel * 4 + 4, with: [255, 0, 255, 255])
    }
    return RGBAImage(width: reference.width, height: reference.height, pixels: pixels)!
  }

  /// `412 of 250,125 pixels differ (0.16 %), largest colour distance 45.2 (CIE94)`.
  public var summary: String {
    let percent = Double(differingPixels.count) / Double(max(1, pixelCount)) * 100
    return
      "\(differingPixels.count.formatted(.number.grouping(.automatic))) of "
      + "\(pixelCount.formatted(.number.grouping(.automatic))) pixels differ"
      + " (\(String(format: "%.2f", percent)) %), largest colour distance"
      + " \(String(format: "%.1f", largestDistance)) (CIE94)"
  }

  /// The CIE94 distance (graphic arts weights) between two sRGB colours.
  static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Double {
    let first = lab(a)
    let second = lab(b)
    let deltaL = first.l - second.l
    let chroma1 = (first.a * first.a + first.b * first.b).squareRoot()
    let chroma2 = (second.a * second.a + second.b * second.b).squareRoot()
    let deltaC = chroma1 - chroma2
    let deltaA = first.a - second.a
    let deltaB = first.b - second.b
    let deltaH2 = max(0, deltaA * deltaA + deltaB * deltaB - deltaC * deltaC)
    let sc = 1 + 0.045 * chroma1
    let sh = 1 + 0.015 * chroma1
    return (deltaL * deltaL + (deltaC / sc) * (deltaC / sc) + deltaH2 / (sh * sh)).squareRoot()
  }

  /// An sRGB colour in CIE L*a*b* (D65).
  private static func lab(_ color: (UInt8, UInt8, UInt8)) -> (l: Double, a: Double, b: Double) {
    func linear(_ value: UInt8) -> Double {
      let c = Double(value) / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    let r = linear(color.0)
    let g = linear(color.1)
    let b = linear(color.2)
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
  }
}
