// The command line of swizzle-bench, parsed by hand (no outside packages build here).
import Foundation

/// What the user asked for.
struct Options {
  /// How the figures are taken.
  enum Mode: String, Codable {
    /// Wall-clock time per operation: the median of several fresh processes, with its spread.
    case clock
    /// Instructions per operation, counted by valgrind's callgrind (through `callgrind.sh`).
    case callgrind
    /// Each case once, nothing measured: the smoke test of CI.
    case quick
  }

  var mode = Mode.clock
  /// Only the cases whose name contains this.
  var filter: String?
  /// Only the scaling cases (``ScalingFamily``), with the filter if there is one.
  var scaling = false
  /// Only the hook libraries' cases, measured both ways (``HookLibraryCases``).
  var hookLibraries = false
  /// Where to write the table as JSON.
  var jsonPath: String?
  /// With `--callgrind`: print callgrind's profile of each case too.
  var annotate = false
  /// Fresh processes per wall-clock figure.
  var runs = 5
  /// Whether the scripts may install what they miss (valgrind, gobjc) with apt-get.
  var installPeers = false

  static let usage = """
    USAGE: swizzle-bench [--callgrind [--annotate]] [--filter NAME] [--scaling]
                         [--hook-libraries] [--runs N] [--json PATH] [--install-peers]
           swizzle-bench --quick [--filter NAME]

    Measures SwizzleKit's runtime, hooks and UIKit model, case by case, beside GCC's Objective-C
    runtime (GNU libobjc) where it has the same operation, and says which targets are met.

    By default each figure is wall-clock time per operation: the median of several runs, each in
    a fresh process, with their spread. Machines here are noisy; the targets are stated in
    instructions, which --callgrind counts and which are the same from run to run.

    OPTIONS:
      --callgrind     Count instructions per operation with valgrind's callgrind instead, through
                      callgrind.sh beside the benchmark's sources.
      --annotate      With --callgrind, also print where each case spent its instructions.
      --filter NAME   Run only the cases whose name contains NAME.
      --scaling       Run only the scaling cases: one operation as something grows (methods,
                      keys, observers, hooks, classes), at N = 1 to 10,000. After the table, each
                      family's figures by N and its verdict: constant, linear as designed, or a
                      regression (judged with --callgrind).
      --hook-libraries
                      Run only the hook libraries' benchmark: an empty method hooked before,
                      after and instead, for all instances and for one, against the unhooked
                      call, measured both in time (1,000,000 calls) and with callgrind when
                      valgrind is there; then the ratios beside SwiftHook's, Stinger's and
                      Aspects' published ones, with what they measured.
      --runs N        Fresh processes per wall-clock figure (default 5).
      --json PATH     Also write the table, with the date and the machine, as JSON to PATH.
      --quick         Run each case once and measure nothing (a smoke test, as in CI).
      --install-peers Install what is missing (valgrind, gcc's Objective-C) with apt-get, as root
                      or through sudo without a password. Without it nothing is installed: the
                      benchmark prints the command that would, and goes on without the column.
      -h, --help      Show this help.

    The GNU libobjc column needs gcc's Objective-C (Debian's gobjc) and --callgrind needs
    valgrind: apt-get install -y gobjc valgrind. On a terminal, the case being measured and how
    many are left show on standard error; piped, the benchmark prints only the table.
    """

  /// Parses the arguments; nil after printing the usage (help: exit 0, a mistake: exit 64).
  static func parse(_ arguments: [String]) -> Options? {
    var options = Options()
    var remaining = arguments[...]
    func value(for option: String) -> String? {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        fail("\(option) needs a value")
        return nil
      }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        print(usage)
        exit(0)
      case "--callgrind": options.mode = .callgrind
      case "--quick": options.mode = .quick
      case "--annotate": options.annotate = true
      case "--install-peers": options.installPeers = true
      case "--scaling": options.scaling = true
      case "--hook-libraries": options.hookLibraries = true
      case "--filter":
        guard let name = value(for: argument) else { return nil }
        options.filter = name
      case "--json":
        guard let path = value(for: argument) else { return nil }
        options.jsonPath = path
      case "--runs":
        guard let text = value(for: argument) else { return nil }
        guard let runs = Int(text), runs > 0 else {
          fail("--runs takes a positive number, not '\(text)'")
          return nil
        }
        options.runs = runs
      default:
        fail("unknown argument '\(argument)'")
        return nil
      }
    }
    if options.annotate && options.mode != .callgrind {
      fail("--annotate goes with --callgrind")
      return nil
    }
    if options.jsonPath != nil && options.mode == .quick {
      fail("--json needs figures, which --quick does not take")
      return nil
    }
    return options
  }

  private static func fail(_ message: String) {
    FileHandle.standardError.write(Data("swizzle-bench: \(message)\n\n\(usage)\n".utf8))
  }
}
