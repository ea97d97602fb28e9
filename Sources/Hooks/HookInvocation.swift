// What an untyped hook receives: the call, its arguments and return value, and the way on.
import ObjCRuntime

/// One call of a hooked method, as a hook sees it: the receiver, the arguments (by index, or
/// boxed on request), the return value, and, for an `instead` hook, the way to the original.
///
/// It is a view of the call, valid only while the hook runs; nothing is allocated unless you ask
/// for ``arguments``.
public struct HookInvocation {
  /// The raw call: typed hooks read it without checks, having checked the signature once.
  @usableFromInline internal let call: InterceptedCall
  // Unowned: the site is immortal, and the call that made this view reads the snapshot (and
  // with it both lists) until it returns, which keeps them alive (`EpochCell`); copying the view
  // therefore costs no reference counting.
  internal unowned(unsafe) let site: HookSite
  internal let classHooks: BorrowedReference<HookList>
  internal let objectHooks: BorrowedReference<HookList>?
  internal let original: IMP?
  /// How far down the `instead` chain this invocation is: 0 is the outermost hook.
  internal var insteadDepth = 0
  /// The position of the hook that is running.
  public internal(set) var position: HookPosition

  internal init(
    call: InterceptedCall, site: HookSite, classHooks: BorrowedReference<HookList>,
    objectHooks: BorrowedReference<HookList>?, original: IMP?, position: HookPosition
  ) {
    self.call = call
    self.site = site
    self.classHooks = classHooks
    self.objectHooks = objectHooks
    self.original = original
    self.position = position
  }

  /// The object the method was called on, unretained for the duration of the call.
  public var receiver: ObjCObject { call.receiver }

  /// The hooked selector (the `_cmd` the method was called with can differ after an exchange).
  public var selector: Selector { site.selector }

  /// The `_cmd` the method was called with: the hooked selector, unless an exchange renamed the
  /// call on its way here.
  public var calledSelector: Selector { call.selector }

  /// The method, as `-[Class selector]`.
  public var method: MethodReference { site.method }

  /// The method's signature.
  public var signature: MethodSignature { site.signature }

  /// The number of explicit arguments (without `self` and `_cmd`).
  public var argumentCount: Int { signature.numberOfArguments - 2 }

  /// Explicit argument `index` (0 is the first after `self` and `_cmd`) as a `T`; nil when out
  /// of range or when `T` is not laid out as the argument is.
  public func argument<T: ObjCTypeEncodable>(_ index: Int, as type: T.Type = T.self) -> T? {
    call.argument(at: index + 2, as: T.self)
  }

  /// Replaces explicit argument `index` for the hooks and the implementation that run after
  /// this one. Objects are not retained: keep your reference alive for the call. Returns false
  /// when out of range or when `T` does not fit.
  @discardableResult
  public func setArgument<T: ObjCTypeEncodable>(_ value: T, at index: Int) -> Bool {
    call.setArgument(value, at: index + 2)
  }

  /// The explicit arguments, boxed: integers as `Int` or `UInt` (`Bool` for `B`), `Float`,
  /// `Double`, objects as `ObjCObject?`, selectors as `Selector?`, pointers as
  /// `UnsafeRawPointer?`, structs and anything else as their bytes (`[UInt8]`). This allocates;
  /// read single arguments with ``argument(_:as:)`` on a hot path.
  public var arguments: [Any] {
    (0..<argumentCount).map { boxedArgument($0) }
  }

