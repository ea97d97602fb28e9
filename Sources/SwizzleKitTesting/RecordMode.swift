// When the testing library writes references (golden timelines, image snapshots) instead of
// comparing with them: the record modes of swift-snapshot-testing, set per test by a trait or
// for a run by the environment.
import Foundation
public import Testing

/// When a reference file (a golden timeline, an image snapshot) is written instead of compared
/// with. Every run that writes one fails and names the file and what changed in it, so that a
/// run with recording left on cannot pass.
///
/// Set it for a suite or a test with the `.snapshots(record:)` trait (``RecordModeTrait``), for a block
/// of code with ``withRecordMode(_:_:)``, or for the whole run with the environment variable
/// `SWIZZLEKIT_RECORD` (`never`, `missing`, `failed` or `all`; `SWIZZLEKIT_UPDATE_GOLDEN=1`, the
/// older spelling, means `all`). A trait or block beats the environment.
public enum RecordMode: String, Sendable, CaseIterable {
  /// Never write: a missing reference is a failure (for CI, where a new file would be lost).
  case never
  /// Write the references that do not exist yet, and fail; compare the others. The default.
  case missing
  /// Write the references that differ (and the missing ones), and fail; the others pass.
  case failed
  /// Write every reference, and fail.
  case all

  /// The mode a trait or ``withRecordMode(_:_:)`` set for the running code.
  @TaskLocal static var current: RecordMode?

  /// The mode in force: the trait's or block's, else `environment`'s (the process's by
  /// default), else ``missing``; or an error saying what is wrong with the environment's.
  public static func resolved(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Result<RecordMode, RecordModeError> {
    if let current { return .success(current) }
    if let value = environment["SWIZZLEKIT_RECORD"] {
      guard let mode = RecordMode(rawValue: value.trimmingCharacters(in: .whitespaces)) else {
        return .failure(RecordModeError(value: value))
      }
      return .success(mode)
    }
    // The older spelling: any value but an empty one, 0, false or no.
    if let update = environment["SWIZZLEKIT_UPDATE_GOLDEN"],
      !["", "0", "false", "no"].contains(update.trimmingCharacters(in: .whitespaces).lowercased())
    {
      return .success(.all)
    }
    return .success(.missing)
  }
}

/// `SWIZZLEKIT_RECORD` holds no record mode.
public struct RecordModeError: Error, CustomStringConvertible {
  /// The variable's value.
  public let value: String
  /// What is wrong, and what to do.
  public var description: String {
    "SWIZZLEKIT_RECORD=\"\(value)\" is not a record mode: set it to never, missing, failed or"
      + " all (or unset it: missing is the default); nothing was compared or written"
  }
}

/// Runs `body` with `mode` as the record mode of the expectations it makes (XCTest's way to
/// set what the trait sets).
///
/// ```swift
/// withRecordMode(.failed) { expectScreen(named: "pushed") }
/// ```
public func withRecordMode<Result>(_ mode: RecordMode, _ body: () throws -> Result) rethrows
  -> Result
{
  try RecordMode.$current.withValue(mode, operation: body)
}

/// Sets the record mode of a suite's or test's snapshot and golden expectations.
public struct RecordModeTrait: TestTrait, SuiteTrait, TestScoping {
  /// The mode.
  public let mode: RecordMode

  /// Applies to every test of a suite.
  public var isRecursive: Bool { true }

  /// Runs the test with the mode set.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await RecordMode.$current.withValue(mode) {
      try await ReferenceFiles.$counters.withValue(
        ReferenceFiles.counters ?? ReferenceFiles.Counters(), operation: function)
    }
  }
}

extension Trait where Self == RecordModeTrait {
  /// Writes this suite's or test's references when `record` says (``RecordMode``).
  ///
  /// ```swift
  /// @Suite(.uiKitModel, .snapshots(record: .failed)) struct BarTests {}
  /// ```
  public static func snapshots(record: RecordMode) -> Self { RecordModeTrait(mode: record) }
}

/// The record modes' table (Docs/Testing.md, section 7), in one place for every kind of
/// reference: what a check does with a reference missing, unreadable, matching or not.
extension RecordMode {
  /// What to do with a reference that was read and compared.
  enum Decision {
    /// It matched: the check passes.
    case pass
    /// It is written again (and the check fails, saying so).
    case rewrite
    /// It differs and stays: the check fails with the difference.
    case fail
  }

  /// The decision for a reference that `matches` or not.
  func decision(matches: Bool) -> Decision {
    switch self {
    case .all: .rewrite
    case .failed: matches ? .pass : .rewrite
    case .missing, .never: matches ? .pass : .fail
    }
  }

  /// Whether a missing reference is written: in every mode but never.
  var writesMissing: Bool { self != .never }

  /// Whether a reference that cannot be read is written again: when what differs is.
  var rewritesUnreadable: Bool { self == .failed || self == .all }

  /// The failure that says a reference was written: `kind` (`snapshot`, `golden file`), its
  /// path and what changed in it.
  func recorded(_ kind: String, at path: String, _ what: String) -> String {
    "recorded the \(kind) \(path) (\(what)), record mode \(rawValue): review it, commit it, and"
      + " run again without recording"
  }

  /// The failure of a missing reference the mode does not write.
  func missing(_ kind: String, named name: String, at path: String) -> String {
    "\(name): there is no \(kind) \(path), and the record mode is \(rawValue): run with"
      + " SWIZZLEKIT_RECORD=missing to write it"
  }
}
