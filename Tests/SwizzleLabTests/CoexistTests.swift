// `swizzle-lab coexist`: cells run in this process (the ones that do not crash; the matrix and its
// crashing cells run in child processes in .ci/run, against Golden/coexist.txt), the verdicts read
// from runs, and the command line's bad input.
import Foundation
import ObjCRuntime
import SwizzleKitTesting
import Testing

@testable import SwizzleLab

/// The steps (not the events) of `cell` run here, its classes named with a prefix of their own.
private func steps(
  _ first: String, _ second: String, subclass: Bool = false, revertSecondFirst: Bool = false,
  method: CoexistenceMethod = .setTag
) throws -> [String] {
  let cell = CoexistenceCell(
    first: first, second: second, subclass: subclass, revertsSecondFirst: revertSecondFirst)
  var lines: [String] = []
  let prefix = "Coexist\(UUID().uuidString.prefix(8))"
  try CoexistenceRunner.run(cell, method: method, prefix: prefix) { lines.append($0) }
  return lines.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("setup") }
}

@MainActor private func coexist(_ arguments: [String]) -> (LabExit, CapturedOutput) {
  let output = CapturedOutput()
  return (Lab.main(["coexist"] + arguments, output: output, environment: [:]), output)
}

// The cells change the runtime's tables (classes made, hooks, exchanges): they take the model's
// turn so that no test that counts hooks runs meanwhile.
@MainActor
@Suite("swizzle-lab coexist", .uiKitModel)
struct CoexistTests {
  @Test(
    "a hook and key-value observing: both run once with the method's _cmd, either revert leaves the other"
  )
  func hookAndObserver() throws {
    #expect(
      try steps("hook", "kvo") == [
        "install hook: ok", "install kvo: ok",
        "call: hook > original > kvo",
        "revert hook: ok", "call: original > kvo",
        "revert kvo: ok", "call: original",
      ])
    #expect(
      try steps("hook", "kvo", revertSecondFirst: true).suffix(4) == [
        "revert kvo: ok", "call: hook > original",
        "revert hook: ok", "call: original",
      ])
  }

  @Test("an exchange renames _cmd for what runs under it; a hook on top keeps the method's")
  func exchangeRenamesCmd() throws {
    let lines = try steps("exchange", "hook", method: .setText)
    #expect(lines.contains("call: hook > exchange > original[exchange_setText:]"))
  }

  @Test("the direct override reverted after an exchange's revert loops: the lab stops the loop")
  func overrideRevertLoops() throws {
    let lines = try steps("exchange", "override")
    #expect(lines.contains("call: override > exchange > original[exchange_setTag:]"))
    let last = try #require(lines.last)
    #expect(last.hasPrefix("call: exchange > override[exchange_setTag:] > exchange"))
    #expect(last.hasSuffix("… > (loop)"))
  }

  @Test("SwizzleKit's hook on a method Aspects sends into forwarding: the call forwards to Aspects")
  func hookOnTopOfAspects() throws {
    let lines = try steps("aspects", "hook", revertSecondFirst: true)
    #expect(
      lines == [
        "install aspects: ok", "install hook: ok",
        "call: hook > aspects > original[aspects__setTag:]",
        "revert hook: ok", "call: aspects > original[aspects__setTag:]",
        "revert aspects: ok", "call: original",
      ])
  }

  @Test("Aspects hooks a selector once per class hierarchy, as its tracker refuses")
  func aspectsOncePerHierarchy() throws {
    let lines = try steps("aspects", "aspects", subclass: true)
    #expect(lines[1].hasPrefix("install Sub.aspects: refused: Aspects: setTag: already hooked in"))
    #expect(lines[2] == "call: Base.aspects > original[aspects__setTag:]")
  }

  @Test(
    "RSSwizzle's lookup on a subclass reaches the superclass's hook through its call-time lookup")
  func callTimeLookupOnSubclass() throws {
    let lines = try steps("hook", "lookup", subclass: true)
    #expect(lines.contains("call: Sub.lookup > Base.hook > original"))
    #expect(lines.contains("call base: Base.hook > original"))
    #expect(lines.contains("revert Sub.lookup: none (RSSwizzle offers no unswizzle)"))
  }

  @Test("verdicts: a crash, a revert that undoes the other layer, one that stays, a leak")
  func verdicts() {
    let cell = CoexistenceCell(
      first: "exchange", second: "hook", subclass: false, revertsSecondFirst: false)
    let other = CoexistenceCell(
      first: "exchange", second: "hook", subclass: false, revertsSecondFirst: true)
    func run(_ cell: CoexistenceCell, _ lines: [String], crash: String? = nil) -> CellRun {
      CellRun(cell: cell, lines: lines, crash: crash)
    }
    let clean = [
      "install exchange: ok", "install hook: ok", "call: hook > exchange > original",
    ]
    let undone = PairVerdict([
      run(cell, clean + ["revert exchange: ok", "call: original"]),
      run(other, clean + ["revert hook: ok", "call: exchange > original"]),
    ])
    #expect(undone.call == "both" && undone.revert == "undoes")
    let stays = PairVerdict([
      run(cell, clean + ["revert exchange: ok", "call: hook > exchange > original"]),
      run(other, clean),
    ])
    #expect(stays.revert == "stays")
    let crashed = PairVerdict([run(cell, Array(clean.prefix(2)), crash: "trap"), run(other, [])])
    #expect(crashed.call == "crash")
    #expect(PairVerdict.callVerdict(["Sub.x", "original"], expected: []) == "leak")
    #expect(
      PairVerdict.callVerdict(["exchange", "original[exchange_setTag:]"], expected: ["exchange"])
        == "_cmd")
    #expect(PairVerdict.callVerdict(["a", "a", "original"], expected: ["a"]) == "twice")
    #expect(PairVerdict.callVerdict(["a", "…", "(loop)"], expected: ["a"]) == "loop")
  }

  @Test("the matrix runs its cells in child processes of swizzle-lab, never of a test runner")
  func matrixNeedsTheLab() {
    let (code, output) = coexist([])
    #expect(code == .failure)
    #expect(output.standardError.contains("name it in SWIZZLEKIT_LAB_EXECUTABLE"))
    #expect(output.standardOutput.isEmpty)
  }

  @Test("bad input exits 64 with a line that says what to do")
  func badInput() {
    for (arguments, message) in [
      (["setFrame:"], "no method 'setFrame:'; methods: setTag:, setText:"),
      (["--technique", "swizzle"], "no technique 'swizzle'; techniques: exchange, safe"),
      (["--technique", "hook"], "--technique names at least two techniques"),
      (["--cell", "hook"], "--cell takes two techniques, FIRST,SECOND"),
      (["--subclass"], "--subclass and --revert go with --cell"),
      (["--revert", "first"], "--subclass and --revert go with --cell"),
      (["--cell", "hook,hook"], "hook with itself needs --subclass"),
      (["--cell", "hook,kvo", "--subclass"], "kvo must both be class-wide"),
      (["--cell", "hook,kvo", "--html", "x.html"], "runs one cell; --html and --technique"),
      (["--cell", "hook,kvo", "--revert", "both"], "--revert takes first or second"),
      (["--html"], "--html takes a value"),
      (["--wat"], "unknown option '--wat'"),
    ] {
      let (code, output) = coexist(arguments)
      #expect(code == .usage, "\(arguments)")
      let error = output.standardError.replacingOccurrences(of: "\n", with: " ")
      #expect(error.contains(message), "\(arguments): \(output.standardError)")
    }
  }
}
