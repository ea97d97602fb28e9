// Installs the bar-layer plugin when the application starts, without being listed anywhere:
// the SelfAware route the seeds take with `UIApplication.next`. Linked into the plugin's dynamic
// library, not into the library that tests use, so that linking the plugin is not installing it.
import BarLayerPlugin
import Hooks

/// Installs the bar-layer plugin at awake.
final class BarLayerStartup: SelfAware {
  static func awake() {
    BarLayerPlugin.installation
  }
}
