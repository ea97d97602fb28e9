// Swift methods that never run: a method declared in an extension of a runtime class, under a
// name the class's method table has, compiles on Linux and is never called. On iOS the same
// declaration in an `@objc` class extension replaces the class's method (a category override);
// here the runtime sends the selector, which reaches the table, not the Swift method.
//
// The check reads Swift source: Linux has no reflection of a Swift extension's methods.
import ObjCRuntime

/// A Swift method of an extension that shadows a method of the runtime's tables and so is never
/// called by a send of it.
public struct ShadowedMethod: Sendable, Equatable, CustomStringConvertible {
  /// The file the declaration is in, as given.
  public let file: String
  /// Its line, from 1.
  public let line: Int
  /// The extended type, as written (`UINavigationController`).
  public let typeName: String
  /// The Swift name of the member (`navigationBar(_:shouldPop:)`).
  public let swiftName: String
  /// The method of the table it matches: `-[UINavigationController navigationBar:shouldPopItem:]`.
  public let method: String

  /// `Seed.swift:12: UINavigationController.navigationBar(_:shouldPop:) never runs: ...`.
  public var description: String {
    "\(file):\(line): \(typeName).\(swiftName) never runs: sends of \(method) reach the"
      + " runtime's table, not this Swift method; hook or replace the selector instead"
      + " (Docs/Porting.md, section 5)"
  }
}

/// Finds the Swift methods of extensions that shadow methods of the runtime's tables.
public enum ShadowedMethods {
  /// The members of `source`'s extensions of runtime classes whose Swift names match a selector
  /// of the class's table (or its superclasses'), and whose selector the file never names in a
  /// string literal (a file that hooks, exposes or replaces the selector deals with it). Members
  /// marked `@objc`, in a file written for iOS, are in the table under their own name there.
  ///
  /// A Swift name matches a selector as UIKit's names are imported into Swift: the same number
  /// of arguments; the base name (with the first argument label, capitalized, when there is one)
  /// is the selector's first piece, and each further label its piece, or that piece without
  /// the one word Swift leaves out where it repeats a type (`navigationBar(_:shouldPop:)` for
  /// `navigationBar:shouldPopItem:`, `next` for `nextResponder`). Types that are not runtime
  /// classes are skipped; so are initializers and subscripts.
  public static func find(inSource source: String, file: String) -> [ShadowedMethod] {
    let scan = SwiftSourceScan(source)
    var found: [ShadowedMethod] = []
    for member in scan.extensionMembers {
      guard let cls = objc_getClass(member.typeName) else { continue }
      let target = member.isStatic ? cls.metaclass : cls
      var seen: Set<Selector> = []
      var current: Class? = target
      while let owner = current {
        for method in class_copyMethodList(owner) where seen.insert(method.selector).inserted {
          let selector = method.selector.name
          guard !scan.stringLiterals.contains(selector),
            matches(member.baseName, member.labels, selector: selector)
          else { continue }
          found.append(
            ShadowedMethod(
              file: file, line: member.line, typeName: member.typeName,
              swiftName: member.swiftName,
              method: "\(member.isStatic ? "+" : "-")[\(owner.name) \(selector)]"))
        }
        current = owner.superclass
      }
    }
    return found
  }

  /// Whether the Swift name `base(labels...)` is how Swift names `selector`.
  static func matches(_ base: String, _ labels: [String?], selector: String) -> Bool {
    let colons = selector.reduce(0) { $0 + ($1 == ":" ? 1 : 0) }
    guard colons == labels.count, !base.isEmpty else { return false }
    if labels.isEmpty { return begins(selector, with: base) }
    let pieces = selector.split(separator: ":", omittingEmptySubsequences: false).dropLast()
    let first = labels[0].map { base + $0.prefix(1).uppercased() + $0.dropFirst() } ?? base
    guard begins(String(pieces.first ?? ""), with: first) else { return false }
    for (label, piece) in zip(labels.dropFirst(), pieces.dropFirst()) {
      if let label, !begins(String(piece), with: label) { return false }
    }
    return true
  }

  /// Whether `piece` is `word`, or `word` followed by the one word Swift drops when it repeats
  /// the argument's type (`Item` of `shouldPopItem`, `Responder` of `nextResponder`): a capital
  /// and lowercase letters.
  private static func begins(_ piece: String, with word: String) -> Bool {
    guard piece.hasPrefix(word) else { return false }
    let rest = piece.dropFirst(word.count)
    guard let capital = rest.first else { return true }
    return capital.isUppercase && rest.dropFirst().allSatisfy(\.isLowercase)
  }
}

/// What the check reads of Swift source: the members declared in extensions, and the string
/// literals. A small lexer, not a parser: comments and strings are skipped, braces counted.
struct SwiftSourceScan {
  struct Member {
    let typeName: String
    let baseName: String
    /// The external argument labels; nil for `_`.
    let labels: [String?]
    let isStatic: Bool
    let line: Int

    var swiftName: String {
      labels.isEmpty && !isFunction
        ? baseName : "\(baseName)(\(labels.map { ($0 ?? "_") + ":" }.joined()))"
    }
    let isFunction: Bool
  }

  private(set) var extensionMembers: [Member] = []
  private(set) var stringLiterals: Set<String> = []

  private enum Token: Equatable {
    case word(String)
    case symbol(Character)
  }

