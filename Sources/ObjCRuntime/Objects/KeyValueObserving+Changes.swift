// Key-value observing's changes: willChange records the value before a change in the object's
// observation table, didChange tells the observers with the value after it (KeyValueObserving.swift
// registers them and makes the notifying setters).
extension KeyValueObserving {
  static func willChange(_ object: ObjCObject, key: String) {
    willChange(object, reader(for: key))
  }

  /// `willChange` for the key `reader` reads: what a notifying setter calls, with the reader it
  /// was made with.
  ///
  /// Returns the object's table, in which the change is recorded, for the matching
  /// ``didChange(_:_:in:)``.
  @discardableResult
  static func willChange(_ object: ObjCObject, _ reader: KeyReader) -> ObservationTable {
    // A table even for an object nobody observes yet: an observer added before the matching
    // didChange must find the change recorded, and not be told of it. Every notifying setter
    // comes here: the global lock only when the object has no table yet.
    let table = object[tableKey] ?? makeTable(for: object)
    willChange(object, reader, in: table)
    return table
  }

  private static func willChange(
    _ object: ObjCObject, _ reader: KeyReader, in table: ObservationTable
  ) {
    // The registrations are read in place, not copied (each holds a weak reference): whether
    // any wants the old value, and the observers told before the change (`.prior`).
    let (wantsOld, priors, registeredBefore) = table.state.withLock {
      state -> (Bool, [Told], Int) in
      var wantsOld = false
      var priors: [Told] = []
      for registration in state.registrations where registration.reader === reader {
        let options = registration.options
        guard !options.isDisjoint(with: [.old, .prior]), registration.observer != nil else {
          continue
        }
        wantsOld = true
        if options.contains(.prior), let observer = registration.observer {
          priors.append(Told(observer, options, registration.context))
        }
      }
      return (wantsOld, priors, state.nextNumber + 1)
    }
    // Read outside the lock: a getter may send anything.
    let old = wantsOld ? ((try? reader.read(object)) ?? nil) : nil
    // The change remembers who observed it when it began: an observer added before its
    // didChange is not told about a change whose old value it never had, and one removed
    // meanwhile is not told at all.
    // The old value moves into the change (an `Any?` copied costs its value witnesses); the
    // observers told before the change read it there.
    let change = ObservationTable.PendingChange(
      reader: ObjectIdentifier(reader), thread: currentThread(), old: consume old,
      registeredBefore: registeredBefore)
    table.state.withLock { $0.pending.append(change) }
    for told in priors {
      told.observer.observeValue(
        forKeyPath: reader.key, of: object,
        change: KeyValueChange(
          oldValue: told.options.contains(.old) ? change.old : nil, newValue: nil, isPrior: true),
        context: UnsafeMutableRawPointer(bitPattern: told.context))
    }
  }

  static func didChange(_ object: ObjCObject, key: String) {
    didChange(object, reader(for: key))
  }

  /// `didChange` for the key `reader` reads.
  static func didChange(_ object: ObjCObject, _ reader: KeyReader) {
    guard let table = object[tableKey] else { return }
    didChange(object, reader, in: table)
  }

  /// `didChange` for the key `reader` reads, in the table its `willChange` recorded the change
  /// in: a notifying setter reads the object's table once for both.
  static func didChange(_ object: ObjCObject, _ reader: KeyReader, in table: ObservationTable) {
    let thread = currentThread()
    let identity = ObjectIdentifier(reader)
    // The first observer apart: one observer (the usual case) needs no array.
    let (first, others, change) = table.state.withLock {
      state -> (Told?, [Told], ObservationTable.PendingChange?) in
      let index = state.pending.lastIndex { $0.reader == identity && $0.thread == thread }
      let change = index.map { state.pending.remove(at: $0) }
      let before = change?.registeredBefore ?? .max
      var first: Told?
      var others: [Told] = []
      for registration in state.registrations
      where registration.reader === reader && registration.number < before {
        guard let observer = registration.observer else { continue }
        let told = Told(observer, registration.options, registration.context)
        if first == nil { first = told } else { others.append(told) }
      }
      return (first, others, change)
    }
    guard let first else {
      pruneDeadObservers(object, table)
      return
    }
    let old = change?.old ?? nil
    let wantsNew = first.options.contains(.new) || others.contains { $0.options.contains(.new) }
    let new = wantsNew ? ((try? reader.read(object)) ?? nil) : nil
    func tell(_ told: Told) {
      told.observer.observeValue(
        forKeyPath: reader.key, of: object,
        change: KeyValueChange(
          oldValue: told.options.contains(.old) ? old : nil,
          newValue: told.options.contains(.new) ? new : nil, isPrior: false),
        context: UnsafeMutableRawPointer(bitPattern: told.context))
    }
    guard others.isEmpty else {
      tell(first)
      for told in others { tell(told) }
      return
    }
    // One observer (the usual case): both values move into its change.
    first.observer.observeValue(
      forKeyPath: reader.key, of: object,
      change: KeyValueChange(
        oldValue: first.options.contains(.old) ? consume old : nil,
        newValue: first.options.contains(.new) ? consume new : nil, isPrior: false),
      context: UnsafeMutableRawPointer(bitPattern: first.context))
  }

  /// An observer to tell, held strongly while it is told, with what its registration asked.
  private struct Told {
    let observer: ObjCObject
    let options: KeyValueObservingOptions
    let context: UInt

    init(_ observer: ObjCObject, _ options: KeyValueObservingOptions, _ context: UInt) {
      self.observer = observer
      self.options = options
      self.context = context
    }
  }

  /// Observers that died without removing themselves (Foundation's would be left dangling)
  /// are forgotten, and when none is left the object gets its class back, as when the last
  /// observer is removed.
  private static func pruneDeadObservers(_ object: ObjCObject, _ table: ObservationTable) {
    let allDead = table.state.withLock { state in
      !state.registrations.isEmpty && state.registrations.allSatisfy { $0.observer == nil }
    }
    guard allDead else { return }
    ClassChangeLock.withLock(for: ObjectIdentifier(object)) {
      let restored = table.state.withLock { state -> Class? in
        guard state.registrations.allSatisfy({ $0.observer == nil }) else { return nil }
        state.registrations.removeAll()
        guard let original = state.original, let hidden = state.hidden,
          object.isa.takeUnretainedValue() === hidden, state.pending.isEmpty
        else { return nil }
        state.original = nil
        state.hidden = nil
        _ = try? object.setClassUnsettled(original)
        return original
      }
      // Still under the object's lock: a hook installed on another thread meanwhile would see
      // the layer below half settled.
      if let restored, restored.isIsaLayer { IsaLayers.arrived(object, at: restored) }
    }
  }
}
