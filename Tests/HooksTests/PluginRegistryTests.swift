// Plugins: installed exactly once however many threads race, listed, and drawn in the hook map
// with their conflicts.
import Hooks
import HooksTestSupport
import ObjCRuntime
import Synchronization
import Testing

/// A count shared between threads.
final class Counter: Sendable {
  let value = Atomic<Int>(0)
}

/// A plugin that counts its installations and hooks `record:` on its class.
struct CountingPlugin: HookPlugin {
  let identifier: String
  let summary = "Counts its installations"
  let cls: Shared<Class>
  let installs: Counter

  func install() throws {
    installs.value.add(1, ordering: .relaxed)
    try Meter.hook(before: "record:", in: cls.value) { (_, _: Int) in }
  }
}

/// The `static let` idiom of the seeds: the initializer installs, Swift runs it once.
enum StaticLetInstall {
  static let installs = Counter()
  static let plugin = CountingPlugin(
    identifier: "test.static-let", cls: Shared(value: freshMeterClass("StaticLet")),
    installs: installs)
  static let installation: Void = {
    _ = try? PluginRegistry.shared.install(plugin)
  }()
}

/// A plugin that swizzles through the plain runtime API, no hooks.
struct ExchangingPlugin: HookPlugin {
  let identifier: String
  let summary = "Exchanges two implementations"
  let first: Shared<Method>
  let second: Shared<Method>

  func install() throws {
    method_exchangeImplementations(first.value, second.value)
  }
}

/// A plugin that replaces one method's implementation outright, as a category would.
struct ReplacingPlugin: HookPlugin {
  let identifier: String
  let summary = "Replaces one implementation"
  let method: Shared<Method>
  let implementation: Shared<IMP>

  func install() throws {
    method_setImplementation(method.value, implementation.value)
  }
}

/// A plugin that hooks one method.
struct HookingPlugin: HookPlugin {
  let identifier: String
  let summary = "Hooks one method"
  let cls: Shared<Class>
  let selector: Selector

  func install() throws {
    try Meter.hook(selector, position: .before, in: cls.value) { _ in }
  }
}

/// A plugin whose install fails half way.
struct FailingPlugin: HookPlugin {
  let identifier = "test.failing"
  let summary = "Hooks, then throws"
  let cls: Shared<Class>

  func install() throws {
    try Meter.hook(before: "record:", in: cls.value) { (_, _: Int) in }
    throw HookError.unknownSelector(MethodReference(className: "X", selectorName: "y"))
  }
}

