// Swift Testing traits for tests that drive the UIKit model or install plugins: a fresh model per
// test, model-driving tests serialized across every test target of the process, and plugins
// installed for a test and removed after it.
public import Hooks
import ObjCRuntime
public import Testing
public import UIKitModel

/// Gives each test a freshly reset UIKit model, and runs the tests that use the model one at a
/// time across the whole process (every suite, every test target), since the model is global
/// state, as UIKit's is.
///
/// Isolate the tests to the main actor, as UIKit code is: the model runs on the main thread
/// (`MainThread`), where deferred UI work (`DispatchQueue.main.async`,
/// `Task { @MainActor in ... }`) runs too, in the order it was sent, at the end of the model's
/// frames or when the test suspends. `DispatchQueue.main.asyncAfter` follows the model's virtual
/// clock during the test.
///
/// ```swift
/// @MainActor @Suite(.uiKitModel) struct TintTests {
///   @Test func push() { /* the model is fresh, and no other model test runs meanwhile */ }
///   @Test(.uiKitModel(device: .iPhoneX, systemVersion: "11.0")) func notch() {}
/// }
/// ```
///
/// A test that advances the model off the main thread (not isolated to the main actor) is
/// recorded as an issue (`UIKitModelIssue.offMainThread`): the main queue's work would run
/// beside the model. A test that needs the model and does not use this trait (or
/// ``PluginTrait``) races with the ones that do. Nested uses (a suite and its test) take the
/// model once.
public struct UIKitModelTrait: TestTrait, SuiteTrait, TestScoping {
  /// The device the model is reset to.
  public let device: DeviceProfile
  /// The system version the model is reset to.
  public let systemVersion: String
  /// The SDK the application is taken to be built with (`UIDevice.current.linkedSDKVersion`); nil for
  /// the system version's.
  public var sdkVersion: String? = nil

  /// Applies to every test of a suite.
  public var isRecursive: Bool { true }

  /// Provides the scope around each test case (a suite's own run takes no scope).
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Takes the model, resets it on the main actor, runs the test with virtual deadlines, gives
  /// the model back.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A version that does not parse would leave the test on another version than it says.
    for (what, version) in [("systemVersion", systemVersion), ("sdkVersion", sdkVersion)] {
      guard let version, !UIDevice.isSystemVersion(version) else { continue }
      Issue.record(
        Comment(
          rawValue: "the trait's \(what) \"\(version)\" is not a version number such as 15.0;"
            + " the test did not run"))
      return
    }
    try await ModelGate.shared.holding {
      try await onTheMainThread {
        // On the main thread, after the work the last test left on the main queue.
        await MainActor.run {
          UIApplication.resetModel(device: device, systemVersion: systemVersion)
          UIDevice.current.linkedSDKVersion = sdkVersion
        }
        // Unnamed snapshots count from 1 in each test case.
        try await ReferenceFiles.$counters.withValue(ReferenceFiles.Counters()) {
          try await function()
        }
      }
    }
  }
}

extension Trait where Self == UIKitModelTrait {
  /// A fresh model on an iPhone 8 running iOS 13 for each test, one model test at a time.
  public static var uiKitModel: Self { UIKitModelTrait(device: .iPhone8, systemVersion: "13.0") }

  /// A fresh model on `device` running `systemVersion` for each test, one model test at a time.
  public static func uiKitModel(device: DeviceProfile, systemVersion: String = "13.0") -> Self {
    UIKitModelTrait(device: device, systemVersion: systemVersion)
  }

  /// A fresh model on `device` running the iOS profile `profile` (`.ios15`, or `.ios15sdk14`
  /// with its application built with the iOS 14 SDK) for each test, one model test at a time.
  public static func uiKitModel(device: DeviceProfile = .iPhone8, profile: IOSProfile) -> Self {
    UIKitModelTrait(
      device: device, systemVersion: profile.systemVersion, sdkVersion: profile.sdkVersion)
  }
}

/// Installs plugins before each test and uninstalls them after it; an install that fails fails
/// the test, naming the plugin and the hook that failed (nothing of the plugin stays installed).
/// Installing hooks changes the model for every test that drives it, so this trait takes the
/// model as ``UIKitModelTrait`` does, and installs and uninstalls on the main actor (without
/// resetting the model: combine both for a fresh model).
///
/// ```swift
/// @MainActor @Suite(.uiKitModel, .plugins(BarLayerPlugin())) struct BarTests {}
/// @MainActor @Test(.uiKitModel, .plugins(named: "bar-layer")) func found() {}
/// ```
public struct PluginTrait: TestTrait, SuiteTrait, TestScoping {
  private enum Source: Sendable {
    case values([any HookPlugin])
    case names([String])
  }

