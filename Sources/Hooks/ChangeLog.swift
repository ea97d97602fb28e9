// Who changed which method: the runtime's change events, attributed to the plugin installing at
// the time, for the hook map and for the hook framework's warnings.
import ObjCRuntime

/// One change of a method's implementation made through the runtime API.
public struct MethodChange: Sendable, CustomStringConvertible {
  /// What kind of change.
  public enum Kind: Sendable, Hashable {
    /// `class_addMethod`, or the add path of `class_replaceMethod`.
    case added
    /// `method_setImplementation` or `class_replaceMethod`.
    case replaced
    /// `method_exchangeImplementations`, with the other method.
    case exchanged(with: MethodReference)
  }

  /// The method changed.
  public let method: MethodReference
  /// The kind of change.
  public let kind: Kind
  /// The plugin that was installing when the change was made; nil outside plugin installation.
  public let plugin: String?
  /// Where in the source the change was made.
  public let location: SourceLocation
  /// When, relative to other changes and hooks.
  internal let sequence = ChangeSequence.next()
  /// For an exchange, the other Method's identity: what tells an exchange undone by the next.
  internal let exchangedWith: ObjectIdentifier?

  internal init(
    method: MethodReference, kind: Kind, plugin: String?, location: SourceLocation,
    exchangedWith: ObjectIdentifier? = nil
  ) {
    self.method = method
    self.kind = kind
    self.plugin = plugin
    self.location = location
    self.exchangedWith = exchangedWith
  }

  /// Who made the change: the plugin, or else the source location.
  public var author: String {
    plugin.map { "plugin \($0)" } ?? "\(location)"
  }

  /// One line: `exchange -[A x] <-> -[A y] by plugin P`.
  public var description: String {
    switch kind {
    case .added: "add \(method) by \(author)"
    case .replaced: "replace \(method) by \(author)"
    case .exchanged(let other): "exchange \(method) <-> \(other) by \(author)"
    }
  }
}

/// Records the method changes the runtime reports, while hooks or plugins are in use: what the
/// hook map draws and what a blocked restore names.
///
/// The log is bounded. Changes are kept per method, at most ``limitPerMethod`` of them (the
/// oldest are dropped, and counted); an exchange that undoes the previous exchange of the same
/// two methods removes both instead of adding a third and fourth entry; a disposed class's
/// methods are forgotten. So a program that swizzles in a loop keeps a log of fixed size.
///
/// The hook engine's own table edits (installing an interceptor, restoring a method, making a
/// dynamic subclass) are not changes of anyone's: the engine marks them with
/// ``engineEditing``, a task-local, instead of the log guessing from source paths.
///
/// `@unchecked Sendable`: the log is read and written under its lock only.
internal final class ChangeLog: RuntimeTracer, @unchecked Sendable {
  static let shared: ChangeLog = {
    let log = ChangeLog()
    Tracing.addObserver(log)
    return log
  }()

  /// The most changes kept per method.
  static let limitPerMethod = 32

  /// Set while the hook engine edits tables itself: runtime events then are not changes.
  @TaskLocal static var engineEditing = false

  /// Runs `body`, an edit of the hook engine's own, with ``engineEditing`` set.
  static func engineEdit<Value, Failure: Error>(_ body: () throws(Failure) -> Value)
    throws(Failure) -> Value
  {
    let result = $engineEditing.withValue(true) {
      Result { () throws(Failure) -> Value in try body() }
    }
    return try result.get()
  }

  /// The changes per method, found by the Method's identity (a pointer, hashed in a few
  /// instructions; the names it is shown by would be two strings hashed on every change).
  /// Methods live as long as their class, and a disposed class's are dropped.
  private struct State {
    var changes: [ObjectIdentifier: [MethodChange]] = [:]
    var dropped = 0
  }

  private let state = RuntimeLock(State())

  /// Starts recording, if it has not started.
  static func start() { _ = shared }

  func runtime(_ event: RuntimeEvent) {
    if case .classDisposed(let cls, _) = event {
      let name = cls.name
      state.withLock { state in
        state.changes = state.changes.filter { $0.value.first?.method.className != name }
      }
      return
    }
    guard !ChangeLog.engineEditing else { return }
    let plugin = PluginRegistry.installingPluginName
    switch event {
    case .methodAdded(let method, let location):
      append(
        MethodChange(method: reference(method), kind: .added, plugin: plugin, location: location),
        of: method)
    case .implementationSet(let method, _, _, let location):
      append(
        MethodChange(
          method: reference(method), kind: .replaced, plugin: plugin, location: location),
        of: method)
    case .implementationsExchanged(let first, let second, let location):
      let one = ObjectIdentifier(first)
      let other = ObjectIdentifier(second)
      let undone = state.withLock { state -> Bool in
        // Exchanging the same two methods again puts both back: the two exchanges cancel.
        // Each method's list is found once (a swizzle toggled in a loop comes here each time).
        guard let first = state.changes.index(forKey: one),
          let second = state.changes.index(forKey: other),
          state.changes.values[first].last?.exchangedWith == other,
          state.changes.values[second].last?.exchangedWith == one
        else { return false }
        state.changes.values[first].removeLast()
        state.changes.values[second].removeLast()
        let emptied = (state.changes.values[first].isEmpty, state.changes.values[second].isEmpty)
        if emptied.0 { state.changes.remove(at: first) }
        if emptied.1 { state.changes[other] = nil }
        return true
      }
      guard !undone else { return }
      // The names only for an exchange that is kept.
      let firstReference = reference(first)
      let secondReference = reference(second)
      state.withLock { state in
        ChangeLog.append(
          MethodChange(
            method: firstReference, kind: .exchanged(with: secondReference), plugin: plugin,
            location: location, exchangedWith: other),
          of: one, to: &state)
        ChangeLog.append(
          MethodChange(
            method: secondReference, kind: .exchanged(with: firstReference), plugin: plugin,
            location: location, exchangedWith: one),
          of: other, to: &state)
      }
    default:
      return
    }
  }

  private func append(_ change: MethodChange, of method: Method) {
    state.withLock { ChangeLog.append(change, of: ObjectIdentifier(method), to: &$0) }
  }

  private static func append(
    _ change: MethodChange, of method: ObjectIdentifier, to state: inout State
  ) {
    var list = state.changes.removeValue(forKey: method) ?? []
    list.append(change)
    if list.count > limitPerMethod {
      list.removeFirst(list.count - limitPerMethod)
      state.dropped += 1
    }
    state.changes[method] = list
  }

  private func reference(_ method: Method) -> MethodReference {
    MethodReference(owner: method.owner, selector: method.selector)
  }

  /// Every change kept, oldest first.
  var all: [MethodChange] {
    state.withLock { $0.changes.values.flatMap { $0 } }.sorted { $0.sequence < $1.sequence }
  }

  /// How many changes were kept, in all, and how many older ones were dropped.
  var size: (kept: Int, dropped: Int) {
    state.withLock { state in (state.changes.values.reduce(0) { $0 + $1.count }, state.dropped) }
  }

  /// Who last replaced or exchanged `method`, as a phrase for a warning.
  func lastChange(of method: Method) -> String? {
    state.withLock { state in
      state.changes[ObjectIdentifier(method)]?.last { $0.kind != .added }?.author
    }
  }
}
