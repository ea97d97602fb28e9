// An RGBA image in memory, drawn with rectangles, and PNG files of it through libpng.
internal import CPNG
import Foundation

/// A picture the screen is drawn into: 8-bit RGBA, rows top to bottom, no padding.
///
/// ```swift
/// var image = RGBAImage(width: 4, height: 2, color: [1, 1, 1, 1])
/// image.fill(x: 0, y: 0, width: 2, height: 2, color: [1, 0, 0, 1])
/// // image.pixel(x: 0, y: 0) == [255, 0, 0, 255]
/// ```
public struct RGBAImage: Equatable, Sendable {
  /// The width in pixels.
  public let width: Int
  /// The height in pixels.
  public let height: Int
  /// The pixels, four bytes each (red, green, blue, alpha).
  public private(set) var pixels: [UInt8]

  /// The largest side an image may have: 8,192 pixels (an iPad's 1,366 points at 4x fit; an
  /// image that size is 256 MiB). A larger size is clamped to it, and a PNG larger than that is
  /// refused before anything is allocated.
  public static let maximumSide = 8_192

  /// A `width` x `height` image filled with `color` (components from 0 to 1). Sizes are
  /// clamped to 1 ... ``maximumSide``.
  public init(width: Int, height: Int, color: [Double] = [1, 1, 1, 1]) {
    self.width = min(RGBAImage.maximumSide, max(1, width))
    self.height = min(RGBAImage.maximumSide, max(1, height))
    let pixel = RGBAImage.bytes(color)
    pixels = Array(repeating: 0, count: self.width * self.height * 4)
    pixels.withUnsafeMutableBytes { bytes in
      // The first pixel written, then copied onto the rest in doubling runs.
      bytes.copyBytes(from: pixel)
      var filled = 4
      while filled < bytes.count {
        let run = min(filled, bytes.count - filled)
        bytes.baseAddress!.advanced(by: filled).copyMemory(
          from: bytes.baseAddress!, byteCount: run)
        filled += run
      }
    }
  }

  /// An image of `width` x `height` with `pixels` (four bytes a pixel), or nil when the count
  /// does not match the size.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width > 0, height > 0, width <= RGBAImage.maximumSide,
      height <= RGBAImage.maximumSide, pixels.count == width * height * 4
    else { return nil }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The colour of the pixel at (`x`, `y`), components from 0 to 255; nil outside the image.
  public func pixel(x: Int, y: Int) -> [UInt8]? {
    guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
    let start = (y * width + x) * 4
    return Array(pixels[start..<start + 4])
  }

  /// Paints the rectangle (in pixels, clipped to the image) with `color` at `opacity`, over
  /// what is there (source over); the result is opaque.
  public mutating func fill(
    x: Double, y: Double, width w: Double, height h: Double, color: [Double],
    opacity: Double = 1
  ) {
    let alpha = max(0, min(1, (color.count > 3 ? color[3] : 1) * opacity))
    guard alpha > 0, w.isFinite, h.isFinite, x.isFinite, y.isFinite else { return }
    let left = Int(max(0, min(Double(width), x.rounded())))
    let right = Int(max(0, min(Double(width), (x + w).rounded())))
    let top = Int(max(0, min(Double(height), y.rounded())))
    let bottom = Int(max(0, min(Double(height), (y + h).rounded())))
    guard left < right, top < bottom else { return }
    let source = RGBAImage.bytes(color)
    let imageWidth = width
    pixels.withUnsafeMutableBytes { bytes in
      if alpha >= 1 {
        // Opaque: the first row's pixels are written, the other rows copied from it.
        let first = (top * imageWidth + left) * 4
        for column in 0..<(right - left) {
          bytes[first + column * 4] = source[0]
          bytes[first + column * 4 + 1] = source[1]
          bytes[first + column * 4 + 2] = source[2]
          bytes[first + column * 4 + 3] = 255
        }
        let length = (right - left) * 4
        for row in (top + 1)..<max(top + 1, bottom) {
          let start = (row * imageWidth + left) * 4
          bytes.baseAddress!.advanced(by: start).copyMemory(
            from: bytes.baseAddress!.advanced(by: first), byteCount: length)
        }
        return
      }
      // Translucent: blended per channel in integers (alpha in 0...256).
      let weight = Int((alpha * 256).rounded())
      let red = Int(source[0]) * weight
      let green = Int(source[1]) * weight
      let blue = Int(source[2]) * weight
      let keep = 256 - weight
      for row in top..<bottom {
        var index = (row * imageWidth + left) * 4
        for _ in left..<right {
          bytes[index] = UInt8((red + Int(bytes[index]) * keep + 128) >> 8)
          bytes[index + 1] = UInt8((green + Int(bytes[index + 1]) * keep + 128) >> 8)
          bytes[index + 2] = UInt8((blue + Int(bytes[index + 2]) * keep + 128) >> 8)
          bytes[index + 3] = 255
          index += 4
        }
      }
    }
  }

