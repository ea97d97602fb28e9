// The cell the hook sites publish their snapshots in: readers without a lock or a reference
// count, and replaced objects freed only once no reader can hold them. Run under
// ThreadSanitizer by .ci/run, which would report a read of a freed object.
import Foundation
import ObjCRuntime
import Synchronization
import Testing

@testable import Hooks

/// An object that counts the live objects of its test and says, by its generation, whether it
/// is alive: a freed object whose memory a new one took has another generation, so a reader that
/// used a freed object sees its generation change or go from the census.
private final class Tracked: Sendable {
  let census: Census
  let generation: Int

  init(_ generation: Int, census: Census) {
    self.census = census
    self.generation = generation
    census.alive.withLock { _ = $0.insert(generation) }
  }

  deinit {
    census.alive.withLock { _ = $0.remove(generation) }
  }
}

/// Which ``Tracked`` objects of one test are alive (a `RuntimeLock`, which ThreadSanitizer sees).
private final class Census: Sendable {
  let alive = RuntimeLock<Set<Int>>([])
  var count: Int { alive.withLock { $0.count } }
  func isAlive(_ generation: Int) -> Bool { alive.withLock { $0.contains(generation) } }
}

/// What the race test's threads count.
private final class RaceFigures: Sendable {
  let broken = Atomic<Int>(0)
  let reads = Atomic<Int>(0)
}

@Suite("Epoch cell")
struct EpochCellTests {
  @Test("without a reader, a replaced object is handed back at once, to go with its last use")
  func replacedWithoutReaders() {
    let census = Census()
    let cell = EpochCell(Tracked(0, census: census))
    var freed = cell.replace { Tracked($0.generation + 1, census: census) }
    #expect(freed.objects.map(\.generation) == [0])
    #expect(cell.retiredCount == 0)
    freed = EpochCell.Freed()
    #expect(census.count == 1)
    #expect(cell.value.generation == 1)
  }

  @Test("an edit that returns the same object changes nothing and frees nothing")
  func sameObject() {
    let census = Census()
    let cell = EpochCell(Tracked(0, census: census))
    #expect(cell.replace { $0 }.count == 0)
    #expect(census.count == 1)
  }

  @Test("a reader keeps what it read, and what was replaced while it read, until it leaves")
  func readerThatLasts() {
    let census = Census()
    let cell = EpochCell(Tracked(0, census: census))
    cell.read { borrowed in
      for generation in 1...100 {
        // What a `once` hook does: an edit from inside a call that reads the cell.
        let freed = cell.replace { _ in Tracked(generation, census: census) }
        #expect(freed.count == 0)
      }
      #expect(borrowed.with { $0.generation } == 0)
      #expect(census.isAlive(0))
      #expect(cell.retiredCount == 100)
      #expect(census.count == 101)
    }
    // The last reader of the epoch freed the batch as it left, with no edit after it.
    #expect(cell.retiredCount == 0)
    #expect(census.count == 1)
    #expect(cell.value.generation == 100)
  }

  @Test("a reader that starts after an edit reads the new object")
  func readAfterEdit() {
    let census = Census()
    let cell = EpochCell(Tracked(0, census: census))
    cell.read { outer in
      _ = cell.replace { _ in Tracked(1, census: census) }
      cell.read { inner in #expect(inner.with { $0.generation } == 1) }
      #expect(outer.with { $0.generation } == 0)
    }
    #expect(census.count == 1)
  }

  @Test("a reader counted in an epoch two moves old, as the last out, frees what it held up")
  func staleReaderFreesTheBatch() {
    let census = Census()
    let cell = EpochCell(Tracked(0, census: census))
    // A reader reads the epoch, then stalls while two edits move it on twice (a first hook's
    // install makes two).
    let observed = cell.currentEpoch
    for generation in 1...2 { _ = cell.replace { _ in Tracked(generation, census: census) } }
    #expect(census.count == 1)
    // Its count lands now, in the counter of its stale epoch's parity, which the next edit's
    // batch waits on.
    cell.announce(observed)
    _ = cell.replace { _ in Tracked(3, census: census) }
    #expect(cell.retiredCount == 1)
    #expect(census.count == 2)
    // It sees the epoch moved, and counts itself out: the last out of that counter.
    #expect(!cell.confirm(observed))
    #expect(cell.retiredCount == 0)
    #expect(census.count == 1)
  }

  @Test("8 threads read while one replaces, for a second: every object read was alive")
  func readersRaceWriter() {
    let census = Census()
    let cell = EpochCell(Tracked(0, census: census))
    let race = RaceFigures()
    let end = Date().addingTimeInterval(1)
    let threads = DispatchGroup()
    // Real threads, more than the cores, so that readers overlap one another and the writer.
    for _ in 0..<8 {
      threads.enter()
      Thread.detachNewThread {
        defer { threads.leave() }
        repeat {
          let whole = cell.read { borrowed in
            let generation = borrowed.with { $0.generation }
            // Held a while, so that edits and other readers come and go meanwhile.
            for _ in 0..<50 { _ = borrowed.with { $0.census } }
            return census.isAlive(generation) && borrowed.with { $0.generation } == generation
          }
          if !whole { race.broken.add(1, ordering: .relaxed) }
          race.reads.add(1, ordering: .relaxed)
        } while Date() < end
      }
    }
    threads.enter()
    Thread.detachNewThread {
      defer { threads.leave() }
      var generation = 0
      repeat {
        generation += 1
        let next = generation
        _ = cell.replace { _ in Tracked(next, census: census) }
      } while Date() < end
    }
    threads.wait()
    #expect(race.broken.load(ordering: .relaxed) == 0)
    #expect(race.reads.load(ordering: .relaxed) > 0)
    // No bound on what waited meanwhile: a reader the scheduler stops while it is counted holds
    // up every edit until it runs again (8 threads on 2 cores: thousands of snapshots for one
    // time slice). What bounds them is that it leaves, which the next line holds.
    #expect(cell.retiredCount == 0, "the last reader freed what waited")
    #expect(census.count == 1)
  }
}
