// PluginSetting: one value behind a lock, a scoped change that always puts the value back, and
// a run under each of several values (a scenario's seed half, then its fixed half).
import Dispatch
import Hooks
import Testing

private enum Mode: Sendable, Equatable { case seed, fixed }
private struct Failure: Error {}

@Suite("PluginSetting")
struct PluginSettingTests {
  @Test("the value is the initial one until set")
  func value() {
    let mode = PluginSetting(Mode.fixed)
    #expect(mode.value == .fixed)
    mode.value = .seed
    #expect(mode.value == .seed)
  }

  @Test("withValue sets the value for its body and puts the previous one back, thrown or not")
  func withValue() {
    let mode = PluginSetting(Mode.fixed)
    let seen = mode.withValue(.seed) { mode.value }
    #expect(seen == .seed && mode.value == .fixed)
    #expect(throws: Failure.self) {
      try mode.withValue(.seed) { () throws(Failure) in throw Failure() }
    }
    #expect(mode.value == .fixed, "back after a throw")
    mode.withValue(.seed) {
      mode.withValue(.fixed) { #expect(mode.value == .fixed) }
      #expect(mode.value == .seed, "nested: each level puts back what it found")
    }
  }

  @Test("withEach runs the body under each value in order, and puts the value back")
  func withEach() {
    let mode = PluginSetting(Mode.fixed)
    var runs: [Mode] = []
    mode.withEach([.seed, .fixed, .seed]) { current in
      #expect(mode.value == current)
      runs.append(current)
    }
    #expect(runs == [.seed, .fixed, .seed] && mode.value == .fixed)
    var after: [Mode] = []
    #expect(throws: Failure.self) {
      try mode.withEach([.seed, .fixed]) { (current) throws(Failure) in
        after.append(current)
        throw Failure()
      }
    }
    #expect(after == [.seed], "a throw stops the values after it")
    mode.withEach([Mode]()) { _ in Issue.record("no values, no run") }
    #expect(mode.value == .fixed)
  }

  @Test("update changes part of a value under the lock; racing updates lose nothing")
  func update() {
    let counts = PluginSetting([Int](repeating: 0, count: 4))
    DispatchQueue.concurrentPerform(iterations: 4_000) { index in
      counts.update { $0[index % 4] += 1 }
    }
    #expect(counts.value == [1_000, 1_000, 1_000, 1_000])
    let returned = counts.update { values in values.reduce(0, +) }
    #expect(returned == 4_000)
  }
}