  /// Whether this image has the size and pixels of `other`, compared as bytes.
  public static func == (lhs: RGBAImage, rhs: RGBAImage) -> Bool {
    guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
    return lhs.pixels.withUnsafeBytes { left in
      rhs.pixels.withUnsafeBytes { right in
        memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
      }
    }
  }

  /// Writes the image as a PNG file at `path`, replacing what is there at once: the file is
  /// written beside it under another name and renamed, so that a reader never sees half a file
  /// and a failed write leaves the old one.
  public func write(to path: String) throws(ImageFileError) {
    var message = [CChar](repeating: 0, count: 64)
    let temporary = "\(path).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).partial"
    let status = pixels.withUnsafeBufferPointer { buffer in
      cpng_write_rgba(temporary, buffer.baseAddress, UInt32(width), UInt32(height), &message)
    }
    guard status == 0 else {
      unlink(temporary)
      throw ImageFileError(path: path, reason: "libpng says \(RGBAImage.text(message))")
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw ImageFileError(path: path, reason: reason)
    }
  }

  /// Reads the PNG file at `path`, whatever its colour type, as 8-bit RGBA.
  public static func read(_ path: String) throws(ImageFileError) -> RGBAImage {
    var message = [CChar](repeating: 0, count: 64)
    var width: UInt32 = 0
    var height: UInt32 = 0
    guard cpng_read_rgba(path, &width, &height, nil, &message) == 0 else {
      throw ImageFileError(path: path, reason: "libpng says \(RGBAImage.text(message))")
    }
    guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
      throw ImageFileError(
        path: path, reason: "its size \(width)x\(height) is past \(maximumSide) pixels a side")
    }
    // libpng writes every byte of the buffer, or fails and the buffer is dropped; it is not
    // cleared first (a megabyte a screen).
    var status: Int32 = 1
    let count = Int(width) * Int(height) * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      status = cpng_read_rgba(path, &width, &height, buffer.baseAddress, &message)
      initialized = status == 0 ? count : 0
    }
    guard status == 0, let image = RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
    else {
      throw ImageFileError(path: path, reason: "libpng says \(RGBAImage.text(message))")
    }
    return image
  }

  /// libpng's message, up to its terminating zero.
  private static func text(_ message: [CChar]) -> String {
    String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A colour's components (0 to 1, alpha 1 when absent) as bytes.
  static func bytes(_ color: [Double]) -> [UInt8] {
    (0..<4).map { index in
      let value = index < color.count && color[index].isFinite ? color[index] : 1
      return UInt8((max(0, min(1, value)) * 255).rounded())
    }
  }
}

/// A PNG file that could not be read or written: its path, and why.
public struct ImageFileError: Error, Equatable, CustomStringConvertible {
  /// The file.
  public let path: String
  /// What went wrong (libpng's message, or the size).
  public let reason: String

  /// An error for `path`.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `could not read or write PATH: REASON`.
  public var description: String { "\(path): \(reason)" }
}
