// lab-fuzz: the lab's command line under random words, options, values, empty strings and
// duplicates, run in this process one invocation after another. Each must end with exit status
// 0, 1 or 64, and a failure must say so on standard error in a line that starts with "error: ";
// a trap or a signal ends this process, with the invocation that caused it named in
// `lab-fuzz.last` (the run happens in a temporary directory, which it prints first).
//
//   lab-fuzz [--seed N] [--count N] [--only I]
//
// The same seed makes the same invocations: `--only I` replays invocation I of a run, and
// LAB_FUZZ_SHOW=1 prints every invocation that failed (exit 1) with its reason. After each
// invocation the plugins it installed are uninstalled, as the end of a process would.
import Foundation
import Hooks
import Scenarios
import SwizzleLab

/// SplitMix64: a small generator whose whole state is one number, so a seed replays a run.
struct SplitMix64 {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// The words the invocations are made of.
struct Vocabulary {
  let directory: String
  let scenarios: [String]
  let plugins: [String]

  static let commands = [
    "", "run", "trace", "render", "export", "hooks", "methods", "matrix", "gallery", "list",
    "learn",
    "load", "help", "bogus", "RUN", "--help", "-h", "-", "--",
  ]
  static let flags = [
    "--plugin", "--device", "--ios", "--sdk", "--speed", "--no-color", "--load", "--filter",
    "--out", "--scenario", "--html", "--help", "--bogus", "--plugin=bar-layer", "-x",
  ]
  static let junk = [
    "", " ", "  ", "..", "../..", "/", "nope", "🙂", "\t", "-", "--", "0", "-1", "nan",
    String(repeating: "x", count: 5_000), "a,b", ",", "NSObject", "UINavigationController",
  ]

  func values(for flag: String, random: inout SplitMix64) -> String {
    switch flag {
    case "--plugin":
      return random.pick(
        plugins + ["none", "nope", "", ",", "bar-layer,bar-layer", "none,bar-layer"])
    case "--device":
      return random.pick(["iPhone 8", "iPhone X", "iPad Air", "Nokia", "", "iphone 8"])
    case "--ios", "--sdk":
      return random.pick([
        "10", "12", "13", "15/sdk14", "18", "26", "14", "14.2", "x.1", "13.", "", "1e300", "-1",
        "99.0", "٣.٠",
      ])
    // Only waits too short to notice, or refused ones: the fuzzer must not sleep.
    case "--speed":
      return random.pick(["0", "0.00001", "-1", "nan", "inf", "61", "1e300", "", "4296"])
    case "--filter": return random.pick(["viewWillAppear:", "", " ", "%", "set"])
    case "--out", "--html":
      return random.pick([directory + "/out", directory + "/page.html", "", "/proc/nope/x", "."])
    case "--load": return random.pick(["", "/nonexistent/libNothing.so", "/tmp", ".", "/"])
    case "--scenario": return random.pick(scenarios + ["", ",", "nope", "push,push"])
    default: return random.pick(Vocabulary.junk)
    }
  }

