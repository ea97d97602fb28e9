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
  /// A method's Swift name matches a selector as UIKit's methods are imported into Swift: the
  /// same number of arguments; the base name (with the first argument label, capitalized, when
  /// there is one) is the selector's first piece and each further label its piece, or that
  /// piece without the word Swift leaves out where it repeats the argument's type
  /// (`navigationBar(_:shouldPop:)` with a `UINavigationItem` for
  /// `navigationBar:shouldPopItem:`). A property matches its getter's selector exactly, or the
  /// one UIKit renames (`next` for `nextResponder`). Types that are not runtime classes are
  /// skipped; so are initializers and subscripts.
  public static func find(inSource source: String, file: String) -> [ShadowedMethod] {
    find(inSources: [(source, file)])
  }

  /// The same for several files read together: a selector named in a string literal of any of
  /// them (where a shared file exposes or hooks it) is dealt with.
  public static func find(inSources sources: [(source: String, file: String)]) -> [ShadowedMethod] {
    let scans = sources.map { (scan: SwiftSourceScan($0.source), file: $0.file) }
    let literals = scans.reduce(into: Set<String>()) { $0.formUnion($1.scan.stringLiterals) }
    var found: [ShadowedMethod] = []
    for (scan, file) in scans {
      for member in scan.extensionMembers {
        guard let cls = objc_getClass(member.typeName) else { continue }
        var seen: Set<Selector> = []
        var current: Class? = member.isStatic ? cls.metaclass : cls
        // A class method is looked up in the metaclasses only (the root metaclass's
        // superclass is the root class, whose instance methods are no class methods).
        while let owner = current, owner.isMetaClass == member.isStatic {
          for method in class_copyMethodList(owner) where seen.insert(method.selector).inserted {
            let selector = method.selector.name
            guard !literals.contains(selector), matches(member, selector: selector) else {
              continue
            }
            found.append(
              ShadowedMethod(
                file: file, line: member.line, typeName: member.typeName,
                swiftName: member.swiftName,
                method: "\(member.isStatic ? "+" : "-")[\(owner.name) \(selector)]"))
          }
          current = owner.superclass
        }
      }
    }
    return found
  }

  /// UIKit's getters that Swift knows by another name.
  private static let renamedGetters = ["next": "nextResponder"]

  /// Whether `member` is how Swift names `selector`.
  static func matches(_ member: SwiftSourceScan.Member, selector: String) -> Bool {
    guard member.isFunction else {
      return selector == member.baseName || renamedGetters[member.baseName] == selector
    }
    return matches(member.baseName, member.parameters, selector: selector)
  }

  /// Whether the Swift method `base(labels...)`, with parameters of these types, is how Swift
  /// names `selector`.
  static func matches(
    _ base: String, _ parameters: [SwiftSourceScan.Parameter], selector: String
  ) -> Bool {
    let colons = selector.reduce(0) { $0 + ($1 == ":" ? 1 : 0) }
    guard colons == parameters.count, !base.isEmpty else { return false }
    if parameters.isEmpty { return selector == base }
    let pieces = selector.split(separator: ":", omittingEmptySubsequences: false).dropLast()
    let head = parameters[0].label.map { base + $0.prefix(1).uppercased() + $0.dropFirst() } ?? base
    guard piece(String(pieces.first ?? ""), is: head, of: parameters[0].type) else { return false }
    for (parameter, piece) in zip(parameters.dropFirst(), pieces.dropFirst()) {
      if let label = parameter.label, !self.piece(String(piece), is: label, of: parameter.type) {
        return false
      }
    }
    return true
  }

  /// Whether a selector's `piece` is `word`, or `word` and the word Swift leaves out because it
  /// repeats the argument's type: `Item` of `shouldPopItem` for a `UINavigationItem`, `Object`
  /// for an `Any` or an object.
  private static func piece(_ piece: String, is word: String, of type: String?) -> Bool {
    guard piece.hasPrefix(word) else { return false }
    let dropped = piece.dropFirst(word.count)
    guard let capital = dropped.first else { return true }
    guard capital.isUppercase, let type else { return false }
    if dropped == "Object" {
      return type == "Any" || type == "AnyObject" || type.hasSuffix("Object")
    }
    return type.hasSuffix(dropped)
  }
}

/// What the check reads of Swift source: the members declared in extensions, and the string
/// literals. A small lexer, not a parser: comments and strings are skipped, braces counted.
struct SwiftSourceScan {
  /// A parameter of a method: its external label (nil for `_`) and the name of its type (the
  /// type's first name, `UINavigationItem` of `UINavigationItem?`; nil for a function type).
  struct Parameter {
    let label: String?
    let type: String?
  }

  struct Member {
    let typeName: String
    let baseName: String
    let parameters: [Parameter]
    let isStatic: Bool
    let line: Int
    let isFunction: Bool

    var swiftName: String {
      isFunction
        ? "\(baseName)(\(parameters.map { ($0.label ?? "_") + ":" }.joined()))" : baseName
    }
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
      // `\r\n` is one Character, a newline like `\n`.
      if source[index].isNewline { line += 1 }
      index = source.index(after: index)
    }
    while index < source.endIndex {
      let character = source[index]
      if character == "/", peek(1) == "/" {
        while index < source.endIndex, !source[index].isNewline { advance() }
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
          if !multiline, source[index].isNewline { break }
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
      } else if character == "-", peek(1) == ">" {
        // `->` is one token: its `>` closes no `<`.
        tokens.append((.symbol("→"), line))
        advance()
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
              typeName: typeName, baseName: name, parameters: [], isStatic: isStatic, line: line,
              isFunction: false))
        } else if let parameters = parameters(in: tokens, from: index + 2) {
          members.append(
            Member(
              typeName: typeName, baseName: name, parameters: parameters, isStatic: isStatic,
              line: line, isFunction: true))
        }
      default:
        break
      }
      index += 1
    }
    return members
  }

  /// The parameters of the list that starts at `start` (after any generic parameters): the
  /// first word of each before its colon, and the first name of its type.
  private static func parameters(in tokens: [(Token, Int)], from start: Int) -> [Parameter]? {
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
    var parameters: [Parameter] = []
    var nesting = 0
    var names: [String] = []
    var type: String?
    var sawColon = false
    var sawTypeStart = false
    let modifiers: Set<String> = [
      "inout", "some", "any", "borrowing", "consuming", "sending", "escaping", "autoclosure",
      "Sendable",
    ]
    while index < tokens.count {
      let token = tokens[index].0
      if nesting == 0, token == .symbol(")") || token == .symbol(",") {
        if sawColon, let first = names.first {
          parameters.append(Parameter(label: first == "_" ? nil : first, type: type))
        }
        (names, type, sawColon, sawTypeStart) = ([], nil, false, false)
        if token == .symbol(")") { return parameters }
      } else if token == .symbol("(") || token == .symbol("[") || token == .symbol("<") {
        // A function, array, dictionary or generic type: its first name is no type name.
        if sawColon, !sawTypeStart { sawTypeStart = true }
        nesting += 1
      } else if token == .symbol(")") || token == .symbol("]") || token == .symbol(">") {
        nesting -= 1
      } else if nesting == 0 {
        if !sawColon {
          if token == .symbol(":") {
            sawColon = true
          } else if case .word(let word) = token {
            names.append(word)
          }
        } else if !sawTypeStart, case .word(let word) = token, !modifiers.contains(word) {
          type = word
          sawTypeStart = true
        } else if type != nil, token == .symbol("."),
          case .word(let member)? = tokens[safe: index + 1]?.0
        {
          // `Outer.Inner`: the last component names the type.
          type = member
          index += 1
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
