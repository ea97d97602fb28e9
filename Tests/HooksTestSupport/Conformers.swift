// SelfAware conformers and a plugin in a module of their own: discovery must find them across
// modules, with no registration anywhere.
import Hooks
import ObjCRuntime
import Synchronization

/// How many times each conformer of this module was awoken.
public enum SupportAwakeCounts {
  /// `awake()` calls of ``SupportConformer``.
  public static let conformer = Atomic<Int>(0)
  /// `awake()` calls of ``SupportSubclass``.
  public static let subclass = Atomic<Int>(0)
}

/// A conformer in another module than the tests.
open class SupportConformer: SelfAware {
  /// Counts the call.
  open class func awake() { SupportAwakeCounts.conformer.add(1, ordering: .relaxed) }
}

/// Inherits the conformance and has no conformance record of its own.
public final class SupportSubclass: SupportConformer {
  /// Counts the call.
  override public class func awake() { SupportAwakeCounts.subclass.add(1, ordering: .relaxed) }
}

/// A plugin nothing names: hosts find it through discovery.
public struct SupportDiscoverablePlugin: DiscoverablePlugin {
  /// `test.support.discoverable`.
  public let identifier = "test.support.discoverable"
  /// One line.
  public let summary = "Found by discovery in another module"
  /// A plugin value.
  public init() {}
  /// Installs nothing.
  public func install() throws {}
}
