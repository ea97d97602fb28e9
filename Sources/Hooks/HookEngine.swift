// Installing and removing hooks: sites per (class, selector), dynamic subclasses for per-object
// hooks, and the rules for restoring what was there before.
import ObjCRuntime

/// A hooked (class, selector), as the sites table keys it.
internal struct SiteKey: Hashable {
  let cls: ObjectIdentifier
  let selector: Selector
}

/// The per-object state of an object with hooks of its own: the class it had before we gave it
/// our dynamic subclass, and its live hooks.
internal final class HookedObject {
  let originalClass: Class
  let dynamicClass: Class
  var entries: [HookEntry] = []

  init(originalClass: Class, dynamicClass: Class) {
    self.originalClass = originalClass
    self.dynamicClass = dynamicClass
  }
}

/// Removes the hooks of an object when it dies: attached to the object as an association, so it
/// is released right after the object's deinit.
///
/// `@unchecked Sendable`: it holds only an immutable identifier.
private final class DeathWatch: @unchecked Sendable {
  let key: ObjectIdentifier
  init(_ key: ObjectIdentifier) { self.key = key }
  deinit { HookEngine.objectDied(key) }
}

/// Everything the hook engine changes, under one lock: calls never take it, installs and
/// removals always do.
internal struct EngineState {
  var sites: [SiteKey: HookSite] = [:]
  /// Our dynamic subclass of each class, made on the first per-object hook of an instance.
  var dynamicSubclasses: [ObjectIdentifier: Class] = [:]
  /// The dynamic subclasses we made, to recognize them.
  var ourClasses: Set<ObjectIdentifier> = []
  var hookedObjects: [ObjectIdentifier: HookedObject] = [:]
  var liveHooks = 0
}

/// Installs and removes hooks.
internal enum HookEngine {
  static let state = RuntimeLock(EngineState())
  static let deathWatchKey: Selector = "SwizzleKit.Hooks.deathWatch"

  /// Selectors no hook may touch: the runtime's own machinery.
  static let blacklist: Set<Selector> = [
    "retain", "release", "autorelease", "retainCount", "forwardInvocation:",
    "methodSignatureForSelector:", "forwardingTargetForSelector:", "resolveInstanceMethod:",
    "resolveClassMethod:",
  ]

  /// The checks every install makes before changing anything: the selector, the position, and
  /// the hook's types against the method's signature, which it returns.
  static func validate(
    _ cls: Class, _ selector: Selector, _ position: HookPosition,
    check: (MethodSignature) throws(HookError) -> Void
  ) throws(HookError) -> MethodSignature {
    let reference = MethodReference(owner: cls, selector: selector)
    guard !blacklist.contains(selector) else { throw .blacklisted(reference) }
    if selector == "dealloc", position != .before {
      throw .deallocPosition(reference, position)
    }
    // A method whose implementation is the forward IMP (Aspects hooked it) can be hooked: the
    // site's original is then the forward IMP, which forwards each call the hooks pass on.
    guard let method = cls.instanceMethod(for: selector) else {
      throw .unknownSelector(reference)
    }
    let signature = try signature(of: method)
    do {
      try check(signature)
    } catch .signatureMismatch(_, let expected, let hook) {
      // The typed check knows the closure's types, not the class: name the method fully.
      throw .signatureMismatch(reference, method: expected, hook: hook)
    }
    return signature
  }

  /// Adds a class-wide hook to `cls` (a metaclass for class methods).
  static func install(
    on cls: Class, _ selector: Selector, position: HookPosition, options: HookOptions,
    check: (MethodSignature) throws(HookError) -> Void,
    body: HookBody
  ) throws(HookError) -> HookEntry {
    let signature = try validate(cls, selector, position, check: check)
    let owner = PluginRegistry.installingPluginName
    // The snapshot replaced goes after the lock (`HookSite.replaceSnapshot`).
    var retired = EpochCell<SiteSnapshot>.Freed()
    defer { withExtendedLifetime(retired) {} }
    return try state.withLock { state throws(HookError) -> HookEntry in
      let site = try self.site(cls, selector, signature, &state)
      let entry = HookEntry(
        position: position, once: options.contains(.once), site: site, object: nil,
        owner: owner, body: body)
      try installIfNeeded(site, retired: &retired)
      retired.take(site.replaceSnapshot { $0.with(classHooks: $0.classHooks.adding(entry)) })
      state.liveHooks += 1
      checkConsistency(state)
      return entry
    }
  }

