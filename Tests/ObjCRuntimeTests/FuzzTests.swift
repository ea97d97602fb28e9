// Fuzzing: the parser, selector names, class names, key paths and invocations fed with random and
// adversarial input. Every input must get an answer or a typed error, and change nothing it
// should not. The seed is fixed and printed; SWIZZLEKIT_FUZZ_SEED replays another, and
// SWIZZLEKIT_FUZZ_COUNT sets the inputs per target (100,000 by default).
import Foundation
import Testing

@testable import ObjCRuntime

/// SplitMix64: a small generator whose sequence a seed fixes, on every machine.
private struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The seed and count of this run, and a generator for one target.
private enum Fuzz {
  static let seed: UInt64 = {
    let text = ProcessInfo.processInfo.environment["SWIZZLEKIT_FUZZ_SEED"] ?? ""
    return UInt64(text) ?? 0x5EED_5EED
  }()

  static let count: Int = {
    let text = ProcessInfo.processInfo.environment["SWIZZLEKIT_FUZZ_COUNT"] ?? ""
    return Int(text) ?? 100_000
  }()

  /// A generator for `target`, announced with the seed that replays it.
  static func generator(_ target: String) -> SplitMix64 {
    print("fuzz \(target): seed \(seed), \(count) inputs (replay: SWIZZLEKIT_FUZZ_SEED=\(seed))")
    var hasher = SplitMix64(seed: seed)
    for byte in target.utf8 { hasher = SplitMix64(seed: hasher.next() ^ UInt64(byte)) }
    return hasher
  }

  /// What a failure says: the target, the seed and the input's number.
  static func context(_ target: String, _ index: Int, _ input: String) -> Comment {
    let shown = input.count > 200 ? "\(input.prefix(200))…" : input
    return "\(target) input #\(index) (SWIZZLEKIT_FUZZ_SEED=\(seed)): \(String(reflecting: shown))"
  }
}

extension SplitMix64 {
  mutating func pick<T>(_ choices: [T]) -> T {
    choices[Int.random(in: 0..<choices.count, using: &self)]
  }
  mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }
}

/// Encodings made to break a parser: valid pieces, truncated, nested deep, with huge counts,
/// NUL and stray bytes.
private func hostileEncoding(_ random: inout SplitMix64) -> String {
  let valid = [
    "v@:", "q@:q", "{CGRect={CGPoint=dd}{CGSize=dd}}@:", "d@:^{Point=dd}[4i]", "r*@:@?",
    "{ABIMixed=cdi}@:{ABIMixed=cdi}c", "(u=id)@:", "b7", "@\"NSString\"@:", "Vv@:nO^v",
  ]
  switch Int.random(in: 0..<6, using: &random) {
  case 0:  // a valid encoding cut at a random byte
    let text = Array(random.pick(valid).utf8)
    let cut = Int.random(in: 0...text.count, using: &random)
    return String(decoding: text[..<cut], as: UTF8.self)
  case 1:  // nesting, balanced or not
    let depth = random.pick([10, 63, 64, 65, 300, 5_000])
    let open = random.pick(["{a=", "[2", "(u=", "^"])
    let close = open == "{a=" ? "}" : open == "[2" ? "]" : open == "(u=" ? ")" : ""
    return "v@:" + String(repeating: open, count: depth) + "i"
      + (random.chance(50) ? String(repeating: close, count: depth) : "")
  case 2:  // huge counts
    let count = random.pick(["16777216", "16777217", "99999999999999999999", "0", "-1", ""])
    return "v@:[\(count)[\(count)d]]"
  case 3:  // random bytes, invalid UTF-8 included (a String holds them repaired, as U+FFFD)
    let bytes = (0..<Int.random(in: 0..<24, using: &random)).map { _ in
      UInt8.random(in: 0...255, using: &random)
    }
    return "v@:" + String(decoding: bytes, as: UTF8.self)
  default:  // bytes from the encoding alphabet, NUL and others
    let alphabet = Array(
      "cislqCISLQfdBv*@#:^?[]{}()=\"0123456789bnNoORVAjTD\0\u{7F}é".unicodeScalars)
    let length = Int.random(in: 0..<40, using: &random)
    return String(String.UnicodeScalarView((0..<length).map { _ in random.pick(alphabet) }))
  }
}

/// An object with two keys, for the key-path target.
private final class Keyed: ObjCObject {
  var width = 10
  var name = "keyed"
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Keyed.self) {
      ObjCIvarDeclaration("width", \Keyed.width)
      ObjCIvarDeclaration("name", \Keyed.name)
    }
  }
}