  /// Invocation `index` of the run seeded with `seed`.
  func invocation(seed: UInt64, index: Int) -> [String] {
    var random = SplitMix64(state: seed &+ UInt64(index) &* 0x2545_F491_4F6C_DD1D)
    var words: [String] = []
    let command = random.pick(Vocabulary.commands)
    words.append(command)
    if ["run", "trace", "render", "export"].contains(command), random.chance(70) {
      words.append(random.pick(scenarios))
    }
    if command == "gallery" || command == "learn" || command == "methods", random.chance(50) {
      words.append(random.pick(["et-33", "lt-62", "nope", "", "UIView", "1", "exchange"]))
    }
    for _ in 0..<random.below(5) {
      if random.chance(55) {
        let flag = random.pick(Vocabulary.flags)
        words.append(flag)
        if random.chance(85) { words.append(values(for: flag, random: &random)) }
      } else {
        words.append(random.chance(50) ? random.pick(scenarios) : random.pick(Vocabulary.junk))
      }
    }
    // The whole matrix takes seconds; the fuzzer keeps it to one scenario (or a refused one).
    if command == "matrix" { words += ["--scenario", random.pick(scenarios + ["nope", ""])] }
    // Nothing writes outside the run's directory.
    if command == "render" { words += ["--out", directory + "/report"] }
    if command == "export" { words += ["--out", directory + "/export"] }
    return words.first == "" && words.count > 1 && random.chance(50)
      ? Array(words.dropFirst()) : words
  }
}

var seed: UInt64 = 1
var count = 10_000
var only: Int?
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let flag = arguments.removeFirst()
  guard let text = arguments.first, let number = UInt64(text) else {
    FileHandle.standardError.write(Data("usage: lab-fuzz [--seed N] [--count N] [--only I]\n".utf8))
    exit(64)
  }
  arguments.removeFirst()
  switch flag {
  case "--seed": seed = number
  case "--count": count = Int(clamping: number)
  case "--only": only = Int(clamping: number)
  default:
    FileHandle.standardError.write(Data("usage: lab-fuzz [--seed N] [--count N] [--only I]\n".utf8))
    exit(64)
  }
}

let directory = NSTemporaryDirectory() + "lab-fuzz-\(getpid())"
try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
guard FileManager.default.changeCurrentDirectoryPath(directory) else {
  FileHandle.standardError.write(Data("lab-fuzz: cannot work in \(directory)\n".utf8))
  exit(1)
}
setenv("SWIZZLEKIT_QUIET", "1", 1)
print("lab-fuzz: seed \(seed), \(count) invocations, in \(directory)")

// The plugins and scenarios the lab finds, found the way it finds them.
_ = Lab.main(["list"], output: CapturedOutput())
let vocabulary = Vocabulary(
  directory: directory, scenarios: ScenarioCatalog.all().map(\.name),
  plugins: PluginRegistry.shared.plugins.map(\.name))

let lastPath = directory + "/lab-fuzz.last"
var outcomes: [LabExit: Int] = [:]
var problems = 0
for index in only.map({ [$0] }) ?? Array(0..<count) {
  let words = vocabulary.invocation(seed: seed, index: index)
  let shown = words.map { $0.count > 40 ? "<\($0.count) characters>" : "\"\($0)\"" }
    .joined(separator: " ")
  // Written before the run: if it traps, this names it.
  try? "seed \(seed) invocation \(index): \(shown)\n".write(
    toFile: lastPath, atomically: false, encoding: .utf8)
  let output = CapturedOutput()
  let code = Lab.main(words, output: output, environment: [:])
  // A process of its own would end here: the plugins it installed go with it.
  for plugin in PluginRegistry.shared.plugins where plugin.isInstalled {
    _ = PluginRegistry.shared.uninstall(plugin.identifier)
  }
  outcomes[code, default: 0] += 1
  let firstLine =
    output.standardError.split(separator: "\n", omittingEmptySubsequences: false)
    .first ?? ""
  let saysWhy = code == .ok || firstLine.hasPrefix("error: ")
  if ProcessInfo.processInfo.environment["LAB_FUZZ_SHOW"] != nil, code == .failure {
    print("FAIL \(index): \(shown) -> \(firstLine.prefix(150))")
  }
  if !saysWhy || output.standardError.contains("Fatal error") {
    problems += 1
    print("invocation \(index) (--seed \(seed) --only \(index)): \(shown)")
    print("  exit \(code.rawValue); standard error begins: \(firstLine.prefix(200))")
  }
}
let summary = outcomes.sorted { $0.key.rawValue < $1.key.rawValue }
  .map { "exit \($0.key.rawValue): \($0.value)" }.joined(separator: ", ")
print("lab-fuzz: \(summary); \(problems) without a reason on standard error")
try? FileManager.default.removeItem(atPath: directory)
exit(problems == 0 ? 0 : 1)
