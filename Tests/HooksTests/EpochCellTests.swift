// The cell the hook sites publish their snapshots in: readers without a lock or a reference
// count, and replaced objects freed only once no reader can hold them. Run under
// ThreadSanitizer by .ci/run, which would report a read of a freed object.
import Synchronization
import Testing

@testable import Hooks

/// An object that counts the live objects of its test and checks that it is whole when read.
private final class Tracked: Sendable {
  let census: Census
  let canary: Atomic<Int>
  let generation: Int

  init(_ generation: Int, census: Census) {
    self.census = census
    self.generation = generation
    canary = Atomic(0x5EED)
    census.live.add(1, ordering: .relaxed)
  }

  deinit {
    canary.store(0, ordering: .relaxed)
    census.live.subtract(1, ordering: .relaxed)
  }

  var isWhole: Bool { canary.load(ordering: .relaxed) == 0x5EED }
}

/// How many ``Tracked`` objects of one test are alive.
private final class Census: Sendable {
  let live = Atomic<Int>(0)
  var count: Int { live.load(ordering: .relaxed) }
}

/// What the race test's threads count.
private final class RaceFigures: Sendable {
  let broken = Atomic<Int>(0)
  let reads = Atomic<Int>(0)
  let mostRetired = Atomic<Int>(0)
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
      #expect(borrowed.with { $0.isWhole })
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

  @Test("4 threads read while one replaces, for a second: every read is whole, nothing is kept")
  func readersRaceWriter() async {
    let census = Census()
    let cell = EpochCell(Tracked(0, census: census))
    let race = RaceFigures()
    // Every task stops at the same moment: on a pool of two threads, tasks that spun until
    // another one said so could wait for it forever. The writer goes first, to run beside them.
    let end = ContinuousClock.now + .seconds(1)
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        var generation = 0
        while ContinuousClock.now < end {
          generation += 1
          let next = generation
          _ = cell.replace { _ in Tracked(next, census: census) }
          let retired = cell.retiredCount
          if retired > race.mostRetired.load(ordering: .relaxed) {
            race.mostRetired.store(retired, ordering: .relaxed)
          }
        }
      }
      for _ in 0..<4 {
        group.addTask {
          // At least one read, even when the pool runs this task after the others.
          repeat {
            let whole = cell.read { borrowed in borrowed.with { $0.isWhole } }
            if !whole { race.broken.add(1, ordering: .relaxed) }
            race.reads.add(1, ordering: .relaxed)
          } while ContinuousClock.now < end
        }
      }
    }
    #expect(race.broken.load(ordering: .relaxed) == 0)
    #expect(race.reads.load(ordering: .relaxed) > 0)
    // Readers that come and go never hold a batch for long: a handful waits at most.
    #expect(race.mostRetired.load(ordering: .relaxed) < 10_000)
    #expect(cell.retiredCount == 0, "the last reader freed what waited")
    #expect(census.count == 1)
  }
}