@Suite("Fuzzing")
struct FuzzTests {
  @Test("the encoding parser answers every input, or throws a typed error")
  func encodings() {
    var random = Fuzz.generator("encodings")
    for index in 0..<Fuzz.count {
      let input = hostileEncoding(&random)
      do {
        let parsed = try MethodEncoding(parsing: input)
        // What parses describes sizes that fit.
        for descriptor in [parsed.returnDescriptor] + parsed.argumentDescriptors {
          #expect(
            descriptor.size <= TypeEncodingLimits.maximumSize,
            Fuzz.context("encodings", index, input))
        }
        // Each type's text, alone, reads as the same type. (Joined again they may not: the
        // format is ambiguous, in objc4 too, between `@` then `?` and `@?`, and between a bit
        // field's width and the offset digits after it.)
        let types = [parsed.returnType] + parsed.argumentTypes
        let descriptors = [parsed.returnDescriptor] + parsed.argumentDescriptors
        for (text, descriptor) in zip(types, descriptors) {
          let alone = try MethodEncoding(parsing: text)
          #expect(
            alone.returnDescriptor == descriptor && alone.argumentTypes.isEmpty,
            Fuzz.context("encodings", index, input))
        }
      } catch {
        // A typed error is the answer to bad input: nothing else can come out.
        _ = error.description
      }
    }
  }

  @Test("selector names of any bytes intern consistently, and validation refuses bad ones")
  func selectorNames() {
    var random = Fuzz.generator("selectors")
    let alphabet = Array("abc:_ \t\n\0é😀:xyZ".unicodeScalars)
    for index in 0..<Fuzz.count {
      let length = random.pick([0, 1, 2, 5, 12, 40])
      let name = String(
        String.UnicodeScalarView((0..<length).map { _ in random.pick(alphabet) }))
      let selector = Selector(name)
      let context = Fuzz.context("selectors", index, name)
      #expect(selector == Selector(name), context)
      // Interned as a C string: the name reads up to the first NUL.
      #expect(sel_getName(selector) == String(name.prefix { $0 != "\0" }), context)
      let valid = try? Selector(validating: name)
      let hasBadCharacter =
        name.isEmpty
        || name.unicodeScalars.contains {
          $0 == "\0" || $0.properties.isWhitespace || $0.properties.generalCategory == .control
        }
      #expect((valid == nil) == hasBadCharacter, context)
    }
  }

  @Test("class names of any bytes make a class or are refused, and the class list stays sane")
  func classNames() throws {
    var random = Fuzz.generator("class names")
    let alphabet = Array("AbZ_.0 \0é:".unicodeScalars)
    let count = Fuzz.count
    for index in 0..<count {
      let length = random.pick([0, 1, 3, 8, 30])
      let name =
        "Fuzz" + String(String.UnicodeScalarView((0..<length).map { _ in random.pick(alphabet) }))
      let context = Fuzz.context("class names", index, name)
      guard let cls = objc_allocateClassPair(TestObject.runtimeClass, name, 0) else {
        continue  // refused: taken, or not a name
      }
      #expect(cls.name == name, context)
      #expect(objc_allocateClassPair(TestObject.runtimeClass, name, 0) == nil, context)
      objc_registerClassPair(cls)
      #expect(objc_getClass(name) === cls, context)
      try cls.dispose()
      #expect(objc_getClass(name) == nil, context)
    }
  }

  @Test("key paths of any bytes read and write or throw, and never touch another key")
  func keyPaths() {
    var random = Fuzz.generator("key paths")
    let keyed = Keyed()
    let alphabet = Array("widthnam_.@\0 é".unicodeScalars)
    for index in 0..<Fuzz.count {
      let length = random.pick([0, 1, 4, 5, 6, 20])
      let key = String(String.UnicodeScalarView((0..<length).map { _ in random.pick(alphabet) }))
      let context = Fuzz.context("key paths", index, key)
      if let value = try? keyed.value(forKey: key) {
        #expect(["width", "name", "_width", "_name"].contains(key), context)
        _ = value
      }
      try? keyed.setValue(random.chance(50) ? 7 : "seven", forKey: key)
      #expect(keyed.width == 10 || keyed.width == 7, context)
      keyed.width = 10
      keyed.name = "keyed"
    }
  }

  @Test("invocations of random signatures pass every argument and leave it as it was")
  func invocationShapes() throws {
    var random = Fuzz.generator("invocations")
    let scalars: [(String, Int)] = [
      ("c", 1), ("C", 1), ("s", 2), ("S", 2), ("i", 4), ("I", 4), ("q", 8), ("Q", 8), ("f", 4),
      ("d", 8), ("B", 1), ("^v", 8),
    ]
    var interceptors: [String: Interceptor] = [:]
    let target = TestObject()
    let count = Fuzz.count
    for index in 0..<count {
      // Up to 8 arguments, some of them a struct of 1 to 4 scalars.
      var types = ""
      var sizes: [Int] = []
      for _ in 0..<Int.random(in: 0...8, using: &random) {
        if random.chance(20) {
          let fields = (0..<Int.random(in: 1...4, using: &random)).map { _ in random.pick(scalars) }
          types += "{S=" + fields.map(\.0).joined() + "}"
          sizes.append(-1)
        } else {
          let scalar = random.pick(scalars)
          types += scalar.0
          sizes.append(scalar.1)
        }
      }
      let encoding = "v@:" + types
      let context = Fuzz.context("invocations", index, encoding)
      let interceptor: Interceptor
      if let known = interceptors[encoding] {
        interceptor = known
      } else {
        interceptor = try Interceptor(types: encoding) { _ in }
        interceptors[encoding] = interceptor
      }
      let call = try Invocation(methodSignature: MethodSignature(types: encoding))
      call.target = target
      var written: [Int: UInt64] = [:]
      for (offset, size) in sizes.enumerated() where size > 0 {
        let bits = random.next()
        try setScalar(call, offset + 2, encodingOf: call.methodSignature, bits)
        written[offset + 2] = bits
      }
      let before = try written.keys.sorted().map { try scalar(call, $0) }
      try call.invoke(using: interceptor.implementation)
      try call.invoke(using: interceptor.implementation)
      let after = try written.keys.sorted().map { try scalar(call, $0) }
      #expect(before == after, context)
    }
  }
}

