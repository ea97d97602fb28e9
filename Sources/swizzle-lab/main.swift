// swizzle-lab: run a navigation-bar scenario on the UIKit model, watch the bar, trace the swizzles.
import Foundation
import SwizzleLab

/// Standard output and error, with whether standard output is a terminal.
final class StandardOutput: LabOutput {
  let isTerminal = isatty(STDOUT_FILENO) != 0
  func out(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
  func err(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}

let code = Lab.main(
  Array(CommandLine.arguments.dropFirst()), output: StandardOutput(),
  environment: ProcessInfo.processInfo.environment)
exit(code.rawValue)
