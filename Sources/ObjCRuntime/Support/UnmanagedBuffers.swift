// Buffers of plain values and references read without reference counting: the hook engine's
// lists, which every hooked call walks, kept in one small place with their rules.
//
// A hooked call must not pay a retain and a release for each hook it runs, nor an edit for each
// hook it copies: the lists hold their elements as plain memory, and something else keeps the
// objects alive (the hooks' keeper, `Hooks/HookLists.swift`). The rules that make this safe are
// the caller's; these types only say them once and check what they can.

/// An immutable run of plain values in memory of its own: made by copying, read in place,
/// freed once by its owner with ``deallocate()``.
///
/// Every edit makes a new buffer and leaves this one as it was, so a reader that holds it keeps
/// a consistent list while another thread edits. Copies of the struct share the memory: exactly
/// one owner calls ``deallocate()``, after every reader is done.
@usableFromInline
package struct FixedBuffer<Element: BitwiseCopyable>: BitwiseCopyable {
  @usableFromInline let base: UnsafeMutablePointer<Element>?
  /// The number of elements.
  @usableFromInline package let count: Int

  /// An empty buffer, which allocates nothing.
  @inlinable
  package init() {
    base = nil
    count = 0
  }

  /// A buffer holding `elements`, in order.
  @inlinable
  package init(_ elements: some Collection<Element>) {
    guard !elements.isEmpty else {
      self.init()
      return
    }
    let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
    self.init(base: buffer.baseAddress, count: buffer.initialize(fromContentsOf: elements))
  }

  @inlinable
  init(base: UnsafeMutablePointer<Element>?, count: Int) {
    self.base = base
    self.count = count
    _checkInvariants()
  }

  /// The elements, read in place.
  @inlinable
  package var elements: UnsafeBufferPointer<Element> {
    UnsafeBufferPointer(start: base, count: count)
  }

  @inlinable
  package var isEmpty: Bool { count == 0 }

  /// Element `index`, checked in debug builds as `UnsafeBufferPointer` checks it.
  @inlinable
  package subscript(index: Int) -> Element {
    elements[index]
  }

  /// A new buffer: this one with `range` replaced by `replacement` (an insertion for an empty
  /// range, a removal for an empty replacement). Copies plain memory.
  @inlinable
  package func replacing(_ range: Range<Int>, with replacement: some Collection<Element>)
    -> FixedBuffer
  {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of 0..<\(count)")
    let newCount = count - range.count + replacement.count
    guard newCount > 0 else { return FixedBuffer() }
    let copy = UnsafeMutableBufferPointer<Element>.allocate(capacity: newCount)
    var end = copy.initialize(fromContentsOf: elements[..<range.lowerBound])
    end = copy[end...].initialize(fromContentsOf: replacement)
    _ = copy[end...].initialize(fromContentsOf: elements[range.upperBound...])
    return FixedBuffer(base: copy.baseAddress, count: newCount)
  }

  /// A new buffer holding `range` of this one.
  @inlinable
  package func slice(_ range: Range<Int>) -> FixedBuffer {
    FixedBuffer(elements[range])
  }

  /// A new buffer: this one with `element` at the end.
  @inlinable
  package func appending(_ element: Element) -> FixedBuffer {
    replacing(count..<count, with: CollectionOfOne(element))
  }

  /// A new buffer without the elements `isRemoved` picks.
  @inlinable
  package func removingAll(where isRemoved: (Element) -> Bool) -> FixedBuffer {
    guard count > 0 else { return FixedBuffer() }
    let copy = UnsafeMutableBufferPointer<Element>.allocate(capacity: count)
    var end = 0
    for element in elements where !isRemoved(element) {
      copy.initializeElement(at: end, to: element)
      end += 1
    }
    guard end > 0 else {
      copy.deallocate()
      return FixedBuffer()
    }
    return FixedBuffer(base: copy.baseAddress, count: end)
  }

  /// Frees the memory. Once, by the owner, after every reader is done.
  @inlinable
  package func deallocate() {
    base?.deallocate()
  }

  /// Checks, in builds with `SWIZZLEKIT_INTERNAL_CHECKS`, that the buffer is well formed: no
  /// memory for no element, memory for any, a count that is not negative.
  @inlinable @inline(__always)
  package func _checkInvariants() {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      InternalChecks.require(count >= 0, "a buffer of \(count) elements")
      InternalChecks.require(
        (base == nil) == (count == 0),
        "a buffer of \(count) elements with\(base == nil ? "out" : "") memory")
    #endif
  }
}

extension FixedBuffer {
  /// Runs `body` on each object of a buffer of unmanaged references, without reference
  /// counting. The objects must be alive for the whole walk: the buffer's owner says what keeps
  /// them.
  @inlinable @inline(__always)
  package func forEachObject<Object: AnyObject>(_ body: (Object) -> Void)
  where Element == Unmanaged<Object> {
    for reference in elements {
      reference._withUnsafeGuaranteedRef(body)
    }
  }

  /// The objects of a buffer of unmanaged references, retained: for maps and checks, not for
  /// calls.
  @inlinable
  package func objects<Object: AnyObject>() -> [Object] where Element == Unmanaged<Object> {
    elements.map { $0.takeUnretainedValue() }
  }
}

/// A reference read without reference counting while something else keeps the object alive
/// (whoever makes one says what). It is what `Unmanaged` is, with the one read the hooks need.
@usableFromInline
package struct BorrowedReference<Object: AnyObject>: BitwiseCopyable {
  @usableFromInline let reference: Unmanaged<Object>

  @inlinable
  package init(_ object: Object) {
    reference = Unmanaged.passUnretained(object)
  }

  @inlinable
  package init(_ reference: Unmanaged<Object>) {
    self.reference = reference
  }

  /// Runs `body` with the object, without retaining it.
  @inlinable @inline(__always)
  package func with<Result>(_ body: (Object) -> Result) -> Result {
    reference._withUnsafeGuaranteedRef(body)
  }

  /// The object, retained.
  @inlinable
  package var object: Object { reference.takeUnretainedValue() }

  /// The object's identity, read without retaining it.
  @inlinable
  package var identity: ObjectIdentifier {
    reference._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
  }
}

/// `@unchecked Sendable` when the elements are: the memory is written only while the buffer is
/// made, then only read.
extension FixedBuffer: @unchecked Sendable where Element: Sendable {}

/// `@unchecked Sendable` when the object is: the reference is an address, and the object's own
/// sendability says whether another thread may use it.
extension BorrowedReference: @unchecked Sendable where Object: Sendable {}
