// Objective-C compiled by gcc on the runtime (issue #37): a send from gcc's code against a typed
// send, and the lab's compile-and-load of a one-file category.
import Foundation
import GNUObjC
import ObjCRuntime

enum ObjectiveCCases {
  static let all: [BenchCase] = [
    BenchCase(
      name: "objc-send", target: "<= 2x cached-send (a send from gcc's code: lookup, stub, IMP)",
      limit: 2, iterations: (100_000, 300_000), body: objcSend, relativeTo: "cached-send",
      relativeFactor: true),
    BenchCase(
      name: "objc-compile-load", target: "<= 200 ms (gcc compiles a one-file category; loaded)",
      limit: 200, iterations: (0, 1), body: { _ in 0 }, direct: compileAndLoadMilliseconds,
      unit: "ms"),
  ]

  /// The loop in Objective-C: `count` sends of `increment:` to a BenchTarget, as gcc compiles
  /// them (objc_msg_lookup, then the function it returns).
  private static let loopSource = """
    #import <Foundation/Foundation.h>
    @interface BenchTarget : NSObject
    - (long)increment:(long)value;
    @end
    long bench_objc_send_loop(id target, long count) {
      long sum = 0;
      for (long index = 0; index < count; index++) sum += [target increment:index];
      return sum;
    }
    """

  /// A category as the lab's users write one: +load exchanging two methods of a model class.
  private static let categorySource = """
    #import <UIKit/UIKit.h>
    @implementation UIViewController (BenchTracking)
    + (void)load {
      method_exchangeImplementations(
          class_getInstanceMethod(self, @selector(viewDidLoad)),
          class_getInstanceMethod(self, @selector(bench_viewDidLoad)));
    }
    - (void)bench_viewDidLoad { [self bench_viewDidLoad]; }
    @end
    """

  /// Compiles `source` as NAME.m into a library; nil (with a line saying why) when it cannot be.
  private static func library(_ source: String, named name: String) -> String? {
    ObjectiveCModules.start()
    let compiler = ObjectiveCCompiler()
    do {
      try FileManager.default.createDirectory(
        at: compiler.directory, withIntermediateDirectories: true)
      let file = compiler.directory.appendingPathComponent("\(name).m").path
      try source.write(toFile: file, atomically: true, encoding: .utf8)
      return try compiler.compile([file])
    } catch {
      print("objc: \(error)")
      return nil
    }
  }

  static func objcSend(count: Int) -> Int {
    _ = BenchTarget.runtimeClass
    guard let path = library(loopSource, named: "BenchSendLoop"),
      let handle = dlopen(path, RTLD_NOW), let symbol = dlsym(handle, "bench_objc_send_loop")
    else { return 0 }
    typealias Loop = @convention(c) (UnsafeMutableRawPointer, Int) -> Int
    let loop = unsafeBitCast(symbol, to: Loop.self)
    let target = BenchTarget()
    let address = Unmanaged.passUnretained(target).toOpaque()
    _ = loop(address, 1)  // the first send fills the cache and makes the stub
    var sum = 0
    Stopwatch.time { sum = loop(address, count) }
    return sum + (withExtendedLifetime(target) { 0 })
  }

  /// The wall time of compiling the category and loading it, as `swizzle-lab compile` does.
  static func compileAndLoadMilliseconds() -> Double {
    _ = objc_getClassList(nil, 0)
    let start = DispatchTime.now().uptimeNanoseconds
    guard let path = library(categorySource, named: "BenchTracking"), dlopen(path, RTLD_NOW) != nil
    else { return .infinity }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
  }
}
