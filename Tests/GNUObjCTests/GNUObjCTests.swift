// Objective-C compiled by gcc (GNU runtime ABI 8) and loaded on the runtime: the loader, sends with
// `_cmd` as the runtime's selector, a category's +load exchanging a Swift class's method, and
// what bad input gets. The suites take the model's turn: gcc's processes, many under
// ThreadSanitizer, must not starve a model test that holds the main queue.
import Foundation
import GNUObjC
import ObjCRuntime
import SwizzleKitTesting
import Testing

/// A Swift class the Objective-C categories swizzle.
final class GNUGreeter: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(GNUGreeter.self) {
      ObjCMethodDeclaration("greeting", greeting)
      ObjCMethodDeclaration("farewell", farewell)
    }
  }

  /// Objective-C may allocate it.
  override class func makeInstance() -> ObjCObject? { GNUGreeter() }

  static let greeting: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
  static let farewell: @convention(c) (id, SEL) -> Int = { _, _ in 2 }
}

/// Writes `source` to `NAME.m` in a fresh directory, compiles it and loads the library; returns
/// the modules it brought and the library's handle.
private func load(_ source: String, name: String) throws -> (
  modules: [ObjectiveCModule], handle: UnsafeMutableRawPointer
) {
  ObjectiveCModules.start()
  _ = GNUGreeter.runtimeClass
  let compiler = ObjectiveCCompiler()
  try FileManager.default.createDirectory(at: compiler.directory, withIntermediateDirectories: true)
  let file = compiler.directory.appendingPathComponent("\(name).m").path
  try source.write(toFile: file, atomically: true, encoding: .utf8)
  let library = try compiler.compile([file])
  let handle = try #require(dlopen(library, RTLD_NOW), "\(String(cString: dlerror()))")
  // By library: the suites load their files in parallel.
  return (ObjectiveCModules.loaded.filter { $0.library == library }, handle)
}

/// Calls the C function `name` of the library, which takes nothing and returns a long.
private func call(_ name: String, in handle: UnsafeMutableRawPointer) throws -> Int {
  typealias Function = @convention(c) () -> Int
  let symbol = try #require(dlsym(handle, name), "no \(name)")
  return unsafeBitCast(symbol, to: Function.self)()
}

@Suite(
  "ObjectiveCModules",
  .serialized, .uiKitModel,
  .enabled(
    if: ObjectiveCCompiler.isAvailable,
    "gcc's Objective-C is not installed: \(ObjectiveCCompiler.installCommand)"))
struct ObjectiveCModulesTests {
  @Test(
    "a category's +load exchanges a Swift class's method; sends reach it with _cmd as the runtime's selector"
  )
  func categorySwizzles() throws {
    let (modules, handle) = try load(
      """
      #import <Foundation/Foundation.h>
      #include <string.h>
      @interface GNUGreeter : NSObject - (long)greeting; @end
      @implementation GNUGreeter (Loud)
      + (void)load {
        method_exchangeImplementations(class_getInstanceMethod(self, @selector(greeting)),
                                       class_getInstanceMethod(self, @selector(loud_greeting)));
      }
      - (long)loud_greeting {
        /* _cmd is the runtime's selector: its name is the one the send used. */
        long named = strcmp(sel_getName(_cmd), "greeting") == 0 ? 100 : 0;
        return named + 10 * [self loud_greeting];
      }
      @end
      @interface Counter : NSObject - (long)count; @end
      @implementation Counter
      - (long)count { return 42; }
      @end
      long counter_count(void) {
        Counter *counter = [Counter new];
        long count = [counter count];
        [counter release];
        return count;
      }
      long greeting_from_objc(void) {
        GNUGreeter *greeter = [GNUGreeter new];
        long greeting = [greeter greeting];
        [greeter release];
        return greeting;
      }
      """, name: "Loud")
    let module = try #require(modules.first)
    #expect(module.file == "Loud.m")
    #expect(module.problems.isEmpty, "\(module.problems)")
    #expect(module.classes == ["Counter"])
    #expect(module.categories == ["GNUGreeter (Loud)"])
    #expect(module.loads == ["+[GNUGreeter(Loud) load]"])
    // From Swift: the swapped-in method, which calls the original (1) through the exchanged
    // selector and sees `greeting` as its _cmd.
    let greeting: Int = try objc_msgSend(GNUGreeter(), "greeting")
    #expect(greeting == 110)
    // From Objective-C, the same; and a class the file defines, made, sent to and released.
    #expect(try call("greeting_from_objc", in: handle) == 110)
    #expect(try call("counter_count", in: handle) == 42)
  }