/// Writes the low bytes of `bits` as argument `index`, with the argument's own type.
private func setScalar(
  _ call: Invocation, _ index: Int, encodingOf signature: MethodSignature, _ bits: UInt64
) throws {
  switch signature.encoding.argumentTypes[index] {
  case "c": try call.setArgument(Int8(truncatingIfNeeded: bits), at: index)
  case "C": try call.setArgument(UInt8(truncatingIfNeeded: bits), at: index)
  case "s": try call.setArgument(Int16(truncatingIfNeeded: bits), at: index)
  case "S": try call.setArgument(UInt16(truncatingIfNeeded: bits), at: index)
  case "i": try call.setArgument(Int32(truncatingIfNeeded: bits), at: index)
  case "I": try call.setArgument(UInt32(truncatingIfNeeded: bits), at: index)
  case "q": try call.setArgument(Int64(bitPattern: bits), at: index)
  case "Q": try call.setArgument(bits, at: index)
  case "f": try call.setArgument(Float(bitPattern: UInt32(truncatingIfNeeded: bits)), at: index)
  case "d": try call.setArgument(Double(bitPattern: bits), at: index)
  case "B": try call.setArgument(bits & 1 == 1, at: index)
  default: try call.setArgument(UnsafeRawPointer(bitPattern: UInt(bits | 1)), at: index)
  }
}

/// Argument `index` as its bits, whatever its scalar type.
private func scalar(_ call: Invocation, _ index: Int) throws -> UInt64 {
  switch call.methodSignature.encoding.argumentTypes[index] {
  case "c": UInt64(UInt8(bitPattern: try call.argument(at: index, as: Int8.self)))
  case "C": UInt64(try call.argument(at: index, as: UInt8.self))
  case "s": UInt64(UInt16(bitPattern: try call.argument(at: index, as: Int16.self)))
  case "S": UInt64(try call.argument(at: index, as: UInt16.self))
  case "i": UInt64(UInt32(bitPattern: try call.argument(at: index, as: Int32.self)))
  case "I": UInt64(try call.argument(at: index, as: UInt32.self))
  case "q": UInt64(bitPattern: try call.argument(at: index, as: Int64.self))
  case "Q": try call.argument(at: index, as: UInt64.self)
  case "f": UInt64(try call.argument(at: index, as: Float.self).bitPattern)
  case "d": try call.argument(at: index, as: Double.self).bitPattern
  case "B": try call.argument(at: index, as: Bool.self) ? 1 : 0
  default: UInt64(UInt(bitPattern: try call.argument(at: index, as: UnsafeRawPointer?.self)))
  }
}