  /// Adds a hook for `object` alone: the object gets our dynamic subclass of its class (made
  /// once per class, shared by every hooked object of that class), and the hook goes on that
  /// subclass's site, filtered by object.
  ///
  /// Under the object's class-change lock (`ClassChangeLock`), so that key-value observing on
  /// another thread does not change the object's class between our read and our write.
  static func install(
    on object: ObjCObject, _ selector: Selector, position: HookPosition, options: HookOptions,
    check: (MethodSignature) throws(HookError) -> Void,
    body: HookBody
  ) throws(HookError) -> HookEntry {
    HookEngine.settles
    // The snapshot replaced goes after both locks (`HookSite.replaceSnapshot`).
    var retired = EpochCell<SiteSnapshot>.Freed()
    defer { withExtendedLifetime(retired) {} }
    return try ClassChangeLock.withLock(for: ObjectIdentifier(object)) { () throws(HookError) in
      try installLocked(
        on: object, selector, position: position, options: options, check: check, body: body,
        retired: &retired)
    }
  }

  private static func installLocked(
    on object: ObjCObject, _ selector: Selector, position: HookPosition, options: HookOptions,
    check: (MethodSignature) throws(HookError) -> Void,
    body: HookBody, retired: inout EpochCell<SiteSnapshot>.Freed
  ) throws(HookError) -> HookEntry {
    let signature = try validate(object_getClass(object)!, selector, position, check: check)
    let owner = PluginRegistry.installingPluginName
    let key = ObjectIdentifier(object)
    var watch: DeathWatch?
    let entry = try state.withLock { state throws(HookError) -> HookEntry in
      let record: HookedObject
      if let known = state.hookedObjects[key],
        object_getClass(object)! === known.dynamicClass
          || object_getClass(object)!.inherits(from: known.dynamicClass)
      {
        record = known
      } else {
        let current = object_getClass(object)!
        let dynamic = try dynamicSubclass(of: current, for: object, &state)
        do {
          // Our own layer going on: nothing to settle (`IsaLayers`).
          _ = try object.setClassUnsettled(dynamic)
        } catch {
          throw .cannotSubclass(
            object: object.description, className: current.name, reason: "\(error)")
        }
        record = HookedObject(originalClass: current, dynamicClass: dynamic)
        if let stale = state.hookedObjects[key] {
          // Someone took our class off the object; its hooks come back with the new one.
          record.entries = stale.entries
        } else {
          watch = DeathWatch(key)
        }
        state.hookedObjects[key] = record
      }
      let site = try self.site(record.dynamicClass, selector, signature, &state)
      let entry = HookEntry(
        position: position, once: options.contains(.once), site: site, object: object,
        owner: owner, body: body)
      try installIfNeeded(site, retired: &retired)
      retired.take(
        site.replaceSnapshot { $0.with($0.objectHooks.list(of: key).adding(entry), for: key) })
      record.entries.append(entry)
      state.liveHooks += 1
      return entry
    }
    // Outside the engine's lock: setting an association may release an old value.
    if let watch {
      objc_setAssociatedObject(object, deathWatchKey, watch, .OBJC_ASSOCIATION_RETAIN)
    }
    return entry
  }

  private static func signature(of method: Method) throws(HookError) -> MethodSignature {
    do {
      return try MethodSignature(types: method.typeEncoding)
    } catch {
      throw .runtime(error)
    }
  }

  private static func site(
    _ cls: Class, _ selector: Selector, _ signature: MethodSignature, _ state: inout EngineState
  ) throws(HookError) -> HookSite {
    let key = SiteKey(cls: ObjectIdentifier(cls), selector: selector)
    if let site = state.sites[key] { return site }
    let site = try HookSite.make(cls: cls, selector: selector, signature: signature)
    state.sites[key] = site
    return site
  }

  /// Puts the site's interceptor in its class, if it is not there: as the implementation of the
  /// class's own method (remembering the one it replaces), or as a method added to a class that
  /// only inherited the selector.
  private static func installIfNeeded(
    _ site: HookSite, retired: inout EpochCell<SiteSnapshot>.Freed
  )
    throws(HookError)
  {
    switch site.installation {
    case .replaced, .added, .passThrough: return
    case .none: break
    }
    let interceptor = site.interceptor.implementation
    if let own = site.cls.methods.first(where: { $0.selector == site.selector }) {
      let original = own.implementation ?? .forward
      retired.take(site.replaceSnapshot { $0.with(original: original) })
      do {
        // An interceptor is a closure of the runtime's: never refused for its receivers.
        try ChangeLog.engineEdit { () throws(ObjCRuntimeError) in
          _ = try own.setImplementation(interceptor)
        }
      } catch {
        throw .runtime(error)
      }
      site.installedMethod = own
      site.installation = .replaced
    } else {
      do {
        try ChangeLog.engineEdit { () throws(ObjCRuntimeError) in
          _ = try site.cls.addMethod(
            site.selector, implementation: interceptor, types: site.signature.typeEncoding)
        }
      } catch {
        throw .runtime(error)
      }
      retired.take(site.replaceSnapshot { $0.with(original: nil) })
      site.installedMethod = site.cls.methods.first { $0.selector == site.selector }
      site.installation = .added
    }
  }

