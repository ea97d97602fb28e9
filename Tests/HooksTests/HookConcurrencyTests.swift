// Calls racing installs and removals: never a crash, and each call runs with or without a hook,
// never half of it. Run under ThreadSanitizer by .ci/run.
import Hooks
import ObjCRuntime
import Synchronization
import Testing

@Suite("Hook concurrency")
struct HookConcurrencyTests {
  @Test("class-wide hooks installed and removed while 4 threads call: every result is whole")
  func classHooksRaceCalls() async throws {
    let cls = freshMeterClass("RaceClass")
    let meter = Shared(value: meter(of: cls))
    let wrong = Counter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for value in 1...2_000 {
            let result = meter.value.sendScaled(value)
            // Without the hook 10v; with it, the instead hook doubles the original: 20v.
            if result != 10 * value, result != 20 * value { wrong.value.add(1, ordering: .relaxed) }
          }
        }
      }
      group.addTask {
        for _ in 0..<300 {
          let token = try? Meter.hook(instead: "scaled:", in: cls) {
            (original: HookOriginal<Int, Int>, _, value: Int) in original(value) * 2
          }
          token?.remove()
        }
      }
    }
    #expect(wrong.value.load(ordering: .relaxed) == 0)
  }

  @Test("per-object hooks installed and removed while threads call the object")
  func objectHooksRaceCalls() async throws {
    let cls = freshMeterClass("RaceObject")
    let meter = Shared(value: meter(of: cls))
    let wrong = Counter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for value in 1...2_000 {
            let result = meter.value.sendScaled(value)
            if result != 10 * value, result != 10 * value + 1 {
              wrong.value.add(1, ordering: .relaxed)
            }
          }
        }
      }
      group.addTask {
        for _ in 0..<300 {
          let token = try? meter.value.hook(after: "scaled:", returning: Int.self) {
            (_, result, _: Int) in result + 1
          }
          token?.remove()
        }
      }
    }
    #expect(wrong.value.load(ordering: .relaxed) == 0)
    #expect(meter.value.isaClass === cls, "the object got its class back")
  }

  @Test("hooks made and removed for a second while 4 threads call: every result whole, all freed")
  func removalsRaceCallsForASecond() async throws {
    let cls = freshMeterClass("RaceSecond")
    let meter = Shared(value: meter(of: cls))
    let wrong = Counter()
    let captured = Counter()
    // Every task stops at the same moment (see EpochCellTests); the remover goes first.
    let end = ContinuousClock.now + .seconds(1)
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        while ContinuousClock.now < end {
          // Each hook captures an object that counts itself: it must go with the hook.
          let witness = Witness(captured)
          let token = try? Meter.hook(instead: "scaled:", in: cls) {
            (original: HookOriginal<Int, Int>, _, value: Int) in
            witness.touch()
            return original(value) * 2
          }
          token?.remove()
        }
      }
      for _ in 0..<4 {
        group.addTask {
          var value = 0
          repeat {
            value = value % 1_000 + 1
            let result = meter.value.sendScaled(value)
            if result != 10 * value, result != 20 * value { wrong.value.add(1, ordering: .relaxed) }
          } while ContinuousClock.now < end
        }
      }
    }
    #expect(wrong.value.load(ordering: .relaxed) == 0)
    #expect(captured.value.load(ordering: .relaxed) == 0, "every removed hook's capture was freed")
  }

  @Test("a once hook raced by 8 threads runs exactly once")
  func onceRace() async throws {
    let cls = freshMeterClass("RaceOnce")
    let meter = Shared(value: meter(of: cls))
    let runs = Counter()
    let token = try Meter.hook(before: "scaled:", in: cls, options: .once) { (_, _: Int) in
      runs.value.add(1, ordering: .relaxed)
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for value in 0..<200 { _ = meter.value.sendScaled(value) } }
      }
    }
    #expect(runs.value.load(ordering: .relaxed) == 1)
    #expect(!token.isActive)
  }

  @Test("remove() from 8 threads at once is idempotent")
  func removeRace() async throws {
    let cls = freshMeterClass("RaceRemove")
    let meter = meter(of: cls)
    let token = try Meter.hook(before: "record:", in: cls) { (meter, _: Int) in
      meter.journal.note("hook")
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 { group.addTask { token.remove() } }
    }
    #expect(!token.isActive)
    meter.sendRecord(1)
    #expect(meter.journal.take() == ["record(1)"])
  }

  @Test("100,000 install and remove cycles leave no hook and no site behind")
  func cyclesLeaveNothing() throws {
    let cls = freshMeterClass("Cycles")
    let meter = meter(of: cls)
    for _ in 0..<100_000 {
      let token = try Meter.hook(before: "scaled:", in: cls) { (_, _: Int) in }
      token.remove()
    }
    #expect(!PluginRegistry.shared.hookMap.entries.contains { $0.method.className == cls.name })
    #expect(meter.sendScaled(3) == 30)
  }
}

/// An object a hook captures, counted while it lives.
private final class Witness: Sendable {
  let census: Counter
  init(_ census: Counter) {
    self.census = census
    census.value.add(1, ordering: .relaxed)
  }
  deinit { census.value.subtract(1, ordering: .relaxed) }
  func touch() {}
}
