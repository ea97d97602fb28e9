// The hook engine's buffers: every edit makes a new buffer of plain memory and leaves the old one
// as it was, for the calls still reading it.
import ObjCRuntime
import Testing

@Suite("FixedBuffer")
struct FixedBufferTests {
  /// The buffer's elements as an array, then frees it.
  private func consume(_ buffer: FixedBuffer<Int>) -> [Int] {
    defer { buffer.deallocate() }
    return Array(buffer.elements)
  }

  @Test("replacing a range inserts, removes and replaces, and leaves the original as it was")
  func replacing() {
    let original = FixedBuffer([1, 2, 3, 4])
    defer { original.deallocate() }
    #expect(consume(original.replacing(0..<0, with: [0])) == [0, 1, 2, 3, 4])
    #expect(consume(original.replacing(2..<2, with: [9, 9])) == [1, 2, 9, 9, 3, 4])
    #expect(consume(original.replacing(4..<4, with: [5])) == [1, 2, 3, 4, 5])
    #expect(consume(original.replacing(1..<3, with: [])) == [1, 4])
    #expect(consume(original.replacing(1..<2, with: [7])) == [1, 7, 3, 4])
    #expect(consume(original.appending(5)) == [1, 2, 3, 4, 5])
    #expect(consume(original.slice(1..<3)) == [2, 3])
    #expect(Array(original.elements) == [1, 2, 3, 4], "every edit made a new buffer")
  }

  @Test("an edit that leaves nothing, or a buffer made of nothing, holds no memory")
  func empty() {
    let one = FixedBuffer([1])
    defer { one.deallocate() }
    let none = one.replacing(0..<1, with: [])
    #expect(none.isEmpty && none.elements.baseAddress == nil)
    #expect(FixedBuffer<Int>([]).elements.baseAddress == nil)
    #expect(one.removingAll { $0 == 1 }.elements.baseAddress == nil)
    none.deallocate()  // freeing an empty buffer does nothing
    #expect(FixedBuffer<Int>().count == 0)
  }

  @Test("removingAll keeps the order of what stays")
  func removingAll() {
    let buffer = FixedBuffer(Array(0..<10))
    defer { buffer.deallocate() }
    #expect(consume(buffer.removingAll { $0 % 3 == 0 }) == [1, 2, 4, 5, 7, 8])
  }

  @Test("references are walked in order and returned retained, and borrowed ones keep identity")
  func references() {
    final class Box {
      let value: Int
      init(_ value: Int) { self.value = value }
    }
    let boxes = (0..<5).map(Box.init)
    let buffer = FixedBuffer(boxes.map { Unmanaged.passUnretained($0) })
    defer { buffer.deallocate() }
    var walked: [Int] = []
    buffer.forEachObject { (box: Box) in walked.append(box.value) }
    #expect(walked == [0, 1, 2, 3, 4])
    let retained: [Box] = buffer.objects()
    #expect(zip(retained, boxes).allSatisfy { $0 === $1 })
    let borrowed = BorrowedReference(boxes[2])
    #expect(borrowed.identity == ObjectIdentifier(boxes[2]))
    #expect(borrowed.with { $0.value } == 2)
    #expect(borrowed.object === boxes[2])
    withExtendedLifetime(boxes) {}
  }
}
