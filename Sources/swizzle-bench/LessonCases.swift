// The lessons of `swizzle-lab learn`: each must run in under 50 ms of the process's own time
// (the CPU time of the whole process, threads included, as `time` reports user + sys), its
// first run in a fresh process, classes realized and all.
import Glibc
import SwizzleLab

enum LessonCases {
  static let all: [BenchCase] = Lab.lessonNames.map { name in
    BenchCase(
      name: "lesson-\(name)", target: "<= 50 ms of CPU (swizzle-lab learn \(name))", limit: 50,
      iterations: (0, 1), body: { _ in 0 }, direct: { cpuMilliseconds(of: name) }, unit: "ms")
  }

  /// The process's CPU time while `swizzle-lab learn name` runs, in milliseconds.
  static func cpuMilliseconds(of name: String) -> Double {
    func now() -> Double {
      var spec = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
      return Double(spec.tv_sec) * 1_000 + Double(spec.tv_nsec) / 1_000_000
    }
    let start = now()
    _ = Lab.main(["learn", name], output: CapturedOutput())
    return now() - start
  }
}
