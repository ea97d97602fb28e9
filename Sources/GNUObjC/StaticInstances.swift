// gcc's statically allocated instances: the `@"..."` literals, laid out by gcc in the file's data
// as `{isa, characters, length}`, become constant strings in place (ConstantStrings). Static
// instances of any other class are marked instead: a send to one answers zero and is reported,
// rather than read memory that is not an object.
internal import CObjCGNU
import ObjCRuntime

enum StaticInstances {
  /// Makes each constant string of a module's static instances an object; marks the others by
  /// writing in their first word their own address, which no object of this runtime holds there
  /// (a Swift object's first word is its class metadata).
  static func prepare(
    _ lists: UnsafeMutableRawPointer, file: String, problem: (ObjectiveCLoadError) -> Void
  ) {
    let entries = lists.assumingMemoryBound(
      to: UnsafeMutablePointer<swk_gnu_static_instances>?.self)
    var index = 0
    while let list = entries[index] {
      let className = String(cString: list.pointee.class_name)
      // gcc's default constant string class is NXConstantString; the lab compiles with
      // -fconstant-string-class=NSConstantString. Both are laid out alike.
      let isString = className == "NSConstantString" || className == "NXConstantString"
      var refused = 0
      var position = 0
      while let instance = swk_gnu_static_instance_at(list, position) {
        position += 1
        if isString, ConstantStrings.adopt(instance) { continue }
        instance.storeBytes(of: UInt(bitPattern: instance), as: UInt.self)
        refused += 1
      }
      if refused > 0 {
        problem(.unsupportedStaticInstances(file: file, className: className, count: refused))
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
        MethodReference(className: "a static instance", selectorName: selector.name)))
    return swk_gnu_nil_method()
  }
}
