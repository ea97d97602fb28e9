// The memory of one invocation: argument slots, the pointer array libffi reads, the return slot.

/// The raw memory an ``Invocation`` calls with, allocated once when the invocation is made so
/// that invoking allocates nothing.
internal final class InvocationFrame {
  let interface: FFICallInterface
  /// One pointer per argument (`self` and `_cmd` included), each to its slot.
  let argumentPointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  let returnSlot: UnsafeMutableRawPointer
  private let storage: UnsafeMutableRawPointer
  private let slotSizes: [Int]

  init(_ interface: FFICallInterface) {
    self.interface = interface
    let layout = interface.frameLayout
    storage = .allocate(byteCount: layout.size, alignment: 16)
    storage.initializeMemory(as: UInt8.self, repeating: 0, count: layout.size)
    returnSlot = .allocate(byteCount: interface.returnSlotSize, alignment: 16)
    returnSlot.initializeMemory(as: UInt8.self, repeating: 0, count: interface.returnSlotSize)
    argumentPointers = .allocate(capacity: max(layout.offsets.count, 1))
    for (index, offset) in layout.offsets.enumerated() {
      (argumentPointers + index).initialize(to: storage + offset)
    }
    slotSizes = layout.sizes
  }

  deinit {
    storage.deallocate()
    returnSlot.deallocate()
    argumentPointers.deallocate()
  }

  var count: Int { slotSizes.count }

  func slot(_ index: Int) -> UnsafeMutableRawPointer {
    argumentPointers[index].unsafelyUnwrapped
  }

  func slotSize(_ index: Int) -> Int {
    slotSizes[index]
  }

  /// Copies the bytes of `value` into `destination`, at most `capacity` of them.
  static func write<T>(_ value: T, to destination: UnsafeMutableRawPointer, capacity: Int) {
    withUnsafeBytes(of: value) { bytes in
      if let base = bytes.baseAddress {
        destination.copyMemory(from: base, byteCount: min(bytes.count, capacity))
      }
    }
  }
}

extension ObjCTypeDescriptor {
  /// Whether a value of this type can be passed where `other` is expected: the same layout,
  /// whatever the struct names and the signedness of integers.
  func isLayoutCompatible(with other: ObjCTypeDescriptor) -> Bool {
    switch (self, other) {
    case (.void, .void), (.float, .float), (.double, .double), (.pointer, .pointer): return true
    case (.integer(let left, _), .integer(let right, _)): return left == right
    case (.structure(_, let left), .structure(_, let right)):
      return left.count == right.count
        && zip(left, right).allSatisfy { $0.isLayoutCompatible(with: $1) }
    case (.array(let leftCount, let left), .array(let rightCount, let right)):
      return leftCount == rightCount && left.isLayoutCompatible(with: right)
    case (.union, .union), (.bitField, .bitField): return self == other
    default: return false
    }
  }
}

/// The type descriptors of Swift types, parsed once per type from their encodings.
internal enum TypeDescriptors {
  private static let table = RuntimeLock<[ObjectIdentifier: ObjCTypeDescriptor]>([:])

  /// What `type`'s encoding describes, or nil when the encoding does not parse.
  static func descriptor<T: ObjCTypeEncodable>(of type: T.Type) -> ObjCTypeDescriptor? {
    let key = ObjectIdentifier(type)
    if let known = table.withLock({ $0[key] }) { return known }
    var parser = TypeEncodingParser(T.objcTypeEncoding)
    guard let parsed = try? parser.parseDescribedType().descriptor, parser.atEnd else { return nil }
    table.withLock { $0[key] = parsed }
    return parsed
  }
}
