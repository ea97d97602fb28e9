// PluginChanges: what a plugin changed outside the tables, undone newest first, held weakly.
import Dispatch
import Hooks
import ObjCRuntime
import Testing

// Sendable: its one property is immutable.
private final class Thing: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

@Suite("PluginChanges")
struct PluginChangesTests {
  @Test("undoAll undoes the living objects' changes newest first, once, and forgets them")
  func newestFirst() {
    let changes = PluginChanges<Thing>()
    let undone = RuntimeLock<[String]>([])
    let first = Thing("first")
    let second = Thing("second")
    changes.note(first) { thing in undone.withLock { $0.append(thing.name) } }
    changes.note(second) { thing in undone.withLock { $0.append(thing.name) } }
    #expect(changes.objects.map(\.name) == ["first", "second"])
    changes.undoAll()
    #expect(undone.withLock { $0 } == ["second", "first"])
    changes.undoAll()
    #expect(undone.withLock { $0 }.count == 2, "forgotten after the first undo")
    #expect(changes.objects.isEmpty)
  }

  @Test("an object noted twice keeps its first undo; an object that died is not undone")
  func firstUndoAndWeak() {
    let changes = PluginChanges<Thing>()
    let undone = RuntimeLock<[String]>([])
    let kept = Thing("kept")
    changes.note(kept) { _ in undone.withLock { $0.append("first undo") } }
    changes.note(kept) { _ in undone.withLock { $0.append("second undo") } }
    do {
      let shortLived = Thing("gone")
      changes.note(shortLived) { _ in undone.withLock { $0.append("gone") } }
    }
    #expect(changes.objects.map(\.name) == ["kept"])
    changes.undoAll()
    #expect(undone.withLock { $0 } == ["first undo"])
  }

  @Test("an undo may note again, and notes from many threads all count")
  func reentrantAndThreads() {
    let changes = PluginChanges<Thing>()
    let things = (0..<64).map { Thing("\($0)") }
    DispatchQueue.concurrentPerform(iterations: things.count) { index in
      changes.note(things[index]) { thing in changes.note(thing) { _ in } }
    }
    #expect(changes.objects.count == 64)
    changes.undoAll()
    #expect(changes.objects.count == 64, "each undo noted its object again")
    withExtendedLifetime(things) {}
  }
}
