#!/usr/bin/env python3
"""Writes the Swift code generated per register shape, three files:

- Sources/ObjCRuntime/Messaging/MessageSend.generated.swift: the typed objc_msgSend overloads;
- Sources/ObjCRuntime/FFI/BlockIMP.generated.swift: the typed imp_implementationWithBlock
  overloads;
- Sources/ObjCRuntime/FFI/RegisterHandlers.generated.swift: the handlers the closure
  trampolines jump to.

A generic parameter cannot appear in a @convention(c) type, so typed sends cannot call an IMP
through one generic function type. Every scalar the runtime passes travels in either a
general-purpose or a floating-point register, so a call with N arguments has 2^N argument shapes
and two result shapes; this script writes one C function type per shape, and a switch that the
optimizer folds to the single case a specialized call needs.

Run it from the package root after changing MAX_ARGUMENTS or the templates, then format:
    python3 Scripts/generate-register-shapes.py
    swift format -i Sources/ObjCRuntime/Messaging/*.generated.swift Sources/ObjCRuntime/FFI/*.generated.swift
.ci/run does exactly that and fails if the files it wrote differ from the committed ones.
"""
import itertools
import pathlib

MAX_ARGUMENTS = 6
OUT = pathlib.Path("Sources/ObjCRuntime/Messaging/MessageSend.generated.swift")

KIND = {"g": ".general", "f": ".floatingPoint"}
C_TYPE = {"g": "UInt64", "f": "Double"}


