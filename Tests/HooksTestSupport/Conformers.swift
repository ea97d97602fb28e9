// SelfAware conformers and a plugin in a module of their own: discovery must find them across
// modules, with no registration anywhere.
import Foundation
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
  /// Installs nothing; counts the install on the calling thread.
  public func install() throws {
    let dictionary = Thread.current.threadDictionary
    dictionary[SupportDiscoverablePlugin.key] = SupportDiscoverablePlugin.installsOnThisThread + 1
  }

  private static let key = "test.support.discoverable.installs"

  /// How many times the calling thread installed the plugin. Other tests install it on their own
  /// threads meanwhile (the lab's `hooks` installs every plugin), so a test that must see that a
  /// call of its own installed nothing counts on its thread alone.
  public static var installsOnThisThread: Int {
    Thread.current.threadDictionary[key] as? Int ?? 0
  }
}