@Suite("Plugin registry")
struct PluginRegistryTests {
  @Test("8 threads x 1,000 attempts install a plugin once")
  func installsOnce() async {
    let installs = Counter()
    let plugin = CountingPlugin(
      identifier: "test.racing", cls: Shared(value: freshMeterClass("Racing")),
      installs: installs)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<1_000 { _ = try? PluginRegistry.shared.install(plugin) }
        }
      }
    }
    #expect(installs.value.load(ordering: .relaxed) == 1)
    #expect(PluginRegistry.shared.installationCount(of: "test.racing") == 1)
  }

  @Test("the static-let idiom installs once from any number of threads")
  func staticLet() async {
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<1_000 { StaticLetInstall.installation } }
      }
    }
    #expect(StaticLetInstall.installs.value.load(ordering: .relaxed) == 1)
    #expect(PluginRegistry.shared.isInstalled("test.static-let"))
  }

  @Test("uninstalling removes the plugin's hooks; a failed install leaves none behind")
  func uninstallAndFailure() throws {
    let cls = freshMeterClass("Uninstall")
    let meter = meter(of: cls)
    let installs = Counter()
    let plugin = CountingPlugin(
      identifier: "test.uninstall", cls: Shared(value: cls), installs: installs)
    try PluginRegistry.shared.install(plugin)
    #expect(PluginRegistry.shared.uninstall("test.uninstall"))
    #expect(!PluginRegistry.shared.isInstalled("test.uninstall"))
    meter.sendRecord(1)
    #expect(meter.journal.take() == ["record(1)"])
    let failing = FailingPlugin(cls: Shared(value: cls))
    do {
      try PluginRegistry.shared.install(failing)
      Issue.record("the failing plugin installed")
    } catch {
      guard case .installFailed(let plugin, let identifier, let underlying) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(plugin == "failing" && identifier == "test.failing")
      #expect("\(underlying)".contains("-[X y]"), "names the hook that failed")
      #expect(underlying is HookError, "the hook's own error, to match on")
      #expect(error.description.contains("-[X y]"))
    }
    #expect(!PluginRegistry.shared.isInstalled("test.failing"))
    meter.sendRecord(2)
    #expect(meter.journal.take() == ["record(2)"], "the failed plugin's hook was removed")
  }

  @Test("the hook map shows hooks and plain swizzles with their plugins, and the conflicts")
  func hookMap() throws {
    // The map records changes from the first use of the hook framework on.
    _ = PluginRegistry.shared.plugins
    let cls = freshMeterClass("Mapped")
    let scaled = try #require(class_getInstanceMethod(Meter.runtimeClass, "scaled:"))
    class_addMethod(cls, "scaled:", scaled.implementation!, scaled.typeEncoding)
    class_addMethod(cls, "tenfold:", scaled.implementation!, scaled.typeEncoding)
    let own = cls.methods
    let first = try #require(own.first { $0.selector == "scaled:" })
    let second = try #require(own.first { $0.selector == "tenfold:" })
    try PluginRegistry.shared.install(
      HookingPlugin(identifier: "test.map.hooker", cls: Shared(value: cls), selector: "scaled:"))
    try PluginRegistry.shared.install(
      ExchangingPlugin(
        identifier: "test.map.exchanger", first: Shared(value: first),
        second: Shared(value: second)))
    let map = PluginRegistry.shared.hookMap
    let entry = try #require(
      map.entries.first { $0.method.description == "-[\(cls.name) scaled:]" })
    #expect(entry.layers.map(\.plugin) == ["exchanger", "hooker", nil], "by short name")
    #expect(entry.layers.last?.kind == "added", "the test's own class_addMethod, with its location")
    #expect(entry.layers.last?.location?.fileID == "HooksTests/PluginRegistryTests.swift")
    #expect(entry.layers.first?.kind.contains("exchanged with -[\(cls.name) tenfold:]") == true)
    let conflict = try #require(map.conflicts.first { $0.method == entry.method })
    #expect(conflict.plugins == ["exchanger", "hooker"])
    #expect(map.description.contains("conflict on -[\(cls.name) scaled:]"))
  }

  @Test("two plugins replacing the same method are a conflict naming both")
  func twoReplacers() throws {
    let cls = freshMeterClass("TwoReplacers")
    let scaled = try #require(class_getInstanceMethod(Meter.runtimeClass, "scaled:"))
    class_addMethod(cls, "scaled:", scaled.implementation!, scaled.typeEncoding)
    class_addMethod(cls, "a:", scaled.implementation!, scaled.typeEncoding)
    class_addMethod(cls, "b:", scaled.implementation!, scaled.typeEncoding)
    let methods = Dictionary(uniqueKeysWithValues: cls.methods.map { ($0.selector, $0) })
    for (name, other) in [("test.two.first", "a:"), ("test.two.second", "b:")] {
      try PluginRegistry.shared.install(
        ExchangingPlugin(
          identifier: name, first: Shared(value: methods["scaled:"]!),
          second: Shared(value: methods[Selector(other)]!)))
    }
    let method = MethodReference(className: cls.name, selectorName: "scaled:")
    let conflict = try #require(
      PluginRegistry.shared.hookMap.conflicts.first { $0.method == method && $0.plugins.count == 2 }
    )
    #expect(conflict.plugins == ["first", "second"])
  }

  @Test("a plugin replacing a hooked method is a conflict that says the hook may stop running")
  func replacedUnderAHook() throws {
    let cls = freshMeterClass("ReplacedUnderHook")
    let scaled = try #require(class_getInstanceMethod(Meter.runtimeClass, "scaled:"))
    let half = try #require(class_getInstanceMethod(Meter.runtimeClass, "half:"))
    class_addMethod(cls, "scaled:", scaled.implementation!, scaled.typeEncoding)
    let own = try #require(cls.methods.first { $0.selector == "scaled:" })
    try PluginRegistry.shared.install(
      HookingPlugin(
        identifier: "test.replaced.hooking", cls: Shared(value: cls), selector: "scaled:"))
    try PluginRegistry.shared.install(
      ReplacingPlugin(
        identifier: "test.replaced.replacing", method: Shared(value: own),
        implementation: Shared(value: half.implementation!)))
    let map = PluginRegistry.shared.hookMap
    let conflict = try #require(
      map.conflicts.first { $0.method == MethodReference(owner: cls, selector: "scaled:") })
    #expect(conflict.plugins == ["replacing", "hooking"])
    #expect(
      conflict.reason
        == "plugin replacing replaces the implementation that hooking hooks: the hook runs only if"
        + " the new implementation calls the one it replaced")
  }

  @Test("a replacement made before a hook, or one given back since, is no conflict")
  func replacementOrder() throws {
    let cls = freshMeterClass("ReplacedThenHooked")
    let scaled = try #require(class_getInstanceMethod(Meter.runtimeClass, "scaled:"))
    let half = try #require(class_getInstanceMethod(Meter.runtimeClass, "half:"))
    class_addMethod(cls, "scaled:", scaled.implementation!, scaled.typeEncoding)
    let own = try #require(cls.methods.first { $0.selector == "scaled:" })
    let method = MethodReference(owner: cls, selector: "scaled:")
    // Replaced first, then hooked: the hook wraps the replacement and runs.
    try PluginRegistry.shared.install(
      ReplacingPlugin(
        identifier: "test.order.early", method: Shared(value: own),
        implementation: Shared(value: half.implementation!)))
    try PluginRegistry.shared.install(
      HookingPlugin(identifier: "test.order.late", cls: Shared(value: cls), selector: "scaled:"))
    #expect(!PluginRegistry.shared.hookMap.conflicts.contains { $0.method == method })

    // Hooked, then replaced (a conflict), then given back: no conflict any more.
    let other = freshMeterClass("HookedReplacedRestored")
    class_addMethod(other, "scaled:", scaled.implementation!, scaled.typeEncoding)
    let second = try #require(other.methods.first { $0.selector == "scaled:" })
    let otherMethod = MethodReference(owner: other, selector: "scaled:")
    try PluginRegistry.shared.install(
      HookingPlugin(
        identifier: "test.restored.hooker2", cls: Shared(value: other), selector: "scaled:"))
    let hooked = try #require(second.implementation)
    try PluginRegistry.shared.install(
      ReplacingPlugin(
        identifier: "test.restored.replacer2", method: Shared(value: second),
        implementation: Shared(value: half.implementation!)))
    #expect(PluginRegistry.shared.hookMap.conflicts.contains { $0.method == otherMethod })
    method_setImplementation(second, hooked)
    #expect(!PluginRegistry.shared.hookMap.conflicts.contains { $0.method == otherMethod })
  }

  @Test("discovery registers the DiscoverablePlugins of every image, without installing them")
  func discovery() throws {
    // Other tests install this plugin (this suite's install-by-name test, the lab's `hooks`,
    // which installs every plugin) on other threads, even while this discovery runs (it took
    // 45 s under ThreadSanitizer once, and the process-wide count moved): what discovery must
    // not do is install it, so the test counts the installs made on its own thread, where the
    // discovery runs.
    let installs = SupportDiscoverablePlugin.installsOnThisThread
    try PluginRegistry.shared.discover()
    #expect(SupportDiscoverablePlugin.installsOnThisThread == installs)
    let info = try #require(
      PluginRegistry.shared.plugins.first { $0.identifier == "test.support.discoverable" })
    #expect(info.name == "discoverable")
    #expect(info.typeName == "HooksTestSupport.SupportDiscoverablePlugin")
    #expect(PluginRegistry.shared.plugin(named: "discoverable") is SupportDiscoverablePlugin)
  }

  @Test("another type with a registered identifier or name is refused, naming both types")
  func duplicates() throws {
    try PluginRegistry.shared.discover()
    do {
      try PluginRegistry.shared.register(ImpostorPlugin(identifier: "test.support.discoverable"))
      Issue.record("a second type took the identifier")
    } catch {
      guard case .duplicateIdentifier(let identifier, let existing, let refused) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(identifier == "test.support.discoverable")
      #expect(existing == "HooksTestSupport.SupportDiscoverablePlugin")
      #expect(refused == "HooksTests.ImpostorPlugin")
    }
    #expect(throws: PluginError.self) {
      try PluginRegistry.shared.install(ImpostorPlugin(identifier: "test.impostor.discoverable"))
    }
    #expect(!PluginRegistry.shared.isInstalled("test.impostor.discoverable"))
  }

  @Test("install(named:) installs a discovered plugin; an unknown name lists the known ones")
  func installByName() throws {
    try PluginRegistry.shared.discover()
    #expect(try PluginRegistry.shared.install(named: "discoverable"))
    #expect(PluginRegistry.shared.isInstalled("discoverable"))
    #expect(PluginRegistry.shared.uninstall("discoverable"))
    do {
      try PluginRegistry.shared.install(named: "no-such-plugin")
      Issue.record("an unknown plugin installed")
    } catch {
      #expect(error.description.contains("discoverable"), "lists the known plugins")
    }
  }

  @Test("installOnce: the static-let idiom reports a failure instead of trapping or throwing")
  func installOnce() {
    let cls = freshMeterClass("InstallOnce")
    let result = PluginRegistry.shared.installOnce(FailingPlugin(cls: Shared(value: cls)))
    #expect(!result.succeeded)
    #expect(result.description.contains("did not install"))
    let installs = Counter()
    let plugin = CountingPlugin(
      identifier: "test.install-once", cls: Shared(value: cls), installs: installs)
    #expect(PluginRegistry.shared.installOnce(plugin).description == "installed")
    #expect(PluginRegistry.shared.installOnce(plugin).description == "already installed")
    PluginRegistry.shared.uninstall(plugin)
  }
}