  @Test("@selector(x) passed as a value names the runtime's selector: respondsToSelector:, keys")
  func selectorsAsValues() throws {
    let (_, handle) = try load(
      """
      #import <Foundation/Foundation.h>
      long responds(void) {
        id object = [NSObject new];
        long answer = [object respondsToSelector:@selector(hash)] ? 1 : 0;
        answer += [object respondsToSelector:@selector(noSuchMethod)] ? 10 : 0;
        /* a selector as an association key, set with one form and read with another */
        objc_setAssociatedObject(object, @selector(hash), object, OBJC_ASSOCIATION_ASSIGN);
        answer += objc_getAssociatedObject(object, sel_registerName("hash")) == object ? 100 : 0;
        [object release];
        return answer;
      }
      """, name: "Values")
    #expect(try call("responds", in: handle) == 101)
  }

  @Test("a +load that sends a selector nobody implements: reported, answered with zero, no trap")
  func unrecognizedSend() throws {
    let (modules, _) = try load(
      """
      #import <Foundation/Foundation.h>
      @interface GNUGreeter : NSObject @end
      @interface GNUGreeter (Confused) - (long)nobodyImplementsThis; @end
      @implementation GNUGreeter (Confused)
      + (void)load {
        GNUGreeter *greeter = [GNUGreeter new];
        [greeter nobodyImplementsThis];
        [greeter release];
      }
      @end
      """, name: "Confused")
    let module = try #require(modules.first)
    #expect(module.loads == ["+[GNUGreeter(Confused) load]"])
    #expect(
      module.problems.map(\.description) == [
        "Confused.m: +[GNUGreeter(Confused) load]: -[GNUGreeter nobodyImplementsThis]: unrecognized"
          + " selector sent to instance. Add the method (class_addMethod), resolve it in"
          + " resolveInstanceMethod(_:), or forward it with forwardingTarget(for:)."
      ])
  }

  @Test("the loader's failed-forward reporter is the process's; another is refused")
  func reporterOnce() {
    ObjectiveCModules.start()
    #expect(!DirectForwardingFailures.install { _ in })
  }

  @Test("two categories define one method: the later wins, as in objc4, and the loader says so")
  func laterCategoryWins() throws {
    let (modules, _) = try load(
      """
      #import <Foundation/Foundation.h>
      @interface GNUGreeter : NSObject @end
      @implementation GNUGreeter (First)
      - (long)farewell { return 20; }
      @end
      @implementation GNUGreeter (Second)
      - (long)farewell { return 30; }
      @end
      """, name: "Twice")
    let module = try #require(modules.first)
    #expect(
      module.replacements == [
        "-[GNUGreeter farewell]: GNUGreeter (Second) replaces GNUGreeter (First)"
      ])
    let farewell: Int = try objc_msgSend(GNUGreeter(), "farewell")
    #expect(farewell == 30)
  }

  @Test(
    "refused, each with its file and class: a category of no class, instance variables, no superclass"
  )
  func refusals() throws {
    let (modules, _) = try load(
      """
      #import <Foundation/Foundation.h>
      @interface Missing : NSObject @end
      @implementation Missing (Orphan)
      - (void)nothing {}
      @end
      @interface Stateful : NSObject { long count; } @end
      @implementation Stateful
      @end
      @interface Unknown : NSObject @end
      @interface Derived : Unknown @end
      @implementation Derived
      @end
      """, name: "Refused")
    let problems = try #require(modules.first).problems.map(\.description)
    #expect(
      problems.contains(
        "Refused.m: class Stateful declares instance variables (count), which SwizzleKit cannot"
          + " lay out; keep state in associated objects behind accessors"))
    #expect(
      problems.contains(
        "Refused.m: class Derived derives from Unknown, which the runtime does not know; check"
          + " the name or load the file that defines it first"))
    #expect(
      problems.contains(
        "Refused.m: category Missing (Orphan) extends Missing, which the runtime does not know;"
          + " it waits for a file that defines the class"))
    #expect(ObjectiveCModules.waitingCategories.contains { $0.hasPrefix("Missing (Orphan)") })
    #expect(objc_getClass("Stateful") == nil)
    #expect(objc_getClass("Derived") == nil)
  }
}

