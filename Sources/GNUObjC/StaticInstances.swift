// gcc's statically allocated instances: the `@"..."` literals, laid out by gcc in the file's data
// as `{isa, characters, length}`. They are not yet objects of this runtime: a send to one answers
// zero and is reported, instead of reading memory that is not an object.
internal import CObjCGNU
import ObjCRuntime

enum StaticInstances {
  /// What the loader writes in each static instance's first word: its own address, which no
  /// object of this runtime holds there (a Swift object's first word is its class metadata).
  static func prepare(
    _ lists: UnsafeMutableRawPointer, file: String, problem: (ObjectiveCLoadError) -> Void
  ) {
    let entries = lists.assumingMemoryBound(
      to: UnsafeMutablePointer<swk_gnu_static_instances>?.self)
    var index = 0
    while let list = entries[index] {
      let className = String(cString: list.pointee.class_name)
      var count = 0
      while let instance = swk_gnu_static_instance_at(list, count) {
        instance.storeBytes(of: UInt(bitPattern: instance), as: UInt.self)
        count += 1
      }
      if count > 0 {
        problem(.unsupportedStaticInstances(file: file, className: className, count: count))
      }
      index += 1
    }
  }

  /// Whether `receiver` is a static instance the loader marked.
  @inline(__always)
  static func isUnsupported(_ receiver: UnsafeMutableRawPointer) -> Bool {
    receiver.load(as: UInt.self) == UInt(bitPattern: receiver)
  }

  /// The function a send to a static instance calls: it answers zero; the failure is reported.
  static func refuse(_ reference: UnsafePointer<swk_gnu_selector>) -> UnsafeMutableRawPointer? {
    let selector = Selector(UnsafeRawPointer(reference).assumingMemoryBound(to: objc_selector.self))
    Failures.record(
      .unrecognizedSelector(
        MethodReference(className: "NSConstantString", selectorName: selector.name)))
    return swk_gnu_nil_method()
  }
}
