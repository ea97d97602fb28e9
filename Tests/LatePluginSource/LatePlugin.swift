// A plugin library that the dlopen test compiles and loads at run time: its SelfAware class
// registers a plugin when it wakes up. Not a target of the package.
import Hooks
import ObjCRuntime

struct LatePlugin: HookPlugin {
  let identifier = "test.late-plugin"
  let summary = "Loaded with dlopen by the SelfAware tests"
  func install() throws {}
}

final class LatePluginStartup: SelfAware {
  static func awake() {
    _ = try? PluginRegistry.shared.install(LatePlugin())
  }
}