@Suite(
  "ObjectiveCCompiler", .uiKitModel,
  .enabled(
    if: ObjectiveCCompiler.isAvailable,
    "gcc's Objective-C is not installed: \(ObjectiveCCompiler.installCommand)"))
struct ObjectiveCCompilerTests {
  @Test("a file that does not compile: gcc's diagnostics in the error")
  func compileError() throws {
    let compiler = ObjectiveCCompiler()
    try FileManager.default.createDirectory(
      at: compiler.directory, withIntermediateDirectories: true)
    let file = compiler.directory.appendingPathComponent("Broken.m").path
    try "int broken = ;\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect {
      try compiler.compile([file])
    } throws: { error in
      guard case .compileFailed(let failed, let diagnostics) = error as? ObjectiveCCompileError
      else { return false }
      return failed == file && diagnostics.contains("expected expression")
    }
  }

  @Test("no file, a missing file and a file that is not Objective-C are refused before gcc runs")
  func badArguments() {
    let compiler = ObjectiveCCompiler()
    #expect(throws: ObjectiveCCompileError.noFiles) { try compiler.compile([]) }
    #expect(throws: ObjectiveCCompileError.missing("/nonexistent/File.m")) {
      try compiler.compile(["/nonexistent/File.m"])
    }
    #expect(throws: ObjectiveCCompileError.notObjectiveC("/etc/hostname")) {
      try compiler.compile(["/etc/hostname"])
    }
  }
}

@Suite(
  "Foundation for Objective-C",
  .serialized, .uiKitModel,
  .enabled(
    if: ObjectiveCCompiler.isAvailable,
    "gcc's Objective-C is not installed: \(ObjectiveCCompiler.installCommand)"))
struct FoundationObjectsTests {
  @Test(
    "@\"...\" literals are NSConstantString objects: sent to, compared, stored, read from Swift")
  func constantStrings() throws {
    let (modules, handle) = try load(
      """
      #import <Foundation/Foundation.h>
      #include <string.h>
      static char nameKey;
      long strings(void) {
        NSString *hello = @"hello";
        long answer = [hello length] == 5 ? 1 : 0;
        answer += strcmp([hello UTF8String], "hello") == 0 ? 10 : 0;
        answer += [hello isEqual:[NSString stringWithUTF8String:"hello"]] ? 100 : 0;
        answer += [hello isKindOfClass:[NSString class]] ? 1000 : 0;
        id object = [NSObject new];
        objc_setAssociatedObject(object, &nameKey, @"stored", OBJC_ASSOCIATION_RETAIN);
        answer += [objc_getAssociatedObject(object, &nameKey) isEqual:@"stored"] ? 10000 : 0;
        [object release];
        return answer;
      }
      id greeting(void) { return @"héllo, world"; }
      """, name: "Strings")
    #expect(try #require(modules.first).problems.isEmpty)
    #expect(try call("strings", in: handle) == 11111)
    typealias Object = @convention(c) () -> UnsafeMutableRawPointer?
    let symbol = try #require(dlsym(handle, "greeting"))
    let address = try #require(unsafeBitCast(symbol, to: Object.self)())
    let object = Unmanaged<ObjCObject>.fromOpaque(address).takeUnretainedValue()
    #expect(object.objcClass.name == "NSConstantString")
    #expect(object.isEqual(ObjCString("héllo, world")))
    #expect(ObjCString("héllo, world").isEqual(object))
    // No room for associations on a constant string: refused, read as none, no crash.
    objc_setAssociatedObject(object, "key", ObjCString("value"), .OBJC_ASSOCIATION_RETAIN)
    #expect(objc_getAssociatedObject(object, "key") == nil)
  }

