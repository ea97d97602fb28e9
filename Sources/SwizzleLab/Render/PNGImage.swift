// An RGBA image in memory, drawn with rectangles, and PNG files of it through libpng.
internal import CPNG

/// A picture the lab draws its frames into: 8-bit RGBA, rows top to bottom.
struct PNGImage: Equatable {
  /// Width and height in pixels.
  let width: Int
  let height: Int
  /// The pixels, four bytes each (red, green, blue, alpha).
  private(set) var pixels: [UInt8]

  /// A `width` x `height` image filled with `color` (components from 0 to 1).
  init(width: Int, height: Int, color: [Double] = [1, 1, 1, 1]) {
    self.width = max(1, width)
    self.height = max(1, height)
    let pixel = PNGImage.bytes(color)
    pixels = Array(repeating: 0, count: self.width * self.height * 4)
    for index in 0..<(self.width * self.height) {
      pixels.replaceSubrange(index * 4..<index * 4 + 4, with: pixel)
    }
  }

  /// The color of the pixel at (`x`, `y`), components from 0 to 255.
  func pixel(x: Int, y: Int) -> [UInt8] {
    let start = (y * width + x) * 4
    return Array(pixels[start..<start + 4])
  }

  /// Paints the rectangle (in pixels, clipped to the image) with `color` at `opacity`, over
  /// what is there (source over).
  mutating func fill(
    x: Double, y: Double, width w: Double, height h: Double, color: [Double],
    opacity: Double = 1
  ) {
    let alpha = max(0, min(1, (color.count > 3 ? color[3] : 1) * opacity))
    guard alpha > 0, w.isFinite, h.isFinite, x.isFinite, y.isFinite else { return }
    let left = max(0, Int(x.rounded()))
    let right = min(width, Int((x + w).rounded()))
    let top = max(0, Int(y.rounded()))
    let bottom = min(height, Int((y + h).rounded()))
    guard left < right, top < bottom else { return }
    let source = PNGImage.bytes(color).prefix(3).map(Double.init)
    for row in top..<bottom {
      for column in left..<right {
        let start = (row * width + column) * 4
        for channel in 0..<3 {
          let below = Double(pixels[start + channel])
          pixels[start + channel] = UInt8((source[channel] * alpha + below * (1 - alpha)).rounded())
        }
        pixels[start + 3] = 255
      }
    }
  }

  /// Writes the image as a PNG file at `path`.
  func write(to path: String) throws(LabError) {
    var message = [CChar](repeating: 0, count: 64)
    let status = pixels.withUnsafeBufferPointer { buffer in
      cpng_write_rgba(path, buffer.baseAddress, UInt32(width), UInt32(height), &message)
    }
    guard status == 0 else {
      throw .failure("could not write \(path): libpng says \(PNGImage.text(message))")
    }
  }

  /// Reads the PNG file at `path`.
  static func read(_ path: String) throws(LabError) -> PNGImage {
    var message = [CChar](repeating: 0, count: 64)
    var width: UInt32 = 0
    var height: UInt32 = 0
    guard cpng_read_rgba(path, &width, &height, nil, &message) == 0 else {
      throw .failure("could not read \(path): libpng says \(PNGImage.text(message))")
    }
    var image = PNGImage(width: Int(width), height: Int(height))
    let status = image.pixels.withUnsafeMutableBufferPointer { buffer in
      cpng_read_rgba(path, &width, &height, buffer.baseAddress, &message)
    }
    guard status == 0 else {
      throw .failure("could not read \(path): libpng says \(PNGImage.text(message))")
    }
    return image
  }

  /// libpng's message, up to its terminating zero.
  private static func text(_ message: [CChar]) -> String {
    String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func bytes(_ color: [Double]) -> [UInt8] {
    (0..<4).map { index in
      let value = index < color.count ? color[index] : 1
      return UInt8((max(0, min(1, value)) * 255).rounded())
    }
  }
}
