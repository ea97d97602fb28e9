// A `_cmd` checker, standing for a profiler such as New Relic's: it replaces the method with
// `method_setImplementation` and, when called, looks its original up by `_cmd` (one wrapper
// serves every method it instruments). A call that arrives under another selector, as after an
// exchange, finds nothing: the checker records it and, in strict mode (the lab's), traps, as the
// profiler crashed in Aspects issue 21. Undone by setting the kept IMP back.
import ObjCRuntime

extension Technique {
  static let cmdChecker = Technique(
    name: "checker",
    summary: "a _cmd checker (a profiler): its original looked up by _cmd; traps when unknown",
    isPerObject: false
  ) { site in
    let originals = RuntimeLock<[Selector: IMP]>([:])
    let (selector, className) = (site.selector, site.cls.name)
    let label = site.label
    let layer = try LayerLog.layer(types: site.types) { call in
      let cmd = call.selector
      guard LayerLog.enter(label, cmd) else { return }
      guard let original = originals.withLock({ $0[cmd] }) else {
        if CmdChecker.isStrict {
          fatalError(
            "checker: \(cmd) is not a selector it instrumented (-[\(className) "
              + "\(selector)] was)")
        }
        if let installed = originals.withLock({ $0[selector] }) {
          call.forward(to: installed)
        }
        return
      }
      call.forward(to: original)
    }
    let method = class_getInstanceMethod(site.cls, site.selector)
    let original = method_setImplementation(method, layer)
    originals.withLock { $0[site.selector] = original }
    return TechniqueInstall { method_setImplementation(method, original) }
  }
}

/// The checker's mode.
enum CmdChecker {
  private static let strict = RuntimeLock(true)

  /// Whether a call under a selector the checker did not instrument traps (the lab's cells), or
  /// is recorded and passed to the instrumented method's original (tests in one process).
  static var isStrict: Bool {
    get { strict.withLock { $0 } }
    set { strict.withLock { $0 = newValue } }
  }
}
