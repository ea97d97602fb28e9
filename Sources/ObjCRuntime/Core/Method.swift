// Methods: a selector, a type encoding and a swappable IMP, as objc4's method_t.
import Synchronization

/// A method in a class's method list: a selector, its type encoding and its implementation.
///
/// `Method` is a reference, like objc4's `Method` pointer: `class_getInstanceMethod` on a class
/// that inherits a method returns the superclass's own `Method`, and exchanging two methods swaps
/// the implementations of these two objects only. Methods live as long as the process.
public final class Method: @unchecked Sendable, CustomStringConvertible {
  // @unchecked Sendable: `selector`, `typeEncoding`, `signatureCode` and `owner` never change
  // after init; the implementation is an atomic word, written only under the runtime lock and read
  // without one by sends.

  /// The method's selector. The first stored property: the method cache's C side reads it at
  /// a fixed offset (`SWK_METHOD_SELECTOR_OFFSET`).
  public let selector: Selector
  /// The implementation's address, zero when the method has none (objc4's `_objc_msgForward`).
  /// The second stored property, one word after the selector: code outside Swift that calls a
  /// method's current implementation reads it there (``implementationWordAddress``).
  @usableFromInline internal let impWord: Atomic<UInt>
  /// The method's type encoding, verbatim as it was given (`i16@0:8`, `v@:@`).
  public var typeEncoding: String { signature.text }
  /// The parsed encoding.
  internal let signature: ParsedSignature
  /// The encoding reduced to one word for the send path's signature check; zero when the
  /// signature has a type typed sends cannot pass in registers (such as a struct).
  @usableFromInline internal let signatureCode: UInt64
  /// The class whose method list holds the method. A strong reference: a `Method` someone keeps
  /// keeps its class too, even after `objc_disposeClassPair` (which then lets both go).
  public let owner: Class
  /// Whether this is the Swift entry point of a method rather than a method-list entry: a send
  /// that finds one calls a Swift override (or the root's bridge, which sends the message on
  /// through the method tables). Tools that show sends, such as a trace, tell the two apart.
  public let isSwiftEntry: Bool

  internal init(
    selector: Selector, signature: ParsedSignature, imp: IMP?, owner: Class,
    isSwiftEntry: Bool = false
  ) {
    self.selector = selector
    self.impWord = Atomic(Method.word(for: imp))
    self.signature = signature
    self.signatureCode = signature.code
    self.owner = owner
    self.isSwiftEntry = isSwiftEntry
    noteDeallocChange()
  }

  /// Turns on the `dealloc` send in ``ObjCObject``'s deinit the first time any class's `dealloc`
  /// gets an implementation other than the root's empty one, so that objects pay nothing for
  /// `dealloc` until someone hooks or swizzles it.
  internal func noteDeallocChange() {
    guard selector == RootMethods.deallocSelector,
      impWord.load(ordering: .relaxed) != UInt(bitPattern: RootMethods.deallocIMP.rawValue)
    else { return }
    Runtime.deallocIsCustomized.store(true, ordering: .releasing)
  }

  /// The implementation, or nil when the method has none.
  public var implementation: IMP? {
    IMP(word: impWord.load(ordering: .acquiring))
  }

  /// Stores a new implementation; call with the runtime lock held.
  internal func storeImplementation(_ imp: IMP?) {
    Runtime.state.assertHeld()
    impWord.store(Method.word(for: imp), ordering: .releasing)
    noteDeallocChange()
  }

  private static func word(for imp: IMP?) -> UInt {
    guard let imp, imp != IMP.forward else { return 0 }
    return UInt(bitPattern: imp.rawValue)
  }

  /// Whether the method was declared on a metaclass (a class method).
  public var isClassMethod: Bool { owner.isMetaClass }

  /// `-[Class selector]` or `+[Class selector]`.
  public var description: String {
    MethodReference(owner: owner, selector: selector).description
  }

  /// The parsed encoding.
  internal var parsedEncoding: MethodEncoding? {
    signature.encoding
  }
}
