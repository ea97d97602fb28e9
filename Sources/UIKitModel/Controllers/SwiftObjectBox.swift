// A Swift object that is not an object of the runtime, boxed to travel through it.
public import ObjCRuntime

/// A Swift object that is not an object of the runtime (a plain Swift class), boxed so that it
/// can travel as an `id` argument or result: a delegate set with `setDelegate:`, an animator a
/// delegate returns through the runtime. The box holds it for as long as the box lives (the call
/// it travels in); the receiver stores what is inside (a navigation controller holds its
/// delegate weakly, as in UIKit).
///
/// A hook of `setDelegate:` gets the box: ``unwrap(_:)`` gives the object either way. Each
/// ``wrap(_:)`` makes a new box, so compare what boxes hold, not the boxes.
public final class SwiftObjectBox: ObjCObject {
  /// The object inside.
  public let object: AnyObject

  /// A box around `object`.
  public init(_ object: AnyObject) {
    self.object = object
    super.init()
  }

  /// `object` as it can travel through the runtime: itself if it is an object of the runtime,
  /// else in a box.
  public static func wrap(_ object: AnyObject) -> ObjCObject {
    object as? ObjCObject ?? SwiftObjectBox(object)
  }

  /// The object `argument` stands for: what a box holds, else the argument itself.
  public static func unwrap(_ argument: ObjCObject?) -> AnyObject? {
    guard let argument else { return nil }
    return (argument as? SwiftObjectBox)?.object ?? argument
  }
}
