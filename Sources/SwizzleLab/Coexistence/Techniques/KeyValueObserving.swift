// Key-value observing: an observer of the method's key, which isa-swizzles the object to a
// hidden subclass whose setter notifies around the original. The observer's callback is the
// layer (it is told after the original ran, and is given no `_cmd`); removing the observer
// undoes it.
import ObjCRuntime

extension Technique {
  static let keyValueObserving = Technique(
    name: "kvo",
    summary: "key-value observing: the object isa-swizzled to a notifying subclass",
    isPerObject: true
  ) { site in
    let observer = LayerObserver(label: site.label)
    try site.object.addObserver(observer, forKeyPath: site.key)
    return TechniqueInstall {
      try site.object.removeObserver(observer, forKeyPath: site.key)
    }
  }
}

/// The observer whose callback is the key-value observing layer.
private final class LayerObserver: ObjCObject {
  let label: String

  init(label: String) {
    self.label = label
    super.init()
  }

  override func observeValue(
    forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
    context: UnsafeMutableRawPointer?
  ) {
    _ = LayerLog.enter(label, nil)
  }
}