  private let source: Source

  /// Applies to every test of a suite.
  public var isRecursive: Bool { true }

  /// Provides the scope around each test case.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Installs, runs the test, uninstalls what this trait installed (in reverse order).
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await ModelGate.shared.holding {
      try await onTheMainThread { try await installing(function) }
    }
  }

  /// Installs the plugins, runs `function`, uninstalls them: the installs and uninstalls on the
  /// main actor, where the model runs.
  private func installing(_ function: @Sendable () async throws -> Void) async throws {
    let installed = try await MainActor.run { try install() }
    let uninstall = { @MainActor in
      for identifier in installed.reversed() { PluginRegistry.shared.uninstall(identifier) }
    }
    do {
      try await ReferenceFiles.$counters.withValue(
        ReferenceFiles.counters ?? ReferenceFiles.Counters(), operation: function)
    } catch {
      await uninstall()
      throw error
    }
    await uninstall()
  }

  /// Installs the plugins in order; the identifiers of those this call installed (a plugin
  /// already installed stays, and is not uninstalled after the test). An install that fails
  /// uninstalls what this call installed before it, and throws.
  private func install() throws -> [String] {
    let registry = PluginRegistry.shared
    var installed: [String] = []
    do {
      switch source {
      case .values(let plugins):
        for plugin in plugins {
          if try registry.install(plugin) { installed.append(plugin.identifier) }
        }
      case .names(let names):
        try registry.discover()
        for name in names {
          if try registry.install(named: name) { installed.append(name) }
        }
      }
    } catch {
      for identifier in installed.reversed() { registry.uninstall(identifier) }
      throw error
    }
    return installed
  }

  fileprivate init(values: [any HookPlugin]) { source = .values(values) }
  fileprivate init(names: [String]) { source = .names(names) }
}

extension Trait where Self == PluginTrait {
  /// Installs `plugins`, in order, for each test.
  public static func plugins(_ plugins: any HookPlugin...) -> Self {
    PluginTrait(values: plugins)
  }

  /// Installs the discovered plugins with these short names (or identifiers), in order, for
  /// each test.
  public static func plugins(named names: String...) -> Self {
    PluginTrait(names: names)
  }
}

/// Runs `body`, a model test, with `asyncAfter` on the model's virtual clock, and records an issue
/// when the test advanced the run loop off the main thread (it is not isolated to the main
/// actor): the main queue's work then ran beside the model. Nested (a test with both traits), the
/// outer scope alone counts.
private func onTheMainThread(_ body: () async throws -> Void) async throws {
  if ModelTestScope.isInside { return try await body() }
  let before = MainThread.offMainThreadAdvances
  defer {
    let advances = MainThread.offMainThreadAdvances - before
    if advances > 0 {
      Issue.record(
        Comment(
          rawValue: "the model's run loop advanced \(advances) time\(advances == 1 ? "" : "s")"
            + " off the main thread, where the main queue's work runs beside it: isolate the"
            + " test or its suite to the main actor (@MainActor)"))
    }
  }
  try await ModelTestScope.$isInside.withValue(true) {
    try await MainThread.withVirtualDeadlines(body)
  }
}

/// Whether the current task runs inside a model test's scope.
private enum ModelTestScope {
  @TaskLocal static var isInside = false
}

/// The process-wide turn of the UIKit model: one holder at a time, handed over in arrival order,
/// without blocking a thread (waiters are suspended tasks), and re-entrant within a task and its
/// child tasks.
public final class ModelGate: Sendable {
  /// The gate of the process.
  public static let shared = ModelGate()

  private struct State {
    var isHeld = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = RuntimeLock(State())
  @TaskLocal private static var isHolding = false

  private init() {}

  /// Runs `body` holding the model: waits for the holder before to finish (unless this task
  /// holds it already) and lets the next one in after.
  public nonisolated(nonsending) func holding<Result>(
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    if ModelGate.isHolding { return try await body() }
    await acquire()
    defer { release() }
    return try await ModelGate.$isHolding.withValue(true) { try await body() }
  }

  private func acquire() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let enters = state.withLock { state -> Bool in
        guard state.isHeld else {
          state.isHeld = true
          return true
        }
        state.waiters.append(continuation)
        return false
      }
      if enters { continuation.resume() }
    }
  }

  private func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiters.isEmpty else {
        state.isHeld = false
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}
