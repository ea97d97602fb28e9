// Measuring what an association costs in resident memory.
import Foundation
import ObjCRuntime

enum AssociationMemory {
  /// Resident bytes per association: 100,000 objects are made without associations, then 100,000
  /// with `perObject` associations each (all to one shared value, so the value itself costs
  /// nothing); the growth of the second batch minus that of the first, divided by the number of
  /// associations. Both batches come from fresh heap, so they pay the same allocator overhead.
  static func bytesPerAssociation(_ perObject: Int) -> Double {
    let count = 100_000
    let value = BenchTarget()
    let keys = (0..<perObject).map { Selector("bench.memory.\($0)") }
    let start = residentBytes()
    let plain = (0..<count).map { _ in BenchTarget() }
    let middle = residentBytes()
    let associated = (0..<count).map { _ in
      let object = BenchTarget()
      for key in keys { objc_setAssociatedObject(object, key, value, .retain) }
      return object
    }
    let end = residentBytes()
    withExtendedLifetime((plain, associated, value)) {}
    return Double((end - middle) - (middle - start)) / Double(count * perObject)
  }

  /// The process's resident set size, from `/proc/self/statm`.
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
      let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
