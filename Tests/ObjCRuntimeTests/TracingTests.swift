// The event tap: table changes with their source, flushes, and sends of traced selectors.
import ObjCRuntime
import Testing

/// Records the events about one class, ignoring what other tests do meanwhile.
private final class Recorder: RuntimeTracer {
  let className: String
  private let events = RuntimeLock<[String]>([])

  init(className: String) {
    self.className = className
  }

  func runtime(_ event: RuntimeEvent) {
    let line = event.description
    guard line.contains(className) else { return }
    events.withLock { $0.append(line) }
  }

  var lines: [String] { events.withLock { $0 } }
}

@Suite("Tracing", .serialized)
struct TracingTests {
  @Test("table changes are reported with the file and line that made them")
  func tableChanges() throws {
    let cls = makeClass("Traced", methods: [("first", Constant.one), ("second", Constant.two)])
    let recorder = Recorder(className: cls.name)
    Tracing.install(recorder)
    defer { Tracing.remove(recorder) }

    _ = sendInt(instance(of: cls), "first")
    class_addMethod(cls, "third", Constant.imp(Constant.three), "q@:")
    method_exchangeImplementations(
      class_getInstanceMethod(cls, "first"), class_getInstanceMethod(cls, "second"))
    method_setImplementation(class_getInstanceMethod(cls, "third"), Constant.imp(Constant.four))

    let lines = recorder.lines
    #expect(
      lines.contains {
        $0.hasPrefix("add -[\(cls.name) third] at ObjCRuntimeTests/TracingTests.swift:")
      })
    #expect(lines.contains { $0.hasPrefix("flush \(cls.name) (added -[\(cls.name) third])") })
    #expect(
      lines.contains { $0.hasPrefix("exchange -[\(cls.name) first] <-> -[\(cls.name) second]") })
    #expect(lines.contains { $0.hasPrefix("set -[\(cls.name) third]") })
  }

  @Test("sends of traced selectors are reported every time; others are not")
  func tracedSends() {
    let cls = makeClass(
      "TracedSends", methods: [("watched", Constant.one), ("quiet", Constant.two)])
    let object = instance(of: cls)
    let recorder = Recorder(className: cls.name)
    Tracing.install(recorder, tracingSends: ["watched"])
    #expect(sendTwice(object, "watched") == [1, 1])
    #expect(sendTwice(object, "quiet") == [2, 2])
    Tracing.remove(recorder)
    _ = sendInt(object, "watched")

    let sends = recorder.lines.filter { $0.hasPrefix("send") }
    #expect(
      sends == Array(repeating: "send -[\(cls.name) watched] -> -[\(cls.name) watched]", count: 2))
  }

  @Test("an unrecognized traced send is reported as such")
  func unrecognizedSend() {
    let cls = makeClass("TracedMissing")
    let recorder = Recorder(className: cls.name)
    Tracing.install(recorder, tracingSends: ["missing"])
    defer { Tracing.remove(recorder) }
    #expect(sendInt(instance(of: cls), "missing") == nil)
    #expect(recorder.lines.contains("send -[\(cls.name) missing] -> unrecognized"))
  }
}
