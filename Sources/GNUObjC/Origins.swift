// Which library, and so which Objective-C file, an address belongs to: the trace names the file
// whose code exchanged or set a method.
internal import CObjCGNU
import ObjCRuntime
import Synchronization

enum Origins {
  /// The path of the loaded image that holds `address` (dladdr), nil when none does.
  static func library(holding address: UnsafeRawPointer?) -> String? {
    swk_gnu_image_path(address, nil).map { String(cString: $0) }
  }

  /// The image holding `address` and the address's offset in it.
  static func image(holding address: UnsafeRawPointer) -> (path: String, offset: UInt)? {
    var base: UnsafeRawPointer?
    guard let path = swk_gnu_image_path(address, &base), let base else { return nil }
    return (String(cString: path), UInt(bitPattern: address) &- UInt(bitPattern: base))
  }

  /// The source files of modules, by library path and the module record's offset in it, as a
  /// compiler recorded them (gcc leaves the module's own name empty).
  static let sourceFiles = Mutex<[String: [UInt: String]]>([:])

  /// The file to name for a change made from code at `caller`: the Objective-C file when the
  /// library holding the code has one module, else the library's name.
  static func file(of caller: UnsafeRawPointer?) -> String {
    guard let library = library(holding: caller) else { return "Objective-C" }
    let files = Loader.state.withLock { state in
      state.modules.filter { $0.library == library }.map(\.file)
    }
    if files.count == 1 { return files[0] }
    return library.split(separator: "/").last.map(String.init) ?? library
  }
}
