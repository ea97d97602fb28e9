// Objective-C compiled by gcc (GNU runtime ABI 8) loaded on the runtime: the loader, sends with
// `_cmd` as the runtime's selector, a category's +load that exchanges a Swift class's method.
import Foundation
import GNUObjC
import ObjCRuntime
import Testing

/// A Swift class the Objective-C category swizzles.
final class Greeter: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Greeter.self) {
      ObjCMethodDeclaration("greeting", greeting)
    }
  }

  static let greeting: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
}

private let categorySource = """
  typedef struct objc_object *id;
  typedef const struct objc_selector *SEL;
  typedef struct objc_class *Class;
  typedef struct objc_method *Method;
  Method class_getInstanceMethod(Class, SEL);
  void method_exchangeImplementations(Method, Method);
  const char *sel_getName(SEL);
  int strcmp(const char *, const char *);
  @interface NSObject + (id)alloc; + (id)new; - (id)init; - (void)release; @end
  @interface Greeter : NSObject - (long)greeting; @end
  @interface Greeter (Loud) @end
  @implementation Greeter (Loud)
  + (void)load {
    method_exchangeImplementations(class_getInstanceMethod(self, @selector(greeting)),
                                   class_getInstanceMethod(self, @selector(loud_greeting)));
  }
  - (long)loud_greeting {
    /* _cmd arrives as the runtime's selector: its name is the one the send used. */
    long fromName = strcmp(sel_getName(_cmd), "greeting") == 0 ? 100 : 0;
    return fromName + 10 * [self loud_greeting];
  }
  @end
  @interface Counter : NSObject - (long)count; @end
  @implementation Counter
  - (long)count { return 42; }
  @end
  long gnu_counter_count(void) {
    Counter *counter = [Counter new];
    long count = [counter count];
    [counter release];
    return count;
  }
  """

/// Compiles `source` into a shared library with gcc's Objective-C front end, defining the
/// class-name symbols the file references; nil when gcc's Objective-C is not installed.
private func compile(_ source: String, name: String) throws -> String? {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("gnuobjc-\(getpid())-\(name)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let file = directory.appendingPathComponent("\(name).m").path
  let object = directory.appendingPathComponent("\(name).o").path
  let library = directory.appendingPathComponent("lib\(name).so").path
  try source.write(toFile: file, atomically: true, encoding: .utf8)
  guard try run("gcc", ["-c", "-fPIC", "-O2", "-fgnu-runtime", file, "-o", object]) != nil else {
    return nil
  }
  let symbols = try run("nm", ["-u", object]) ?? ""
  let classNames = symbols.split(separator: "\n").compactMap { line -> String? in
    let symbol = line.split(separator: " ").last.map(String.init) ?? ""
    return symbol.hasPrefix("__objc_class_name_") ? symbol : nil
  }
  let defines = classNames.flatMap { ["-Wl,--defsym,\($0)=0"] }
  guard try run("gcc", ["-shared", object, "-o", library] + defines) != nil else { return nil }
  return library
}

private func run(_ tool: String, _ arguments: [String]) throws -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [tool] + arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self)
  guard process.terminationStatus == 0 else {
    Issue.record("\(tool) failed: \(text)")
    return nil
  }
  return text
}

/// Whether gcc compiles Objective-C here (Debian's gobjc package).
let gccObjectiveC: Bool = {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["gcc", "-x", "objective-c", "-fsyntax-only", "/dev/null"]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return false }
  process.waitUntilExit()
  return process.terminationStatus == 0
}()

@Suite(
  "ObjectiveCModules",
  .enabled(if: gccObjectiveC, "gcc's Objective-C is not installed: apt-get install gobjc"))
struct ObjectiveCModulesTests {
  @Test(
    "a category's +load exchanges a Swift class's method; sends reach it with _cmd as the runtime's selector"
  )
  func categorySwizzles() throws {
    ObjectiveCModules.start()
    _ = Greeter.runtimeClass
    guard let library = try compile(categorySource, name: "loud") else { return }
    guard let handle = dlopen(library, RTLD_NOW) else {
      Issue.record("dlopen: \(String(cString: dlerror()))")
      return
    }
    _ = handle
    let module = try #require(ObjectiveCModules.loaded.last)
    #expect(module.problems.isEmpty, "\(module.problems)")
    #expect(module.classes == ["Counter"])
    #expect(module.categories == ["Greeter (Loud)"])
    #expect(module.loads == ["+[Greeter(Loud) load]"])
    // From Swift: the swapped-in Objective-C method, which calls the original (1) through the
    // exchanged selector, and sees `greeting` as its _cmd.
    let greeting: Int = try objc_msgSend(Greeter(), "greeting")
    #expect(greeting == 110)
    // From Objective-C: a class it defines, made, sent to and released.
    typealias Count = @convention(c) () -> Int
    let symbol = try #require(dlsym(handle, "gnu_counter_count"))
    #expect(unsafeBitCast(symbol, to: Count.self)() == 42)
  }
}