  init(_ source: String) {
    var tokens: [(Token, Int)] = []
    var line = 1
    var index = source.startIndex
    func peek(_ offset: Int = 0) -> Character? {
      var cursor = index
      for _ in 0..<offset {
        guard cursor < source.endIndex else { return nil }
        cursor = source.index(after: cursor)
      }
      return cursor < source.endIndex ? source[cursor] : nil
    }
    func advance() {
      if source[index] == "\n" { line += 1 }
      index = source.index(after: index)
    }
    while index < source.endIndex {
      let character = source[index]
      if character == "/", peek(1) == "/" {
        while index < source.endIndex, source[index] != "\n" { advance() }
      } else if character == "/", peek(1) == "*" {
        var depth = 0
        repeat {
          if peek() == "/", peek(1) == "*" {
            depth += 1
            advance()
          } else if peek() == "*", peek(1) == "/" {
            depth -= 1
            advance()
          }
          if index < source.endIndex { advance() }
        } while depth > 0 && index < source.endIndex
      } else if character == "\"" {
        let multiline = peek(1) == "\"" && peek(2) == "\""
        advance()
        if multiline {
          advance()
          advance()
        }
        var text = ""
        while index < source.endIndex {
          if source[index] == "\\" {
            advance()
            if index < source.endIndex { advance() }
            continue
          }
          if source[index] == "\"" {
            if !multiline { break }
            if peek(1) == "\"", peek(2) == "\"" {
              advance()
              advance()
              break
            }
          }
          if !multiline, source[index] == "\n" { break }
          text.append(source[index])
          advance()
        }
        if index < source.endIndex { advance() }
        stringLiterals.insert(text)
      } else if character.isLetter || character == "_" {
        var word = ""
        let start = line
        while index < source.endIndex,
          source[index].isLetter || source[index].isNumber
            || source[index] == "_"
        {
          word.append(source[index])
          advance()
        }
        tokens.append((.word(word), start))
      } else if character == "`" {
        advance()
      } else {
        if !character.isWhitespace { tokens.append((.symbol(character), line)) }
        advance()
      }
    }
    extensionMembers = SwiftSourceScan.members(of: tokens)
  }

  /// The functions and properties declared directly in each extension's body.
  private static func members(of tokens: [(Token, Int)]) -> [Member] {
    var members: [Member] = []
    var depth = 0
    // The extended type of each open extension body, by the depth of its brace.
    var extensions: [Int: String] = [:]
    var pendingExtension: String?
    var index = 0
    while index < tokens.count {
      let (token, line) = tokens[index]
      switch token {
      case .symbol("{"):
        depth += 1
        if let name = pendingExtension {
          extensions[depth] = name
          pendingExtension = nil
        }
      case .symbol("}"):
        extensions[depth] = nil
        depth = max(0, depth - 1)
      case .word("extension"):
        if case .word(let name)? = tokens[safe: index + 1]?.0 {
          // `extension Outer.Inner`: the last component names the runtime class.
          var full = name
          var next = index + 2
          while tokens[safe: next]?.0 == .symbol("."),
            case .word(let part)? = tokens[safe: next + 1]?.0
          {
            full = part
            next += 2
          }
          pendingExtension = full
        }
      case .word(let keyword) where keyword == "func" || keyword == "var":
        guard let typeName = extensions[depth], case .word(let name)? = tokens[safe: index + 1]?.0
        else { break }
        // The modifiers before the keyword, back to the end of the previous declaration.
        var modifiers: [String] = []
        var back = index - 1
        while back >= 0, index - back <= 6, case .word(let word) = tokens[back].0 {
          modifiers.append(word)
          back -= 1
          if tokens[safe: back]?.0 == .symbol("@") { back -= 1 }
        }
        let isStatic = modifiers.contains("static") || modifiers.contains("class")
        // `@objc` (in a file written for iOS) puts the method in the table under its own name:
        // it runs.
        if modifiers.contains("objc") { break }
        if keyword == "var" {
          members.append(
            Member(
              typeName: typeName, baseName: name, labels: [], isStatic: isStatic, line: line,
              isFunction: false))
        } else if let labels = labels(in: tokens, from: index + 2) {
          members.append(
            Member(
              typeName: typeName, baseName: name, labels: labels, isStatic: isStatic, line: line,
              isFunction: true))
        }
      default:
        break
      }
      index += 1
    }
    return members
  }

  /// The external labels of the parameter list that starts at `start` (after any generic
  /// parameters): the first word of each parameter before its colon.
  private static func labels(in tokens: [(Token, Int)], from start: Int) -> [String?]? {
    var index = start
    if tokens[safe: index]?.0 == .symbol("<") {
      var angle = 0
      repeat {
        if tokens[safe: index]?.0 == .symbol("<") { angle += 1 }
        if tokens[safe: index]?.0 == .symbol(">") { angle -= 1 }
        index += 1
      } while angle > 0 && index < tokens.count
    }
    guard tokens[safe: index]?.0 == .symbol("(") else { return nil }
    index += 1
    var labels: [String?] = []
    var nesting = 0
    var words: [String] = []
    var sawColon = false
    while index < tokens.count {
      let token = tokens[index].0
      if nesting == 0, token == .symbol(")") || token == .symbol(",") {
        if sawColon, let first = words.first { labels.append(first == "_" ? nil : first) }
        (words, sawColon) = ([], false)
        if token == .symbol(")") { return labels }
      } else if token == .symbol("(") || token == .symbol("[") || token == .symbol("<") {
        nesting += 1
      } else if token == .symbol(")") || token == .symbol("]") || token == .symbol(">") {
        nesting -= 1
      } else if nesting == 0, !sawColon {
        if token == .symbol(":") {
          sawColon = true
        } else if case .word(let word) = token {
          words.append(word)
        }
      }
      index += 1
    }
    return nil
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
