// SwizzleKit's own hooks, class-wide and on one object: a `before` hook, undone by removing its
// token (which restores the method only if the hook's implementation is still the method's).
import Hooks
import ObjCRuntime

extension Technique {
  static let classHook = Technique(
    name: "hook",
    summary: "SwizzleKit's hook on every instance (Class.hook), removed with its token",
    isPerObject: false
  ) { site in
    let label = site.label
    let token = try site.cls.hook(site.selector, position: .before) { invocation in
      _ = LayerLog.enter(label, invocation.calledSelector)
    }
    return TechniqueInstall { token.remove() }
  }

  static let objectHook = Technique(
    name: "object-hook",
    summary: "SwizzleKit's hook on one object (a dynamic subclass), removed with its token",
    isPerObject: true
  ) { site in
    let label = site.label
    let token = try site.object.hook(site.selector, position: .before) { invocation in
      _ = LayerLog.enter(label, invocation.calledSelector)
    }
    return TechniqueInstall { token.remove() }
  }
}