  /// Makes (once per class) the dynamic subclass per-object hooks live in. Like KVO's, it hides
  /// itself: `-class` answers the class the object had.
  private static func dynamicSubclass(
    of cls: Class, for object: ObjCObject, _ state: inout EngineState
  ) throws(HookError) -> Class {
    // Classes are compared by identity, and a class made at run time can be disposed of and its
    // address reused by a new one: a remembered class counts only while the runtime still
    // knows it by its name.
    func isLive(_ known: Class) -> Bool { objc_getClass(known.name) === known }
    if state.ourClasses.contains(ObjectIdentifier(cls)), isLive(cls) { return cls }
    if let known = state.dynamicSubclasses[ObjectIdentifier(cls)] {
      if isLive(known), known.superclass === cls { return known }
      state.dynamicSubclasses[ObjectIdentifier(cls)] = nil
      state.ourClasses.remove(ObjectIdentifier(known))
    }
    let name = cls.subclassName(prefix: "SwizzleKitHooked_")
    guard let dynamic = objc_allocateClassPair(cls, name, 0) else {
      throw .cannotSubclass(
        object: object.description, className: cls.name,
        reason: objc_getClass(name) != nil
          ? "the name \(name) is taken" : "the class is not registered yet")
    }
    do {
      // `-class` answers the class the object had, or what a KVO-style class under us chose to
      // show: the superclass's answer, unless that is the isa itself (the root's answer, which
      // is ours, or a KVO-style class's stacked on top of ours).
      let classIMP = try imp_implementationWithBlock { (me: ObjCObject) -> Class in
        let answer: Class? = try? objc_msgSendSuper(
          ObjCSuper(receiver: me, superclass: cls), "class")
        return cls.shownClass(answer: answer)
      }
      try ChangeLog.engineEdit { () throws(ObjCRuntimeError) in
        _ = try dynamic.addMethod("class", implementation: classIMP, types: "#@:")
      }
    } catch {
      objc_disposeClassPair(dynamic)
      throw .runtime(error)
    }
    dynamic.markIsaLayer()
    objc_registerClassPair(dynamic)
    state.dynamicSubclasses[ObjectIdentifier(cls)] = dynamic
    state.ourClasses.insert(ObjectIdentifier(dynamic))
    return dynamic
  }

  /// Removes a hook; idempotent.
  static func remove(_ entry: HookEntry) {
    // An object's hook: under its class-change lock, as installing is. The object is held
    // until the lock is released: were it freed under the lock, its associated objects' hooks
    // would be taken off under another object's lock, and two threads doing so in opposite
    // orders would wait for each other.
    // The snapshot replaced goes after every lock: the hook removed may go with it, and what
    // its body captured may take the engine's lock as it dies (`HookSite.replaceSnapshot`).
    var retired = EpochCell<SiteSnapshot>.Freed()
    defer { withExtendedLifetime(retired) {} }
    guard let key = entry.objectKey else { return removeLocked(entry, retired: &retired) }
    let object = entry.object
    withExtendedLifetime(object) {
      ClassChangeLock.withLock(for: key) { removeLocked(entry, retired: &retired) }
    }
  }

  private static func removeLocked(_ entry: HookEntry, retired: inout EpochCell<SiteSnapshot>.Freed)
  {
    var restore: (ObjCObject, Class)?
    var warning: String?
    state.withLock { state in
      guard
        entry.removed.compareExchange(
          expected: false, desired: true, ordering: .acquiringAndReleasing
        ).exchanged
      else { return }
      state.liveHooks -= 1
      let site = entry.site
      if let key = entry.objectKey {
        retired.take(
          site.replaceSnapshot { $0.with($0.objectHooks.list(of: key).removing(entry), for: key) })
        if let record = state.hookedObjects[key] {
          record.entries.removeAll { $0 === entry }
          // The record stays while our class is still on the object (an orphan, when another
          // layer sits on top): a new hook uses the class again, and the object passes on to
          // its original class when it comes back to ours (`settle`).
          if record.entries.isEmpty, let object = entry.object {
            restore = (object, record.originalClass)
          } else if record.entries.isEmpty {
            state.hookedObjects[key] = nil
          }
        }
      } else {
        retired.take(site.replaceSnapshot { $0.with(classHooks: $0.classHooks.removing(entry)) })
      }
      warning = uninstallIfEmpty(site)
      checkConsistency(state)
    }
    if let warning {
      Diagnostics.warn(warning, kind: .restoreBlocked, method: entry.site.method)
    }
    if let (object, original) = restore {
      restoreClass(of: object, to: original)
    }
  }

