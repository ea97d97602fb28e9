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

/// Records every method change the runtime reports, while hooks or plugins are in use.
///
/// `@unchecked Sendable`: the log is read and written under its lock only.
internal final class ChangeLog: RuntimeTracer, @unchecked Sendable {
  static let shared: ChangeLog = {
    let log = ChangeLog()
    Tracing.addObserver(log)
    return log
  }()

  private let changes = RuntimeLock<[MethodChange]>([])

  /// Starts recording, if it has not started.
  static func start() { _ = shared }

  func runtime(_ event: RuntimeEvent) {
    let plugin = PluginRegistry.installingPluginName
    let recorded: [MethodChange]
    switch event {
    case .methodAdded(_, let location) where location.fileID.hasPrefix("Hooks/"):
      // The hook engine's own installs are shown by the hook sites, not as changes.
      return
    case .implementationSet(_, _, _, let location) where location.fileID.hasPrefix("Hooks/"):
      return
    case .methodAdded(let method, let location):
      recorded = [
        MethodChange(
          method: reference(method), kind: .added, plugin: plugin, location: location)
      ]
    case .implementationSet(let method, _, _, let location):
      recorded = [
        MethodChange(
          method: reference(method), kind: .replaced, plugin: plugin, location: location)
      ]
    case .implementationsExchanged(let first, let second, let location):
      recorded = [
        MethodChange(
          method: reference(first), kind: .exchanged(with: reference(second)), plugin: plugin,
          location: location),
        MethodChange(
          method: reference(second), kind: .exchanged(with: reference(first)), plugin: plugin,
          location: location),
      ]
    default:
      return
    }
    changes.withLock { $0 += recorded }
  }

  private func reference(_ method: Method) -> MethodReference {
    MethodReference(owner: method.owner, selector: method.selector)
  }

  /// Every change so far, oldest first.
  var all: [MethodChange] { changes.withLock { $0 } }

  /// Who last replaced or exchanged `method`, as a phrase for a warning.
  func lastChange(of method: Method) -> String? {
    let target = reference(method)
    return changes.withLock { changes in
      changes.last { $0.method == target && $0.kind != .added }?.author
    }
  }
}
