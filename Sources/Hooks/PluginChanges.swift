// What a plugin changed outside the method tables, to undo when it is uninstalled.
import ObjCRuntime

/// The objects a plugin changed outside the method tables (views it added to bars, delegates it
/// wrapped, gestures it added), each with how to undo the change, so that its
/// ``HookPlugin/uninstall()`` can give them back. The hooks come off by themselves (the registry
/// removes them); this is for everything else.
///
/// Objects are held weakly: an object that died needs nothing undone. ``undoAll()`` undoes the
/// changes of the objects still alive, newest first, as a stack of changes unwinds. An undo gets
/// its object as its argument: it must not capture it, or the list would keep it alive.
///
/// The list itself is safe from any thread; the objects in it are not, so note and undo on the
/// thread that uses them (for the UIKit model's objects, the model's thread, where a plugin's
/// hooks and its `uninstall()` run).
///
/// ```swift
/// static let touchedBars = PluginChanges<UINavigationBar>()
/// // while the plugin works:
/// touchedBars.note(bar) { bar in bar.removeMyBackground() }
/// // in uninstall():
/// touchedBars.undoAll()
/// ```
public final class PluginChanges<Object: AnyObject>: Sendable {
  /// One changed object. `@unchecked Sendable`: its fields are only read and written under the
  /// list's lock; the object is handed to its undo outside the lock, on the thread that undoes.
  private final class Change: @unchecked Sendable {
    weak var object: Object?
    let undo: @Sendable (Object) -> Void

    init(_ object: Object, undo: @escaping @Sendable (Object) -> Void) {
      self.object = object
      self.undo = undo
    }
  }

  private struct State {
    var changes: [ObjectIdentifier: (order: Int, change: Change)] = [:]
    var counter = 0
  }

  // Sendable although `Object` may not be: the lock guards the table, and the objects are only
  // handed to their undos, on the thread that calls `undoAll()` (see above).
  private let state = RuntimeLock(State())

  /// An empty list.
  public init() {}

  /// Notes that `object` was changed and how to undo it. An object noted again keeps its first
  /// undo (the one that gives back what it was before the plugin touched it), unless the earlier
  /// object of that identity died.
  public func note(_ object: Object, undo: @escaping @Sendable (Object) -> Void) {
    state.withLock { state in
      let key = ObjectIdentifier(object)
      if let known = state.changes[key], known.change.object === object { return }
      state.counter += 1
      state.changes[key] = (state.counter, Change(object, undo: undo))
    }
  }

  /// The objects noted that are still alive, oldest first.
  public var objects: [Object] {
    state.withLock { state in
      state.changes.values.sorted { $0.order < $1.order }.compactMap { $0.change.object }
    }
  }

  /// Undoes the change of every noted object still alive, newest first, and forgets them all.
  /// The undos run outside the list's lock, so an undo may note again.
  public func undoAll() {
    let pending = state.withLock { state in
      defer { state.changes.removeAll() }
      return state.changes.values.sorted { $0.order > $1.order }.compactMap { entry in
        entry.change.object.map { ($0, entry.change.undo) }
      }
    }
    for (object, undo) in pending { undo(object) }
  }
}