def call_function(n):
    params = "".join(f", _ k{i}: ObjCRegisterKind, _ b{i}: UInt64" for i in range(n))
    lines = [
        "@inlinable @inline(__always)",
        f"internal func callIMP{n}(",
        f"  _ imp: UnsafeRawPointer, _ receiver: id, _ sel: SEL{params},",
        "  _ returnKind: ObjCRegisterKind",
        ") -> UInt64 {",
    ]
    subject = ", ".join([f"k{i}" for i in range(n)] + ["returnKind"])
    lines.append(f"  switch ({subject}) {{" if n else "  switch returnKind {")
    for shape in itertools.product("gf", repeat=n):
        for result in "gf":
            pattern = ", ".join([KIND[k] for k in shape] + [KIND[result]])
            ctypes = ", ".join(["id", "SEL"] + [C_TYPE[k] for k in shape])
            args = ", ".join(
                ["receiver", "sel"]
                + [f"b{i}" if k == "g" else f"Double(bitPattern: b{i})" for i, k in enumerate(shape)]
            )
            fn = f"unsafeBitCast(imp, to: (@convention(c) ({ctypes}) -> {C_TYPE[result]}).self)"
            value = f"{fn}({args})"
            if result == "f":
                value = f"({value}).bitPattern"
            lines.append(f"  case ({pattern}): return {value}" if n else f"  case {pattern}: return {value}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines)


def generics(n):
    return "".join(f"A{i}: ObjCScalar, " for i in range(n))


def params(n):
    return "".join(f", _ a{i}: A{i}" for i in range(n))


def arg_codes(n):
    if n == 0:
        return "0"
    return " | ".join(f"UInt64(A{i}.objcTypeCode) << {8 * i}" for i in range(n))


def arg_bits(n):
    return "".join(f", A{i}.registerKind, a{i}.registerBits" for i in range(n))


def arg_words(n):
    return "[" + ", ".join(f"a{i}.registerBits" for i in range(n)) + "]"


def arg_names(n):
    return "".join(f", a{i}" for i in range(n))


def plural(n):
    return "no arguments" if n == 0 else ("one argument" if n == 1 else f"{n} arguments")


VARIANTS = [
    # (function head, receiver expression, isa expression, mode, doc)
    dict(
        head="public func objc_msgSend",
        receiver_param="_ receiver: ObjCObject, _ sel: Selector",
        receiver="receiver",
        cls="receiver.isa",
        mode=".send",
        doc="""/// Sends `sel` with {plural} to `receiver`{returns}.
///
/// The typed form of objc4's `objc_msgSend`. The method is looked up from the receiver's isa
/// through its class's cache; a selector with a Swift entry point calls that entry point, so a
/// Swift override is never skipped. The method's encoding must match the call's types (checked
/// with one comparison on a cache hit).
///
/// A selector nothing implements goes through message forwarding: the class's resolver, then
/// `forwardingTarget(for:)`, then `methodSignature(for:)` and `forwardInvocation(_:)`, then
/// `doesNotRecognizeSelector(_:)`.
///
/// - Throws: ``ObjCRuntimeError/unrecognizedSelector(_:)`` when nothing answers `sel`,
///   ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when the method's encoding does not
///   match the call.""",
    ),
    dict(
        head="public func objc_msgSendSuper",
        receiver_param="_ super: ObjCSuper, _ sel: Selector",
        receiver="`super`.receiver",
        cls="`super`.unmanagedSuperclass",
        mode=".table",
        doc="""/// Sends `sel` with {plural} to `super.receiver`, looking the method up from
/// `super.superclass`{returns}.
///
/// The typed form of objc4's `objc_msgSendSuper`, for IMPs that call the implementation they
/// override. The lookup reads method tables only, never Swift entry points, so calling `super`
/// from an IMP cannot re-enter a Swift override.
///
/// - Throws: As `objc_msgSend(_:_:)`.""",
    ),
]


def send_function(variant, n, returns_value):
    result_generic = "R: ObjCScalar" if returns_value else ""
    gen = generics(n) + result_generic
    gen = gen.rstrip(", ")
    gen_clause = f"<{gen}>" if gen else ""
    ret_code = "R.objcTypeCode" if returns_value else 'UInt8(ascii: "v")'
    returns_doc = " and returns its result" if returns_value else ""
    doc = variant["doc"].format(plural=plural(n), returns=returns_doc)
    lines = [doc, "@inlinable"]
    if not returns_value:
        pass
    arrow = " -> R" if returns_value else ""
    lines.append(f"{variant['head']}{gen_clause}(")
    lines.append(f"  {variant['receiver_param']}{params(n)}")
    lines.append(f") throws(ObjCRuntimeError){arrow} {{")
    recv = variant["receiver"]
    lines.append(
        f"  let code = SignatureCode.pack(returning: {ret_code}, arguments: {arg_codes(n)}, count: {n})"
    )
    forward = f"forwardMiss{'' if returns_value else 'Void'}{n}({recv}, sel, code{arg_names(n)})"
    lines.append(f"  guard let imp = try findIMP({recv}, {variant['cls']}, sel, {variant['mode']}, code) else {{")
    lines.append(f"    return try {forward}")
    lines.append("  }")
    rk = "R.registerKind" if returns_value else ".general"
    call = f"callIMP{n}(imp, {recv}.passUnretained(), sel.sel{arg_bits(n)}, {rk})"
    if returns_value:
        lines.append(f"  let bits = {call}")
        lines.append(f"  return try scalarReturn(bits, {recv}, sel, code)")
    else:
        lines.append(f"  _ = {call}")
    lines.append("}")
    return "\n".join(lines)


def table_method(n, returns_value, reference=False):
    """`sendToTable` with a `Selector`, or with a `SelectorReference` whose slot is read inline
    (an unregistered reference takes the out-of-line path, which registers it)."""
    result_generic = "R: ObjCScalar" if returns_value else ""
    gen = (generics(n) + result_generic).rstrip(", ")
    gen_clause = f"<{gen}>" if gen else ""
    ret_code = "R.objcTypeCode" if returns_value else 'UInt8(ascii: "v")'
    arrow = " -> R" if returns_value else ""
    returns_doc = " and returns its result" if returns_value else ""
    if reference:
        doc = [
            f"  /// Calls the method the receiver's method table holds for the referenced selector, with {plural(n)}{returns_doc}.",
            "  ///",
            "  /// The form of `sendToTable(_:)` for selectors kept in a ``SelectorReference``, which",
            "  /// reads in one load where a `static let` of type `Selector` costs a `swift_once`.",
        ]
        parameter = "_ reference: borrowing SelectorReference"
        probe = "if let sel = reference.registeredSelector, let imp = probeIMP(isa, sel, .table, code) {"
        miss_selector = "reference.selector"
    else:
        doc = [
            f"  /// Calls the method the receiver's method table holds for `sel`, with {plural(n)}{returns_doc}.",
            "  ///",
            "  /// This is how a Swift entry point continues into the runtime: the lookup starts at the",
            "  /// receiver's isa and reads method tables only, so swizzles, added methods and per-instance",
            "  /// hooks run, and the entry point itself is not re-entered. Only the cache probe and the call",
            "  /// are inlined into the entry point; a miss continues out of line.",
        ]
        parameter = "_ sel: Selector"
        probe = "if let imp = probeIMP(isa, sel, .table, code) {"
        miss_selector = "sel"
    lines = doc + [
        "  ///",
        "  /// - Throws: As `objc_msgSend(_:_:)`.",
        "  @inlinable @inline(__always)",
        f"  public func sendToTable{gen_clause}({parameter}{params(n)}) throws(ObjCRuntimeError){arrow} {{",
        f"    let code = SignatureCode.pack(returning: {ret_code}, arguments: {arg_codes(n)}, count: {n})",
        f"    {probe}",
    ]
    rk = "R.registerKind" if returns_value else ".general"
    call = f"callIMP{n}(imp, passUnretained(), sel.sel{arg_bits(n)}, {rk})"
    if returns_value:
        lines.append(f"      let bits = {call}")
        lines.append("      return try scalarReturn(bits, self, sel, code)")
    else:
        lines.append(f"      _ = {call}")
        lines.append("      return")
    lines.append("    }")
    lines.append(f"    return try tableMiss{'' if returns_value else 'Void'}{n}(self, {miss_selector}, code{arg_names(n)})")
    lines.append("  }")
    return "\n".join(lines)


def table_reporting_method(n):
    """The non-throwing `sendToTableReportingFailure`, void only: both of its paths end in a call
    in tail position (the IMP, or the out-of-line miss), which the compiler turns into jumps, so
    the entry point calling it needs no frame of its own."""
    gen = generics(n).rstrip(", ")
    gen_clause = f"<{gen}>" if gen else ""
    lines = [
        f"  /// Calls the method the receiver's method table holds for the referenced selector, with {plural(n)};",
        "  /// a failure is reported through ``Diagnostics`` instead of thrown.",
        "  ///",
        "  /// What a Swift entry point of a void method uses (a UIKit-model setter, `loadView`): a",
        "  /// message nothing answers, or an IMP of the wrong signature, is a warning that names",
        "  /// `-[Class selector]`, and the call does nothing. Reading the reference, probing the cache",
        "  /// and calling the IMP is the whole hot path, with no stack frame of its own.",
        "  @inlinable @inline(__always)",
        f"  public func sendToTableReportingFailure{gen_clause}(_ reference: borrowing SelectorReference{params(n)}) {{",
        f"    let code = SignatureCode.pack(returning: UInt8(ascii: \"v\"), arguments: {arg_codes(n)}, count: {n})",
        "    if let sel = reference.registeredSelector, let imp = probeIMP(isa, sel, .table, code) {",
        f"      _ = callIMP{n}(imp, passUnretained(), sel.sel{arg_bits(n)}, .general)",
        "      return",
        "    }",
        f"    tableMissReporting{n}(self, reference, code{arg_names(n)})",
        "  }",
    ]
    return "\n".join(lines)


def table_miss_reporting_function(n):
    gen = generics(n).rstrip(", ")
    gen_clause = f"<{gen}>" if gen else ""
    lines = [
        "@inlinable @inline(never)",
        f"internal func tableMissReporting{n}{gen_clause}(",
        f"  _ receiver: ObjCObject, _ reference: borrowing SelectorReference, _ code: UInt64{params(n)}",
        ") {",
        "  do {",
        f"    try tableMissVoid{n}(receiver, reference.selector, code{arg_names(n)})",
        "  } catch {",
        "    Diagnostics.report(Diagnostic(.failedSend, method: error.method, \"\\(error)\"))",
        "  }",
        "}",
    ]
    return "\n".join(lines)


def table_miss_function(n, returns_value):
    """The out-of-line rest of `sendToTable` after a cache miss: the locked lookup, which fills
    the cache, then the call or forwarding."""
    result_generic = "R: ObjCScalar" if returns_value else ""
    gen = (generics(n) + result_generic).rstrip(", ")
    gen_clause = f"<{gen}>" if gen else ""
    arrow = " -> R" if returns_value else ""
    name = f"tableMiss{'' if returns_value else 'Void'}{n}"
    rk = "R.registerKind" if returns_value else ".general"
    call = f"callIMP{n}(imp, receiver.passUnretained(), sel.sel{arg_bits(n)}, {rk})"
    lines = [
        "@inlinable @inline(never)",
        f"internal func {name}{gen_clause}(",
        f"  _ receiver: ObjCObject, _ sel: Selector, _ code: UInt64{params(n)}",
        f") throws(ObjCRuntimeError){arrow} {{",
        "  guard let imp = try Dispatch.resolve(receiver, receiver.isa, sel, .table, code) else {",
        f"    return try forwardMiss{'' if returns_value else 'Void'}{n}(receiver, sel, code{arg_names(n)})",
        "  }",
    ]
    if returns_value:
        lines.append(f"  let bits = {call}")
        lines.append("  return try scalarReturn(bits, receiver, sel, code)")
    else:
        lines.append(f"  _ = {call}")
    lines.append("}")
    return "\n".join(lines)


def forward_function(n, returns_value):
    """The forwarding slow path, kept out of line: a send that called itself directly could not
    be inlined into its callers."""
    result_generic = "R: ObjCScalar" if returns_value else ""
    gen = (generics(n) + result_generic).rstrip(", ")
    gen_clause = f"<{gen}>" if gen else ""
    arrow = " -> R" if returns_value else ""
    name = f"forwardMiss{'' if returns_value else 'Void'}{n}"
    lines = [
        "@inlinable @inline(never)",
        f"internal func {name}{gen_clause}(",
        f"  _ receiver: ObjCObject, _ sel: Selector, _ code: UInt64{params(n)}",
        f") throws(ObjCRuntimeError){arrow} {{",
        f"  switch try Forwarding.forward(receiver, sel, code, {arg_words(n)}) {{",
        f"  case .resend(let target): return try objc_msgSend(target, sel{arg_names(n)})",
        ("  case .answered(let bits): return try scalarReturn(bits, receiver, sel, code)"
         if returns_value else "  case .answered: return"),
        "  }",
        "}",
    ]
    return "\n".join(lines)


BLOCK_OUT = pathlib.Path("Sources/ObjCRuntime/FFI/BlockIMP.generated.swift")


def block_function(n, returns_value):
    gens = "Receiver: ObjCObject, " + "".join(f"A{i}: ObjCScalar, " for i in range(n))
    gens = (gens + ("R: ObjCScalar" if returns_value else "")).rstrip(", ")
    params = ", ".join(["Receiver"] + [f"A{i}" for i in range(n)])
    result = "R" if returns_value else "Void"
    encoding = ("R.objcTypeEncoding" if returns_value else '"v"') + ' + "@:"' + "".join(
        f" + A{i}.objcTypeEncoding" for i in range(n))
    args = "".join(f", BlockIMPs.argument(arguments, {i + 2}, as: A{i}.self)" for i in range(n))
    lines = [
        f"/// Makes a real C function pointer (an IMP) that runs `block` with the receiver and {plural(n)}"
        + (" and returns its result." if returns_value else "."),
        "///",
        "/// The IMP is a libffi closure with the signature the closure's types imply; add it with",
        "/// `class_addMethod`, exchange it, send to it, or call it from C. A receiver of another class",
        "/// than `Receiver` gets a zero result and a warning. Free it with ``imp_removeBlock(_:)``. The",
        "/// corresponding objc4 function is `imp_implementationWithBlock`.",
        "///",
        "/// - Throws: ``ObjCRuntimeError/invalidImplementation(_:)`` when libffi cannot make the closure.",
        "@inlinable",
        f"public func imp_implementationWithBlock<{gens}>(",
        f"  _ block: @escaping ({params}) -> {result}",
        ") throws(ObjCRuntimeError) -> IMP {",
        f"  let encoding = {encoding}",
        "  return try BlockIMPs.make(encoding: encoding, block: block) { arguments, returnSlot in",
        "    guard let receiver = BlockIMPs.receiver(arguments, as: Receiver.self) else {",
        "      return BlockIMPs.storeZero(returnSlot)",
        "    }",
    ]
    call = f"block(receiver{args})"
    if returns_value:
        lines.append(f"    BlockIMPs.store({call}, into: returnSlot)")
    else:
        lines.append(f"    {call}")
    lines += ["  }", "}"]
    # The register fast path goes first: insert it after the encoding line.
    general = lambda k: " + ".join([f"(A{j}.registerKind == .general ? 1 : 0)" for j in range(k)]) or "0"

    def fast_closure(form):
        if form == "small":
            head = "{ me, i0, i1, d0, d1 in"
            doubles = "d0, d1"
        else:
            head = "{ me, _, i0, i1, i2, d0, d1, d2, d3, d4, d5, d6, d7 in"
            doubles = "d0, d1, d2, d3, d4, d5, d6, d7"
        body = [
            head,
            "      guard let receiver = RegisterClosures.receiver(me, as: Receiver.self, receiverClass)"
            " else {",
            "        return RegisterClosures.wrongReceiver()",
            "      }",
        ]
        for k in range(n):
            body.append(f"      let g{k}: Int = {general(k)}")
            body.append(
                f"      let a{k} = RegisterClosures.value(A{k}.registerKind == .general"
                f" ? RegisterClosures.{'generalSmall(g' + str(k) + ', i0, i1)' if form == 'small' else 'general(g' + str(k) + ', i0, i1, i2)'}"
                f" : RegisterClosures.{'floatingSmall' if form == 'small' else 'floating'}({k} - g{k}, {doubles}), as: A{k}.self)")
        fast_call = "block($0" + "".join(f", a{k}" for k in range(n)) + ")"
        if returns_value:
            body.append(f"      return receiver._withUnsafeGuaranteedRef {{ RegisterClosures.resultBits({fast_call}) }}")
        else:
            body.append(f"      receiver._withUnsafeGuaranteedRef {{ {fast_call} }}")
            body.append("      return 0")
        body.append("    }")
        return body

    floating_result = "R.registerKind == .floatingPoint" if returns_value else "false"
    fast = [
        f"  let generalCount: Int = {general(n)}",
        "  // Captured, so that each call compares with it instead of asking for the metadata.",
        "  let receiverClass: AnyClass = Receiver.self",
    ]
    arguments = [
        "      encoding: encoding, block: block, generalCount: generalCount,",
        f"      floatingCount: {n} - generalCount, floatingResult: {floating_result},",
    ]
    small = ["    RegisterClosures.make("] + arguments + ["      small: "] 
    small[-1] = small[-1] + fast_closure("small")[0]
    small += fast_closure("small")[1:] + ["    )"]
    if n <= 2:
        fast.append("  let registerIMP =")
        fast += small
    else:
        large = ["    RegisterClosures.make("] + arguments + ["      call: "]
        large[-1] = large[-1] + fast_closure("large")[0]
        large += fast_closure("large")[1:] + ["    )"]
        fast.append(f"  let registerIMP = generalCount <= 2 && {n} - generalCount <= 2")
        fast.append("    ?")
        fast += small
        fast.append("    :")
        fast += large
    fast.append("  if let registerIMP { return registerIMP }")
    index = next(i for i, line in enumerate(lines) if line.startswith("  let encoding = "))
    lines[index + 1:index + 1] = fast
    return "\n".join(lines)


def register_handlers():
    """One C handler per register shape: up to three integer-class and eight floating-point
    explicit arguments, the context in the next free integer register, and either result kind."""
    lines = [
        "// The C handlers of register-shape closure IMPs. Generated by",
        "// Scripts/generate-register-shapes.py; edit the script, not this file.",
        "// swift-format-ignore-file",
        "",
        "/// The handlers register-shape stubs jump to, one per shape.",
        "internal enum RegisterHandlers {",
        "  /// The handler for `general` integer-class and `floating` floating-point explicit",
        "  /// arguments, returning in a floating-point register when `floatingResult`.",
    ]
    lines += handler_family("handler", large=False)
    lines += [
        "",
        "  /// The handler for the same shapes that always calls the large form (`_cmd`, three",
        "  /// integer-class and eight floating-point words), for closures that need `_cmd` or",
        "  /// every register even when the shape is small: interceptors.",
    ]
    lines += handler_family("largeHandler", large=True)
    lines += [
        "",
        "  /// The handler for interceptors of shapes without floating-point arguments: it enters",
        "  /// the interceptor's handler with `_cmd` and three integer-class words, no closure between.",
    ]
    lines += handler_family("generalHandler", large=True, general_only=True)
    lines += ["}", ""]
    return "\n".join(lines)


def handler_family(name, large, general_only=False):
    lines = [
        f"  static func {name}(general: Int, floating: Int, floatingResult: Bool) -> UnsafeRawPointer? {{",
        "    switch (general, floating, floatingResult) {",
    ]
    for g in range(4):
        for f in (range(1) if general_only else range(9)):
            for fr in (False, True):
                ints = [f"i{k}" for k in range(g)]
                dbls = [f"d{k}" for k in range(f)]
                params = ", ".join(["id", "SEL"] + ["UInt64"] * g + ["UnsafeRawPointer"] + ["Double"] * f)
                names = ", ".join(["me", "cmd"] + ints + ["context"] + dbls)
                context_type = "RegisterClosure"
                if general_only:
                    arguments = ["me", "cmd", *ints, *(["0"] * (3 - g))]
                    member = "enter"
                    context_type = "RegisterEntry"
                elif g <= 2 and f <= 2 and not large:
                    arguments = ["me", *ints, *(["0"] * (2 - g)), *dbls, *(["0"] * (2 - f))]
                    member = "small"
                else:
                    arguments = ["me", "cmd", *ints, *(["0"] * (3 - g)), *dbls, *(["0"] * (8 - f))]
                    member = "call"
                inner = (f"Unmanaged<{context_type}>.fromOpaque(context)._withUnsafeGuaranteedRef {{ $0."
                         + member + "(" + ", ".join(arguments) + ") }")
                result = "Double" if fr else "UInt64"
                body = f"Double(bitPattern: {inner})" if fr else inner
                lines.append(f"    case ({g}, {f}, {'true' if fr else 'false'}):")
                lines.append(f"      let handler: @convention(c) ({params}) -> {result} = {{ {names} in")
                lines.append(f"        {body}")
                lines.append("      }")
                lines.append("      return unsafeBitCast(handler, to: UnsafeRawPointer.self)")
    lines += ["    default:", "      return nil", "    }", "  }"]
    return lines


def main():
    parts = [
        "// Typed message sends for 0 to %d arguments. Generated by Scripts/generate-register-shapes.py;"
        % MAX_ARGUMENTS,
        "// edit the script, not this file.",
        "// swift-format-ignore-file",
        "",
    ]
    for n in range(MAX_ARGUMENTS + 1):
        parts.append(call_function(n))
        parts.append("")
    for n in range(MAX_ARGUMENTS + 1):
        parts.append(forward_function(n, True))
        parts.append("")
        parts.append(forward_function(n, False))
        parts.append("")
        parts.append(table_miss_function(n, True))
        parts.append("")
        parts.append(table_miss_function(n, False))
        parts.append("")
        parts.append(table_miss_reporting_function(n))
        parts.append("")
    for variant in VARIANTS:
        for n in range(MAX_ARGUMENTS + 1):
            parts.append(send_function(variant, n, True))
            parts.append("")
            parts.append(send_function(variant, n, False))
            parts.append("")
    parts.append("extension ObjCObject {")
    for n in range(MAX_ARGUMENTS + 1):
        parts.append(table_method(n, True))
        parts.append("")
        parts.append(table_method(n, False))
        parts.append("")
        parts.append(table_method(n, True, reference=True))
        parts.append("")
        parts.append(table_method(n, False, reference=True))
        parts.append("")
        parts.append(table_reporting_method(n))
        parts.append("")
    parts[-1] = "}"
    parts.append("")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(parts))
    block_parts = [
        "// imp_implementationWithBlock for 0 to %d arguments. Generated by" % MAX_ARGUMENTS,
        "// Scripts/generate-register-shapes.py; edit the script, not this file.",
        "// swift-format-ignore-file",
        "",
    ]
    for n in range(MAX_ARGUMENTS + 1):
        block_parts.append(block_function(n, True))
        block_parts.append("")
        block_parts.append(block_function(n, False))
        block_parts.append("")
    BLOCK_OUT.write_text("\n".join(block_parts))
    pathlib.Path("Sources/ObjCRuntime/FFI/RegisterHandlers.generated.swift").write_text(
        register_handlers())


if __name__ == "__main__":
    main()
