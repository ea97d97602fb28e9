// The runtime's event tap: method-table changes, cache flushes and sends, for tools.
import Synchronization

/// Where in the caller's source a runtime change was made.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The file, as `#fileID` gives it (`Module/File.swift`).
  public let fileID: String
  /// The line; zero when it is not known (code from another compiler names only its file).
  public let line: Int

  /// A location.
  public init(fileID: String, line: Int) {
    self.fileID = fileID
    self.line = line
  }

  /// `Module/File.swift:42`, or the file alone when the line is not known.
  public var description: String { line > 0 ? "\(fileID):\(line)" : fileID }
}

/// Something the runtime did, as a tracer sees it.
public enum RuntimeEvent: Sendable, CustomStringConvertible {
  /// A class was made (a Swift class on first use).
  case classRealized(Class)
  /// `class_addMethod` (or the add path of `class_replaceMethod`) added a method.
  case methodAdded(Method, by: SourceLocation)
  /// A method's implementation changed (`method_setImplementation`, `class_replaceMethod`).
  case implementationSet(Method, old: IMP?, new: IMP?, by: SourceLocation)
  /// Two methods swapped implementations.
  case implementationsExchanged(Method, Method, by: SourceLocation)
  /// An object's isa changed.
  case classSet(object: String, from: Class, to: Class, by: SourceLocation)
  /// A class made at run time was disposed of.
  case classDisposed(Class, by: SourceLocation)
  /// A class's caches were emptied; `reason` says which change caused it.
  case cacheFlushed(Class, reason: String)
  /// A traced selector was sent: the class the lookup started at, and the method it found (the
  /// Swift entry point when there is one).
  case messageSent(receiverClass: Class, selector: Selector, method: Method?)

  /// One line for a trace.
  public var description: String {
    switch self {
    case .classRealized(let cls):
      "realize \(cls.name)"
    case .methodAdded(let method, let location):
      "add \(method) at \(location)"
    case .implementationSet(let method, let old, let new, let location):
      "set \(method) \(old.map { "\($0)" } ?? "nil") -> \(new.map { "\($0)" } ?? "nil") at \(location)"
    case .implementationsExchanged(let first, let second, let location):
      "exchange \(first) <-> \(second) at \(location)"
    case .classSet(let object, let from, let to, let location):
      "isa \(object) \(from.name) -> \(to.name) at \(location)"
    case .classDisposed(let cls, let location):
      "dispose \(cls.name) at \(location)"
    case .cacheFlushed(let cls, let reason):
      "flush \(cls.isMetaClass ? "+" : "")\(cls.name) (\(reason))"
    case .messageSent(let cls, let selector, let method):
      "send \(cls.isMetaClass ? "+" : "-")[\(cls.name) \(selector)]"
        + (method.map { $0.isSwiftEntry ? " -> Swift entry" : " -> \($0)" } ?? " -> unrecognized")
    }
  }
}

/// A receiver of runtime events, such as the lab's trace or the hook map.
///
/// Events arrive on the thread that caused them, outside the runtime lock, so a tracer may use
/// the runtime; it must be thread-safe.
public protocol RuntimeTracer: AnyObject, Sendable {
  /// Called for every event.
  func runtime(_ event: RuntimeEvent)
}

/// An installed tracer and the selectors whose sends it wants.
internal struct TracerRegistration {
  let tracer: any RuntimeTracer
  let tracedSelectors: Set<Selector>
}

/// Installs and removes the runtime's tracers.
///
/// With no tracer the send path pays nothing: a traced selector is simply never cached, so its
/// sends take the slow path, which reports them. Installing or removing a tracer therefore
/// flushes every cache once. Several tracers may be installed at once (a test's and the lab's);
/// each gets every change and the sends of the selectors it asked for.
public enum Tracing {
  /// A cheap check for change paths, so that they build events only when someone listens.
  private static let active = Atomic<Bool>(false)

  /// Installs `tracer` (again, if it was: its selectors are replaced) and reports sends of
  /// `selectors` to it.
  public static func install(
    _ tracer: any RuntimeTracer, tracingSends selectors: Set<Selector> = []
  ) {
    let registration = TracerRegistration(tracer: tracer, tracedSelectors: selectors)
    Runtime.state.withLock { tables in
      tables.tracers[ObjectIdentifier(tracer)] = registration
      active.store(true, ordering: .releasing)
      flushAll(&tables)
    }
  }

  /// Removes `tracer`.
  public static func remove(_ tracer: any RuntimeTracer) {
    Runtime.state.withLock { tables in
      tables.tracers[ObjectIdentifier(tracer)] = nil
      active.store(
        !tables.tracers.isEmpty || !tables.observers.isEmpty, ordering: .releasing)
      flushAll(&tables)
    }
  }

  /// Adds an observer of changes: every event except ``RuntimeEvent/messageSent(receiverClass:selector:method:)``,
  /// beside the tracer and any other observer. The hook registry observes this way, so that the
  /// lab's trace and the hook map can both be on. Adding an observer twice has no effect.
  public static func addObserver(_ observer: any RuntimeTracer) {
    Runtime.state.withLock { tables in
      tables.observers[ObjectIdentifier(observer)] = observer
      active.store(true, ordering: .releasing)
    }
  }

  /// Removes an observer added with ``addObserver(_:)``.
  public static func removeObserver(_ observer: any RuntimeTracer) {
    Runtime.state.withLock { tables in
      tables.observers[ObjectIdentifier(observer)] = nil
      active.store(!tables.tracers.isEmpty || !tables.observers.isEmpty, ordering: .releasing)
    }
  }

  private static func flushAll(_ tables: inout RuntimeTables) {
    for cls in tables.classes {
      cls.sendCache.flush()
      cls.tableCache.flush()
      cls.metaclass.sendCache.flush()
      cls.metaclass.tableCache.flush()
    }
  }

  /// Sends `event` to the tracers and observers. Call without the runtime lock.
  internal static func emit(_ event: @autoclosure () -> RuntimeEvent) {
    guard active.load(ordering: .acquiring) else { return }
    let (tracers, observers) = Runtime.state.withLock { tables in
      (Array(tables.tracers.values), Array(tables.observers.values))
    }
    guard !tracers.isEmpty || !observers.isEmpty else { return }
    let event = event()
    if case .messageSent(_, let selector, _) = event {
      // A send goes to the tracers that asked for its selector.
      for registration in tracers where registration.tracedSelectors.contains(selector) {
        registration.tracer.runtime(event)
      }
      return
    }
    for registration in tracers { registration.tracer.runtime(event) }
    for observer in observers { observer.runtime(event) }
  }

  /// Whether sends of `selector` are traced; the tables it reads are only had under the runtime
  /// lock, so the signature holds the rule.
  internal static func traces(_ selector: Selector, in tables: borrowing RuntimeTables) -> Bool {
    tables.tracers.values.contains { $0.tracedSelectors.contains(selector) }
  }
}