  private func boxedArgument(_ index: Int) -> Any {
    let type = signature.argumentType(at: index + 2) ?? ""
    let code = type.utf8.first(where: { !"rnNoORV".utf8.contains($0) }) ?? 0
    switch code {
    case UInt8(ascii: "B"): return call.uncheckedArgument(at: index + 2, as: Bool.self)
    case UInt8(ascii: "c"): return Int(call.uncheckedArgument(at: index + 2, as: Int8.self))
    case UInt8(ascii: "s"): return Int(call.uncheckedArgument(at: index + 2, as: Int16.self))
    case UInt8(ascii: "i"): return Int(call.uncheckedArgument(at: index + 2, as: Int32.self))
    case UInt8(ascii: "l"), UInt8(ascii: "q"):
      return Int(call.uncheckedArgument(at: index + 2, as: Int64.self))
    case UInt8(ascii: "C"): return UInt(call.uncheckedArgument(at: index + 2, as: UInt8.self))
    case UInt8(ascii: "S"): return UInt(call.uncheckedArgument(at: index + 2, as: UInt16.self))
    case UInt8(ascii: "I"): return UInt(call.uncheckedArgument(at: index + 2, as: UInt32.self))
    case UInt8(ascii: "L"), UInt8(ascii: "Q"):
      return UInt(call.uncheckedArgument(at: index + 2, as: UInt64.self))
    case UInt8(ascii: "f"): return call.uncheckedArgument(at: index + 2, as: Float.self)
    case UInt8(ascii: "d"): return call.uncheckedArgument(at: index + 2, as: Double.self)
    case UInt8(ascii: "@"), UInt8(ascii: "#"):
      return call.uncheckedArgument(at: index + 2, as: ObjCObject?.self) as Any
    case UInt8(ascii: ":"): return call.uncheckedArgument(at: index + 2, as: Selector?.self) as Any
    case UInt8(ascii: "^"), UInt8(ascii: "*"):
      return call.uncheckedArgument(at: index + 2, as: UnsafeRawPointer?.self) as Any
    default:
      let size = signature.argumentDescriptor(at: index + 2)?.size ?? 0
      return call.argumentBytes(at: index + 2, count: size)
    }
  }

  /// The return value as a `T` (in an `after` hook, or in an `instead` hook after
  /// ``invokeOriginal()``); nil when `T` is not laid out as the return type is.
  public func returnValue<T: ObjCTypeEncodable>(as type: T.Type = T.self) -> T? {
    call.returnValue(as: T.self)
  }

  /// Replaces the return value; returns false when `T` does not fit. An object is retained for
  /// the caller, as IMPs return objects.
  @discardableResult
  public func setReturnValue<T: ObjCTypeEncodable>(_ value: T) -> Bool {
    guard signature.returnType(accepts: T.self) else { return false }
    releaseReturnedObject()
    return call.setReturnValue(value)
  }

  /// Drops the reference the return slot holds, if the method returns an object and the slot
  /// holds one, and empties the slot: before the slot is written again, so that a replaced
  /// result does not leak.
  @usableFromInline
  internal func releaseReturnedObject() {
    guard site.returnsObject else { return }
    if let object = call.uncheckedReturnValue(as: UnsafeRawPointer?.self) {
      Unmanaged<AnyObject>.fromOpaque(object).release()
    }
    call.uncheckedSetRawReturnValue(UnsafeRawPointer?.none)
  }

  /// Calls what this `instead` hook replaced: the next `instead` hook, or the original
  /// implementation, with the arguments as they are now (change them first with
  /// ``setArgument(_:at:)``); its return value is then in ``returnValue(as:)``. Not calling it
  /// skips the original. Outside an `instead` hook it does nothing.
  public func invokeOriginal() {
    guard position == .instead else {
      Diagnostics.warn(
        "invokeOriginal() called from a \(position) hook of \(site.method); only instead hooks"
          + " may call it", kind: .hookSkipped, method: site.method)
      return
    }
    var next = self
    next.proceed(from: insteadDepth + 1)
  }

  /// Runs the `instead` hook at `depth` of the chain (per-object hooks outside class-wide ones,
  /// newest outermost), or the original implementation when the chain is done.
  internal mutating func proceed(from depth: Int = 0) {
    insteadDepth = depth
    guard let entry = HookList.insteadEntry(at: depth, classHooks, objectHooks) else {
      releaseReturnedObject()
      // The site is read only when the hooked class inherits the method.
      if let original {
        call.forward(to: original)
      } else {
        call.forward(to: site.originalImplementation(nil))
      }
      return
    }
    // A `once` hook that another call already ran passes on to the next in the chain.
    let ran = BorrowedReference(entry).with { $0.run(self) }
    if !ran { proceed(from: depth + 1) }
  }
}
