// A dictionary key for an address (an IMP, a Swift type), hashed with one multiply instead of
// the standard library's SipHash.

/// An address as a dictionary key, for the runtime's tables keyed by IMPs and Swift types.
///
/// `Dictionary` and `Set` hash their keys through `_rawHashValue(seed:)`, which for integers
/// and pointers runs SipHash-1-3 over eight bytes: about 70 instructions, more than a message
/// send. Addresses need no protection against chosen collisions (they are not input), so this
/// key mixes the address with the table's seed by a multiply and a shift, which spreads the
/// address's varying middle bits into the low bits the table indexes by.
internal struct AddressKey: Hashable, Sendable {
  /// The address.
  let address: UInt

  init(_ pointer: UnsafeRawPointer) { address = UInt(bitPattern: pointer) }
  init(_ identifier: ObjectIdentifier) { address = UInt(bitPattern: identifier) }

  func hash(into hasher: inout Hasher) { hasher.combine(address) }

  func _rawHashValue(seed: Int) -> Int { AddressKey.mix(address, seed: seed) }

  /// The address mixed with `seed`: a multiply by an odd constant (a bijection), then the high
  /// half folded into the low one.
  @inline(__always)
  static func mix(_ address: UInt, seed: Int) -> Int {
    let product = (address ^ UInt(bitPattern: seed)) &* 0x9E37_79B9_7F4A_7C15
    return Int(bitPattern: product ^ (product &>> 32))
  }
}
