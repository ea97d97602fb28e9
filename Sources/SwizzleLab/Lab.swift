// swizzle-lab: commands, options and usage, written by hand in swift-argument-parser's
// conventions (no outside package builds here). The lab names no plugin and no scenario: it finds
// them through discovery, in its own image and in the libraries it is asked to load.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import UIKitModel

/// Where the lab writes: standard output and standard error, or strings in tests.
public protocol LabOutput: AnyObject {
  /// Writes to standard output.
  func out(_ text: String)
  /// Writes to standard error.
  func err(_ text: String)
  /// Whether standard output is a terminal (colour is then allowed).
  var isTerminal: Bool { get }
}

/// Collects the lab's output, for tests.
public final class CapturedOutput: LabOutput {
  /// What went to standard output.
  public private(set) var standardOutput = ""
  /// What went to standard error.
  public private(set) var standardError = ""
  /// Whether to pretend to be a terminal.
  public let isTerminal: Bool

  /// A capture; `terminal` pretends standard output is a terminal.
  public init(terminal: Bool = false) { isTerminal = terminal }

  /// Appends to standard output.
  public func out(_ text: String) { standardOutput += text }
  /// Appends to standard error.
  public func err(_ text: String) { standardError += text }
}

/// The exit codes of the lab, as sysexits names them.
public enum LabExit: Int32, Sendable {
  /// Success.
  case ok = 0
  /// Something failed while running (a library that does not load...).
  case failure = 1
  /// A usage error: an unknown command, option, scenario or plugin (`EX_USAGE`).
  case usage = 64
}

/// The lab: parses a command line and runs it.
public enum Lab {
  /// The plugins the lab knows: every ``DiscoverablePlugin`` of the images loaded (the lab's
  /// own, and libraries opened with `load` or `--load`), and any registered by hand.
  static var plugins: [PluginInfo] {
    _ = try? PluginRegistry.shared.discover()
    // By short name: the order plugins register in depends on who asked first.
    return PluginRegistry.shared.plugins.sorted {
      ($0.name, $0.identifier) < ($1.name, $1.identifier)
    }
  }

