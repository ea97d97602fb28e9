// A plugin's log: whole lines, under the plugin's name, to whoever watches.
import Dispatch
import Hooks
import Testing

@Suite("PluginLog")
struct PluginLogTests {
  @Test("lines carry the plugin's name, and a message of several lines is written as one")
  func lines() {
    let log = PluginLog("fading-bar")
    let ((), lines) = PluginLog.collecting {
      log("installed")
      log.write("first\nsecond\r\nthird")
    }
    let mine = lines.filter { $0.plugin == "fading-bar" }
    #expect(mine.map(\.message) == ["installed", "first second third"])
    #expect(mine.first?.description == "[fading-bar] installed")
    #expect(PluginLog("  ").plugin == "plugin", "an empty name is written as `plugin`")
  }

  @Test("every observer sees lines written on any thread while it watches, and none after")
  func threads() {
    let log = PluginLog("threads-test")
    let ((), outer) = PluginLog.collecting {
      let ((), inner) = PluginLog.collecting {
        DispatchQueue.concurrentPerform(iterations: 8) { index in log("line \(index)") }
      }
      #expect(inner.filter { $0.plugin == "threads-test" }.count == 8)
    }
    #expect(outer.filter { $0.plugin == "threads-test" }.count == 8)
    let ((), after) = PluginLog.collecting {}
    #expect(!after.contains { $0.plugin == "threads-test" }, "the observer is gone")
  }
}
