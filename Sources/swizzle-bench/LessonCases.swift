// The lessons of `swizzle-lab learn`: each must run in under 50 ms of the process's own time
// (the CPU time of the whole process, threads included, as `time` reports user + sys), its
// first run in a fresh process, classes realized and all; and the render of the tour under 1 s.
import Foundation
import Glibc
import SwizzleLab

enum LessonCases {
  static let all: [BenchCase] =
    Lab.lessonNames.map { name in
      BenchCase(
        name: "lesson-\(name)", target: "<= 50 ms of CPU (swizzle-lab learn \(name))",
        limit: 50, iterations: (0, 1), body: { _ in 0 },
        direct: { cpuMilliseconds(of: ["learn", name]) }, unit: "ms")
    } + [
      BenchCase(
        name: "render-tour", target: "<= 1,000 ms of CPU (swizzle-lab render tour)", limit: 1000,
        iterations: (0, 1), body: { _ in 0 }, direct: { renderTourMilliseconds() }, unit: "ms")
    ]

  /// The process's CPU time while the lab runs `arguments`, in milliseconds.
  @MainActor static func cpuMilliseconds(of arguments: [String]) -> Double {
    func now() -> Double {
      var spec = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
      return Double(spec.tv_sec) * 1_000 + Double(spec.tv_nsec) / 1_000_000
    }
    let start = now()
    _ = Lab.main(arguments, output: CapturedOutput())
    return now() - start
  }

  /// `swizzle-lab render tour` into a fresh folder, removed after: the report, its frames as SVG
  /// and PNG, and the scrubber's frame of every sample.
  @MainActor static func renderTourMilliseconds() -> Double {
    let folder = "/tmp/swizzle-bench-render-\(getpid())"
    defer { _ = try? FileManager.default.removeItem(atPath: folder) }
    return cpuMilliseconds(of: ["render", "tour", "--out", folder])
  }
}