  /// Runs `arguments` (without the program name), writing to `output`; returns the exit code.
  @MainActor public static func main(
    _ arguments: [String], output: LabOutput, environment: [String: String] = [:]
  ) -> LabExit {
    var arguments = arguments
    if arguments.first == "" {
      output.err("error: an empty word where a command goes; commands: \(Usage.commands)\n")
      return .usage
    }
    let command = arguments.isEmpty || arguments[0].hasPrefix("-") ? "" : arguments.removeFirst()
    if arguments.contains("--help") || arguments.contains("-h") || command == "help" {
      let topic = command == "help" ? arguments.first ?? "" : command
      output.out(Usage.text(for: topic))
      return .ok
    }
    do {
      switch command {
      case "":
        var options = try Options.parse(arguments, allowed: Options.runFlags, output: output)
        options.scenario = options.scenario ?? "tour"
        try options.validate()
        return try RunCommand.run(options, output: output, environment: environment)
      case "gallery":
        var arguments = arguments
        let name = arguments.isEmpty || arguments[0].hasPrefix("-") ? nil : arguments.removeFirst()
        let options = try Options.parse(
          arguments, allowed: ["--no-color", "--load"], positional: false, output: output)
        try options.validate()
        return try GalleryCommand.run(
          name: name, options, output: output, environment: environment)
      case "list":
        let options = try Options.parse(
          arguments, allowed: ["--load"], positional: false, output: output)
        try options.validate()
        output.out(listText())
        return .ok
      case "run":
        let options = try Options.parse(
          arguments, allowed: Options.runFlags, needsScenario: true, output: output)
        try options.validate()
        return try RunCommand.run(options, output: output, environment: environment)
      case "trace":
        let options = try Options.parse(
          arguments, allowed: Options.runFlags + ["--filter"], needsScenario: true,
          output: output)
        try options.validate()
        return try TraceCommand.run(options, output: output)
      case "hooks":
        let options = try Options.parse(
          arguments, allowed: ["--plugin", "--scenario", "--load", "--objc"], positional: false,
          output: output)
        if options.scenarios.count > 1 {
          throw LabError.usage("hooks runs one --scenario", topic: "hooks")
        }
        try options.validate()
        return try HooksCommand.run(options, output: output)
      case "render":
        let options = try Options.parse(
          arguments, allowed: Options.runFlags + ["--out"], needsScenario: true, output: output)
        try options.validate()
        return try RenderCommand.run(options, output: output)
      case "export":
        let options = try Options.parse(
          arguments, allowed: ["--plugin", "--device", "--ios", "--sdk", "--out", "--load"],
          needsScenario: true, output: output)
        try options.validate()
        return try ExportCommand.run(options, output: output)
      case "matrix":
        let options = try Options.parse(
          arguments, allowed: ["--plugin", "--scenario", "--device", "--out", "--load", "--objc"],
          positional: false, output: output)
        try options.validate()
        return try MatrixCommand.run(options, output: output)
      case "methods":
        var arguments = arguments
        let name = arguments.isEmpty || arguments[0].hasPrefix("-") ? nil : arguments.removeFirst()
        let options = try Options.parse(
          arguments, allowed: ["--plugin", "--load", "--objc"], positional: false, output: output)
        try options.validate()
        guard let name else {
          throw LabError.usage(
            "methods takes a CLASS, such as UINavigationController", topic: "methods")
        }
        for plugin in options.plugins where plugin != "none" {
          do { try PluginRegistry.shared.install(named: plugin) } catch {
            throw LabError.failure(error.description)
          }
        }
        return try MethodsCommand.run(className: name, output: output)
      case "learn":
        var rest = arguments
        let name = rest.isEmpty || rest[0].hasPrefix("-") ? nil : rest.removeFirst()
        var html: String?
        while !rest.isEmpty {
          let flag = rest.removeFirst()
          guard flag == "--html", !rest.isEmpty, !rest[0].hasPrefix("-"),
            !rest[0].trimmingCharacters(in: .whitespaces).isEmpty
          else {
            throw LabError.usage(
              flag == "--html" ? "--html takes a FILE" : "unknown option '\(flag)'",
              topic: "learn")
          }
          html = rest.removeFirst()
        }
        return try LearnCommand.run(name: name, html: html, output: output)
      case "coexist":
        return try CoexistCommand.run(arguments, output: output, environment: environment)
      case "shadows":
        if let option = arguments.first(where: { $0.hasPrefix("-") }) {
          throw LabError.usage("unknown option '\(option)'", topic: "shadows")
        }
        return try ShadowsCommand.run(paths: arguments, output: output)
      case "load":
        guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
          throw LabError.usage("load takes one PATH", topic: "load")
        }
        return LoadCommand.run(path: arguments[0], output: output)
      case "compile":
        if let option = arguments.first(where: { $0.hasPrefix("-") }) {
          throw LabError.usage("unknown option '\(option)'", topic: "compile")
        }
        guard !arguments.isEmpty, !arguments.contains(where: \.isEmpty) else {
          throw LabError.usage("compile takes FILE.m...", topic: "compile")
        }
        return CompileCommand.run(files: arguments, output: output)
      default:
        throw LabError.usage("unknown command '\(command)'", topic: "")
      }
    } catch let error as LabError {
      switch error {
      case .usage(let message, let topic):
        output.err(
          wrap("error: \(message)", width: 79).joined(separator: "\n") + "\n\n"
            + Usage.text(for: topic.isEmpty ? command : topic))
        return .usage
      case .failure(let message):
        output.err("error: \(message)\n")
        return .failure
      }
    } catch {
      output.err("error: \(error)\n")
      return .failure
    }
  }

  @MainActor static func listText() -> String {
    let scenarios = ScenarioCatalog.all()
    let plugins = Lab.plugins
    let width = (scenarios.map(\.name) + plugins.map(\.name)).map(\.count).max() ?? 0
    func row(_ name: String, _ text: String) -> [String] {
      let lead = "  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
      return wrap(text, width: 79 - lead.count).enumerated().map { index, line in
        (index == 0 ? lead : String(repeating: " ", count: lead.count)) + line
      }
    }
    var lines = ["SCENARIOS"]
    for scenario in scenarios {
      lines += row(scenario.name, scenario.summary + (scenario.plugin.map { " [\($0)]" } ?? ""))
    }
    if scenarios.isEmpty { lines.append("  (none: no plugin brings any)") }
    lines += ["", "PLUGINS"]
    for plugin in plugins { lines += row(plugin.name, plugin.summary) }
    if plugins.isEmpty { lines.append("  (none found)") }
    lines += ["", "DEVICES"]
    lines += wrap(DeviceProfile.allCases.map(\.rawValue).joined(separator: ", "), width: 77).map {
      "  " + $0
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` broken at spaces into lines of at most `width` characters.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty, current.count + 1 + word.count > width {
        lines.append(current)
        current = ""
      }
      current += (current.isEmpty ? "" : " ") + word
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}

/// A command-line problem.
enum LabError: Error {
  /// A usage error, with the help topic to show.
  case usage(String, topic: String)
  /// A failure while running.
  case failure(String)

  /// The one line the lab prints after `error: `.
  var message: String {
    switch self {
    case .usage(let message, _), .failure(let message): message
    }
  }
}

/// The parsed options of a command.
struct Options {
  static let runFlags = [
    "--plugin", "--device", "--ios", "--sdk", "--speed", "--no-color", "--load", "--objc",
  ]

  var scenario: String?
  /// The plugins named with `--plugin` (a comma-separated list, repeatable); `none` is kept.
  var plugins: [String] = []
  var libraries: [String] = []
  /// The Objective-C files of `--objc`, compiled into one library and loaded after `--load`.
  var objcFiles: [String] = []
  var device: DeviceProfile = .iPhone8
  var systemVersion = "13.0"
  /// The SDK the application was built with (`--sdk`, or a profile such as `15/sdk14`); nil
  /// for the system version's.
  var sdkVersion: String?
  var speed: Double = 0
  var noColor = false
  var filter: String?
  var outDirectory: String?
  /// The scenarios named with `--scenario` (a comma-separated list, repeatable).
  var scenarios: [String] = []
  /// The devices named with `--device`, in order (the last is `device`).
  var devices: [DeviceProfile] = []

  /// Parses `arguments`: options among `allowed` and, when `positional`, at most one SCENARIO;
  /// then loads the libraries of `--load`, writing what they brought to `output`, so that their
  /// plugins and scenarios can be named. Names are checked by ``validate()``. An empty value, a
  /// name given twice and a word the command does not take are refused, each with what is wrong.
  @MainActor static func parse(
    _ arguments: [String], allowed: [String], needsScenario: Bool = false,
    positional: Bool = true, output: LabOutput
  ) throws(LabError) -> Options {
    var options = Options()
    var index = 0
    func value(_ flag: String) throws(LabError) -> String {
      index += 1
      guard index < arguments.count else { throw .usage("\(flag) needs a value", topic: "") }
      guard !arguments[index].trimmingCharacters(in: .whitespaces).isEmpty else {
        throw .usage("\(flag) needs a value, not an empty one", topic: "")
      }
      return arguments[index]
    }
    func once<Name: Equatable>(_ flag: String, _ name: Name, among names: [Name])
      throws(LabError)
    {
      guard !names.contains(name) else {
        throw .usage("\(flag) names '\(name)' twice", topic: "")
      }
    }
    // Options that take one value: a second one is refused rather than silently winning.
    var given: Set<String> = []
    let repeatable: Set<String> = ["--plugin", "--load", "--objc", "--scenario", "--no-color"]
    while index < arguments.count {
      let argument = arguments[index]
      if argument.hasPrefix("-") {
        guard allowed.contains(argument) else {
          throw .usage("unknown option '\(argument)'", topic: "")
        }
        // `matrix` takes several devices; the other commands one.
        let several = argument == "--device" && allowed.contains("--scenario")
        guard repeatable.contains(argument) || several || given.insert(argument).inserted else {
          throw .usage("\(argument) is given twice; give it once", topic: "")
        }
        switch argument {
        case "--no-color": options.noColor = true
        case "--plugin":
          let names = try value(argument).split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
          guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw .usage("--plugin takes NAME or NAME,NAME...", topic: "")
          }
          for name in names {
            try once(argument, name, among: options.plugins)
            options.plugins.append(name)
          }
        case "--load":
          let path = try value(argument)
          try once(argument, path, among: options.libraries)
          options.libraries.append(path)
        case "--objc":
          let path = try value(argument)
          try once(argument, path, among: options.objcFiles)
          options.objcFiles.append(path)
        case "--device":
          let name = try value(argument)
          guard let device = DeviceProfile.named(name) else {
            throw .usage(
              "no device '\(name)'; devices: "
                + DeviceProfile.allCases.map(\.rawValue).joined(separator: ", "), topic: "")
          }
          try once(argument, device.rawValue, among: options.devices.map(\.rawValue))
          options.device = device
          options.devices.append(device)
        case "--scenario":
          let names = try value(argument).split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
          guard !names.contains(where: \.isEmpty) else {
            throw .usage("--scenario takes NAME or NAME,NAME...", topic: "")
          }
          for name in names {
            try once(argument, name, among: options.scenarios)
            options.scenarios.append(name)
          }
        case "--ios":
          // A profile by its name (`15`), or an exact system version (`14.2`); a bare number
          // that names no profile is refused, with the profiles, rather than run as x.0.
          let version = try value(argument)
          let profiles = IOSProfile.matrix.map(\.name).joined(separator: ", ")
          if let profile = IOSProfile.named(version) {
            options.systemVersion = profile.systemVersion
            if let sdk = profile.sdkVersion { options.sdkVersion = sdk }
          } else if !version.contains(".") {
            throw .usage("no iOS profile '\(version)'; profiles: \(profiles)", topic: "")
          } else if UIDevice.isSystemVersion(version) {
            options.systemVersion = version
          } else {
            throw .usage(
              "'\(version)' is neither an iOS profile (\(profiles)) nor a system version such as"
                + " 14.2", topic: "")
          }
        case "--sdk":
          // A major version (`14`, read as 14.0) or an exact one (`14.2`).
          let text = try value(argument)
          let version = text.contains(".") ? text : text + ".0"
          guard UIDevice.isSystemVersion(version) else {
            throw .usage("--sdk takes an SDK version such as 14 or 14.2, not '\(text)'", topic: "")
          }
          options.sdkVersion = version
        case "--speed":
          let text = try value(argument)
          // Waits are real time: a minute between steps is already more than anyone watches.
          guard let speed = Double(text), speed >= 0, speed <= 60 else {
            throw .usage("--speed takes seconds from 0 to 60, such as 0.5", topic: "")
          }
          options.speed = speed
        case "--filter": options.filter = try value(argument)
        case "--out": options.outDirectory = try value(argument)
        default: break
        }
      } else {
        guard positional else {
          throw .usage(
            "unexpected argument '\(argument)': this command takes no SCENARIO", topic: "")
        }
        guard options.scenario == nil else {
          throw .usage("unexpected argument '\(argument)'", topic: "")
        }
        guard !argument.trimmingCharacters(in: .whitespaces).isEmpty else {
          throw .usage("an empty SCENARIO names nothing (see 'swizzle-lab list')", topic: "")
        }
        options.scenario = argument
      }
      index += 1
    }
    if needsScenario, options.scenario == nil {
      throw .usage("a SCENARIO is needed (see 'swizzle-lab list')", topic: "")
    }
    if let sdk = options.sdkVersion, UIDevice.isVersion(sdk, newerThan: options.systemVersion) {
      throw .usage("--sdk \(sdk) is newer than the running iOS \(options.systemVersion)", topic: "")
    }
    for path in options.libraries {
      try LoadCommand.load(path, output: output, reportingTo: output.err)
    }
    if !options.objcFiles.isEmpty {
      try CompileCommand.load(options.objcFiles, output: output, reportingTo: output.err)
    }
    return options
  }

  /// Checks the plugin and scenario names against what discovery found (after `--load`).
  @MainActor func validate() throws(LabError) {
    let known = Lab.plugins.map(\.name)
    for name in plugins where name != "none" && !known.contains(name) {
      throw .usage(
        "no plugin '\(name)'; plugins: \((known + ["none"]).joined(separator: ", "))", topic: "")
    }
    if plugins.contains("none"), plugins.count > 1 {
      throw .usage("--plugin none cannot be combined with other plugins", topic: "")
    }
    if let scenario, ScenarioCatalog.named(scenario) == nil {
      let names = ScenarioCatalog.all().map(\.name)
      throw .usage(
        "no scenario '\(scenario)'; scenarios: "
          + (names.isEmpty ? "none (no plugin brings any)" : names.joined(separator: ", ")),
        topic: "")
    }
  }

  /// The scenario options for the model: the `--plugin` list, or the scenario's own plugin.
  var scenarioOptions: ScenarioOptions {
    var result = ScenarioOptions()
    result.device = device
    result.systemVersion = systemVersion
    result.sdkVersion = sdkVersion
    if !plugins.isEmpty { result.plugins = plugins.filter { $0 != "none" } }
    return result
  }
}