@Suite("Change log")
struct ChangeLogTests {
  @Test("exchanging the same two methods again cancels; the log keeps at most 32 per method")
  func bounded() throws {
    _ = PluginRegistry.shared.hookMap  // the log records from the registry's first use on
    let cls = freshMeterClass("Bounded")
    let scaled = try #require(class_getInstanceMethod(Meter.runtimeClass, "scaled:"))
    class_addMethod(cls, "a:", scaled.implementation!, scaled.typeEncoding)
    class_addMethod(cls, "b:", scaled.implementation!, scaled.typeEncoding)
    let methods = Dictionary(uniqueKeysWithValues: cls.methods.map { ($0.selector, $0) })
    let a = try #require(methods["a:"])
    let b = try #require(methods["b:"])
    for _ in 0..<1_001 { method_exchangeImplementations(a, b) }
    let map = PluginRegistry.shared.hookMap
    let layers = try #require(
      map.entries.first { $0.method.description == "-[\(cls.name) a:]" }
    ).layers
    #expect(layers.map(\.kind) == ["exchanged with -[\(cls.name) b:]", "added"])
    for _ in 0..<100 { method_setImplementation(a, scaled.implementation!) }
    let replaced = try #require(
      PluginRegistry.shared.hookMap.entries.first { $0.method.description == "-[\(cls.name) a:]" })
    #expect(replaced.layers.count == 32)
  }
}

/// A plugin whose identifier is chosen by the test, to collide with another's.
struct ImpostorPlugin: HookPlugin {
  let identifier: String
  let summary = "Takes another plugin's identifier or name"
  func install() throws {}
}
