#!/usr/bin/env python3
"""Writes Sources/Hooks/Hook+Arity.generated.swift: the typed hook forms (before, after and
instead; class-wide, per object and class methods) again at one to MAX_ARITY arguments, with
bodies that read the arguments without a parameter pack. Swift 6.3 specializes a typed hook's
wrapper for its types but not a pack's expansion, which cost each hook of a method with
arguments about 50 instructions a call; the compiler prefers these overloads to the variadic
forms wherever both fit. Run from the package's root."""
import pathlib

MAX_ARITY = 3
OUT = pathlib.Path("Sources/Hooks/Hook+Arity.generated.swift")
NUMBERS = ["no", "one", "two", "three", "four", "five", "six"]
WORDS = {n: "%s argument%s" % (NUMBERS[n], "" if n == 1 else "s") for n in range(1, MAX_ARITY + 1)}


def generics(n, extra=""):
    names = ", ".join("A%d: ObjCTypeEncodable" % i for i in range(n))
    return "<%s%s>" % (names, extra)


def types(n):
    return ", ".join("A%d" % i for i in range(n))


def pack_tuple(n):
    return "A0" if n == 1 else "(%s)" % types(n)


def reads(n, call):
    return ", ".join(
        "%s.uncheckedEncodableArgument(at: %d, as: A%d.self)" % (call, i + 2, i) for i in range(n))


def observer_builder(n):
    def entry(label, checks):
        return (
            "        %s: { call in\n"
            "          Self.runObserver(call, %s) { body($0, %s) }\n"
            "        }" % (label, checks, reads(n, "call")))

    def body(checks, indent):
        return (
            "%sreturn HookBody(\n%s,\n%s,\n        readsFixedArity: true)" % (
                indent, entry("frame", checks), entry("registers", checks)))

    return "\n".join([
        "  /// A body for `before` and observing `after` hooks of %s, the hook's own types." % WORDS[n],
        "  @inlinable @inline(never)",
        "  func fixedArityObserver%s(" % generics(n),
        "    _ body: @escaping @Sendable (Receiver, %s) -> Void" % types(n),
        "  ) -> HookBody {",
        "    assert((repeat each Arg).self == %s.self, \"a fixed-arity body of other types\")" % pack_tuple(n),
        "    // Without object arguments to check (the common case), a body that does not look.",
        "    guard let checks = checksIfAny else {",
        body("nil", "      "),
        "    }",
        body("checks", "    "),
        "  }",
    ])


def replacement_builder(n):
    def frame(checks):
        return (
            "        frame: { call in\n"
            "          withUnsafePointer(to: call) { invocation in\n"
            "            Self.runReplacement(call, %s) {\n"
            "              body(HookOriginal(invocation), $0, %s)\n"
            "            }\n"
            "          }\n"
            "        }" % (checks, reads(n, "call")))

    def registers(checks):
        return (
            "        registers: { call in\n"
            "          Self.runReplacement(call, %s) { body(HookOriginal(call), $0, %s) }\n"
            "        }" % (checks, reads(n, "call")))

    def body(checks, indent):
        return "%sreturn HookBody(\n%s,\n%s,\n        readsFixedArity: true)" % (
            indent, frame(checks), registers(checks))

    return "\n".join([
        "  /// A body for `instead` hooks of %s, the hook's own types." % WORDS[n],
        "  @inlinable @inline(never)",
        "  func fixedArityReplacement%s(" % generics(n, ", Result"),
        "    _ body: @escaping @Sendable (HookOriginal<Result, %s>, Receiver, %s) -> Result" % (
            types(n), types(n)),
        "  ) -> HookBody {",
        "    assert((repeat each Arg).self == %s.self, \"a fixed-arity body of other types\")" % pack_tuple(n),
        "    guard let checks = checksIfAny else {",
        body("nil", "      "),
        "    }",
        body("checks", "    "),
        "  }",
    ])


# (function name, receiver type, install target, whether it takes `in cls:`, the variadic form)
SCOPES = [
    ("static func hook", "Self", "on: .instances(try instancesClass(cls))", True,
     "hook(%s:in:options:_:)"),
    ("func hook", "Self", "on: .object(self)", False, "hook(%s:options:_:)"),
    ("static func hookClassMethod", "Class", "on: .instances(runtimeClass.metaclass)", False,
     "hookClassMethod(%s:options:_:)"),
]


def public_form(scope, position, n):
    name, receiver, target, takes_class, variadic = scope
    in_class = " in cls: Class? = nil," if takes_class else ""
    if position == "instead":
        closure = "(HookOriginal<Result, %s>, %s, %s) -> Result" % (types(n), receiver, types(n))
        gen = generics(n, ", Result")
        check = "typed.check(result: Result.self)"
        builder = "typed.fixedArityReplacement(body)"
    else:
        closure = "(%s, %s) -> Void" % (receiver, types(n))
        gen = generics(n)
        check = "typed.check(result: nil)"
        builder = "typed.fixedArityObserver(body)"
    return "\n".join([
        "  /// The fixed-arity form of `%s`, for a method of %s: the same hook,"
        % (variadic % position, WORDS[n]),
        "  /// whose body reads the arguments with their own types, without a parameter pack.",
        "  @inlinable @discardableResult",
        "  public %s%s(" % (name, gen),
        "    %s selector: Selector,%s options: HookOptions = []," % (position, in_class),
        "    _ body: @escaping @Sendable %s" % closure,
        "  ) throws(HookError) -> HookToken {",
        "    let typed = TypedHook<%s, %s>(selector)" % (receiver, types(n)),
        "    return try HookInstaller.install(",
        "      %s, selector, .%s, options, check: %s," % (target, position, check),
        "      body: %s)" % builder,
        "  }",
    ])


def main():
    parts = [
        "// The typed hooks at one to %s. Generated by Scripts/generate-hook-arities.py;"
        % WORDS[MAX_ARITY],
        "// edit the script, not this file.",
        "//",
        "// Swift 6.3 specializes a typed hook's wrapper for its types but not a parameter pack's",
        "// expansion: reading a call's arguments through the pack cost each hook of a method with",
        "// arguments about 50 instructions a call (each argument read through its conformance's",
        "// witness, the pack laid out on the stack, a thunk before the user's closure). These",
        "// overloads read each argument with its own type, and the compiler prefers them wherever",
        "// both fit. An `instead` hook's `original(...)` still writes its arguments through the pack.",
        "// swift-format-ignore-file",
        "import ObjCRuntime",
        "",
        "extension TypedHook {",
    ]
    for n in range(1, MAX_ARITY + 1):
        parts.append(observer_builder(n))
        parts.append("")
        parts.append(replacement_builder(n))
        parts.append("")
    parts[-1] = "}"
    parts.append("")
    parts.append("extension Hookable {")
    for scope in SCOPES:
        for position in ("before", "after", "instead"):
            for n in range(1, MAX_ARITY + 1):
                parts.append(public_form(scope, position, n))
                parts.append("")
    parts[-1] = "}"
    parts.append("")
    OUT.write_text("\n".join(parts))


if __name__ == "__main__":
    main()