  @Test("NSNumber, NSValue with a CGRect, -description and NSLog's %@")
  func numbersAndValues() throws {
    let (_, handle) = try load(
      """
      #import <Foundation/Foundation.h>
      #include <string.h>
      long numbers(void) {
        NSNumber *three = [NSNumber numberWithInt:3];
        long answer = [three intValue] == 3 ? 1 : 0;
        answer += [[NSNumber numberWithDouble:2.5] doubleValue] == 2.5 ? 10 : 0;
        answer += [[NSNumber numberWithBool:YES] boolValue] ? 100 : 0;
        CGRect frame = {{1, 2}, {320, 44}};
        NSValue *value = [NSValue valueWithCGRect:frame];
        CGRect back = [value CGRectValue];
        answer += back.size.width == 320 && back.origin.y == 2 ? 1000 : 0;
        answer += strcmp([[three description] UTF8String], "3") == 0 ? 10000 : 0;
        NSLog(@"three is %@, %d and %s", three, 3, "three");
        return answer;
      }
      """, name: "Numbers")
    #expect(try call("numbers", in: handle) == 11111)
  }
}

@Suite(
  "Objective-C at its edges",
  .serialized, .uiKitModel,
  .enabled(
    if: ObjectiveCCompiler.isAvailable,
    "gcc's Objective-C is not installed: \(ObjectiveCCompiler.installCommand)"))
struct ObjectiveCEdgeTests {
  @Test("unrecognized sends with a struct, a double or an object result answer zero, reported")
  func unrecognizedResults() throws {
    let (_, handle) = try load(
      """
      #import <Foundation/Foundation.h>
      @interface NSObject (Nobody)
      - (CGRect)nobodysFrame;
      - (double)nobodysAlpha;
      - (id)nobodysView;
      @end
      long edges(void) {
        id object = [NSObject new];
        CGRect frame = [object nobodysFrame];
        double alpha = [object nobodysAlpha];
        id view = [object nobodysView];
        [object release];
        (void)frame;  /* a struct returned in memory: left as it was, not read */
        return (alpha == 0 ? 1 : 0) + (view == nil ? 10 : 0);
      }
      """, name: "Edges")
    _ = ObjectiveCModules.takeFailures()
    #expect(try call("edges", in: handle) == 11)
    let failures = ObjectiveCModules.takeFailures().map(\.description)
    #expect(failures.count == 3, "\(failures)")
    #expect(failures.allSatisfy { $0.hasPrefix("-[ObjCObject nobodys") }, "\(failures)")
  }

  @Test("NSLog's sizes and widths; a huge double's description; release of a class does nothing")
  func formattingAndClasses() throws {
    let (_, handle) = try load(
      """
      #import <Foundation/Foundation.h>
      #include <string.h>
      long formats(void) {
        NSLog(@"logged %zu %5.*f %lld %@ %s", (size_t)3, 2, 1.5, (long long)-4,
              [NSNumber numberWithDouble:1e300], "end");
        id cls = [NSObject class];
        [cls release];
        [cls release];
        long answer = [cls class] == cls ? 1 : 0;
        const char *huge = [[[NSNumber numberWithDouble:1e300] description] UTF8String];
        return answer + (strstr(huge, "e+300") != NULL ? 10 : 0);
      }
      """, name: "Formats")
    // NSLog writes to standard error: read what it wrote there during the call.
    let (answer, logged) = try capturingStandardError { try call("formats", in: handle) }
    #expect(answer == 11)
    #expect(logged.contains("logged 3  1.50 -4 1e+300 end\n"), "\(logged)")
  }
}

/// Runs `body` with standard error going to a pipe; returns its result and what was written
/// (a line another thread writes meanwhile is captured too: the check looks for its own).
private func capturingStandardError<Result>(_ body: () throws -> Result) throws -> (
  Result, String
) {
  let pipe = Pipe()
  let saved = dup(STDERR_FILENO)
  dup2(pipe.fileHandleForWriting.fileDescriptor, STDERR_FILENO)
  let result: Result
  do {
    result = try body()
  } catch {
    dup2(saved, STDERR_FILENO)
    close(saved)
    throw error
  }
  dup2(saved, STDERR_FILENO)
  close(saved)
  try pipe.fileHandleForWriting.close()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  return (result, String(decoding: data, as: UTF8.self))
}
