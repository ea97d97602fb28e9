// The names of image snapshots: one rule for the testing library, which compares them, and the
// lab, which exports them beside a test.

/// How image snapshots are named, in swift-snapshot-testing's layout with the cell's parts as
/// iOSSnapshotTestCase's file-name options add them:
/// `__Snapshots__/<TestFile>/<test>.<name or n>.<device>-iOS<version>[-SDK<sdk>]@<scale>x.png`.
public enum SnapshotName {
  /// The file-name form of a name: `push(profile:)` becomes `push`, and any character other
  /// than a letter, digit, `-`, `_` or `.` becomes `-`; `-` and `.` are trimmed from the ends.
  /// Never empty (`snapshot`).
  public static func fileComponent(_ name: String) -> String {
    let base = name.prefix { $0 != "(" }
    let cleaned = String(
      base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
    let trimmed = cleaned.drop { $0 == "-" || $0 == "." }
    let result = String(trimmed.reversed().drop { $0 == "-" || $0 == "." }.reversed())
    return result.isEmpty ? "snapshot" : result
  }

  /// The cell of `frame` at `scale`: `iPhone8-iOS15.0-SDK14.0@2x`.
  public static func cell(of frame: ScreenFrame, scale: Int) -> String {
    frame.device.rawValue.replacingOccurrences(of: " ", with: "")
      + "-iOS\(frame.systemVersion)" + (frame.sdkVersion.map { "-SDK\($0)" } ?? "") + "@\(scale)x"
  }

  /// The reference's file name (without the folder): `<test>.<identifier>.<cell>.png`.
  public static func fileName(test: String, identifier: String, frame: ScreenFrame, scale: Int)
    -> String
  {
    "\(fileComponent(test)).\(identifier).\(cell(of: frame, scale: scale)).png"
  }

  /// The identifiers of a scenario run's moments' snapshots: `<scenario>-<moment>` in file-name
  /// form, with `-2`, `-3`... after a name an earlier moment of the run already took (two
  /// moments whose names differ only in punctuation).
  public static func momentIdentifiers(scenario: String, moments: [String]) -> [String] {
    var taken: Set<String> = []
    return moments.map { moment in
      let base = fileComponent("\(scenario)-\(moment)")
      var name = base
      var number = 1
      while !taken.insert(name).inserted {
        number += 1
        name = "\(base)-\(number)"
      }
      return name
    }
  }
}