  /// Takes the interceptor out of its method when no hook is left on the site, if nobody
  /// replaced it since; otherwise leaves it as a pass-through and says who is on top.
  private static func uninstallIfEmpty(_ site: HookSite) -> String? {
    guard site.snapshots.withCurrent({ $0.isEmpty }), site.installation == .replaced,
      let method = site.installedMethod
    else { return nil }
    let original = site.snapshots.withCurrent { $0.original }
    guard let original else { return nil }
    if ChangeLog.engineEdit({
      method.setImplementation(original, ifCurrent: site.interceptor.implementation)
    }) {
      site.installation = .none
      site.installedMethod = nil
      return nil
    }
    let replacer = ChangeLog.shared.lastChange(of: method) ?? "someone"
    site.installation = .passThrough(by: replacer)
    return "\(site.method) was replaced by \(replacer) after it was hooked; the last hook was"
      + " removed, but the method keeps the hook's implementation, now a pass-through, so that"
      + " the replacement keeps working"
  }

  /// Gives an object its class back after its last hook went, if it still has ours; if someone
  /// isa-swizzled it on top of us, their class stays and ours passes calls through, its record
  /// kept as an orphan until the object comes back to it (``settle(_:arrivedAt:)``).
  private static func restoreClass(of object: ObjCObject, to original: Class) {
    let key = ObjectIdentifier(object)
    let current = object_getClass(object)!
    let ours = state.withLock { state -> Bool in
      guard let record = state.hookedObjects[key], record.entries.isEmpty,
        record.dynamicClass === current
      else { return false }
      state.hookedObjects[key] = nil
      return true
    }
    guard ours else { return }
    // Settled: the original may be a key-value observing class nobody needs any more.
    _ = try? object.setClass(original)
    objc_setAssociatedObject(object, deathWatchKey, nil, .OBJC_ASSOCIATION_RETAIN)
  }

  /// An object came back to one of our classes through someone else's `object_setClass` (a
  /// key-value observer taking its class off): if its hooks are all gone, on to its original
  /// class. Registered with the runtime's `IsaLayers` at the first per-object hook.
  static func settle(_ object: ObjCObject, arrivedAt cls: Class) {
    // Under the object's class-change lock (the caller may hold it already: it is reentrant),
    // so that a hook installed meanwhile on another thread does not see the record half gone.
    ClassChangeLock.withLock(for: ObjectIdentifier(object)) { settleLocked(object, arrivedAt: cls) }
  }

  private static func settleLocked(_ object: ObjCObject, arrivedAt cls: Class) {
    let key = ObjectIdentifier(object)
    let original = state.withLock { state -> Class? in
      guard let record = state.hookedObjects[key], record.entries.isEmpty,
        record.dynamicClass === cls
      else { return nil }
      state.hookedObjects[key] = nil
      return record.originalClass
    }
    guard let original else { return }
    _ = try? object.setClass(original)
    objc_setAssociatedObject(object, deathWatchKey, nil, .OBJC_ASSOCIATION_RETAIN)
  }

  /// Registers ``settle(_:arrivedAt:)`` with the runtime, once.
  static let settles: Void = IsaLayers.register { object, cls in
    HookEngine.settle(object, arrivedAt: cls)
  }

  /// An object with hooks died: its hooks go with it.
  static func objectDied(_ key: ObjectIdentifier) {
    let entries = state.withLock { state -> [HookEntry] in
      guard let record = state.hookedObjects[key] else { return [] }
      // An orphan record (no hook left, our class under someone else's) goes with the object.
      if record.entries.isEmpty { state.hookedObjects[key] = nil }
      return record.entries
    }
    for entry in entries { remove(entry) }
  }

  /// Checks, in builds with `SWIZZLEKIT_INTERNAL_CHECKS`, that the snapshots of every site hold
  /// exactly the hooks installed and not removed (as many as the tokens alive), each on its own
  /// site. Call with the engine's lock held.
  private static func checkConsistency(_ state: borrowing EngineState) {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      HookEngine.state.assertHeld()
      var active = 0
      for site in state.sites.values {
        let snapshot = site.snapshots.value
        for entry in snapshot.classHooks.all + snapshot.objectHooks.lists.flatMap(\.all) {
          InternalChecks.require(
            !entry.removed.load(ordering: .acquiring),
            "a removed hook is still in the snapshot of \(site.method)")
          InternalChecks.require(entry.site === site, "a hook of \(site.method) is on another site")
          active += 1
        }
      }
      InternalChecks.require(
        active == state.liveHooks,
        "\(active) hooks in the snapshots, but \(state.liveHooks) installed")
    #endif
  }

  /// How many hooks are installed, for tests and the leak check.
  static var liveHookCount: Int { state.withLock { $0.liveHooks } }
}
