// CADisplayLink: a 60 Hz tick on the virtual clock that calls its target through the runtime.
public import Foundation
public import ObjCRuntime

/// A timer tied to the display's frames, as Core Animation's: once added to a run loop it calls
/// `selector` on `target` at every frame (60 per second of virtual time), passing itself when
/// the selector takes an argument.
///
/// The call goes through the runtime (`objc_msgSend`), so a selector added at run time, a
/// swizzled one or a hooked one works, as WRNavigationBar's `wr_displayLinkTick:` needs. Like
/// Core Animation's, the link retains its target until it is invalidated.
@preconcurrency @MainActor
public final class CADisplayLink: ObjCObject {
  /// The object called at each frame (strongly held, as in Core Animation).
  public private(set) var target: ObjCObject?
  /// The selector called.
  public let selector: Selector
  /// The time of the frame the last call was for.
  public private(set) var timestamp: TimeInterval = 0
  /// The time of the next frame the link will be called for.
  public private(set) var targetTimestamp: TimeInterval = 0
  /// Whether calls are suspended.
  public var isPaused = false
  /// Whether the link calls its target at frames: not paused, and not invalidated.
  var isRunning: Bool { !isPaused && target != nil }
  /// The frame rate the link asks for; 0 means every frame (60 per second).
  public var preferredFramesPerSecond = 0
  private var modes: Set<VirtualRunLoop.Mode> = []
  private var isAdded = false

  /// A link that will call `selector` on `target`.
  public init(target: ObjCObject, selector: Selector) {
    self.target = target
    self.selector = selector
    super.init()
  }

  /// The time between two frames: 1/60 s.
  public var duration: TimeInterval { VirtualRunLoop.frameDuration }

  private var stride: Int {
    preferredFramesPerSecond <= 0 ? 1 : max(1, 60 / min(60, preferredFramesPerSecond))
  }

  /// Starts calling the target at every frame in which `runLoop` runs in `mode`. Adding the same
  /// link to a second mode extends it; adding it twice for the same mode is refused with
  /// ``UIKitModelIssue/displayLinkAddedTwice(_:)``.
  public func add(to runLoop: VirtualRunLoop, forMode mode: VirtualRunLoop.Mode) {
    guard target != nil else { return }
    guard modes.insert(mode).inserted else {
      UIKitModelIssues.report(.displayLinkAddedTwice(description))
      return
    }
    if !isAdded {
      isAdded = true
      runLoop.displayLinks.append(self)
      targetTimestamp =
        Double(runLoop.frameCount + stride) * VirtualRunLoop.frameDuration
    }
  }

  /// Stops calls in `mode`.
  public func remove(from runLoop: VirtualRunLoop, forMode mode: VirtualRunLoop.Mode) {
    modes.remove(mode)
    if modes.isEmpty { detach(from: runLoop) }
  }

  /// Stops the link for good and releases the target.
  public func invalidate() {
    detach(from: .main)
    target = nil
  }

  internal func detach(from runLoop: VirtualRunLoop = .main) {
    modes.removeAll()
    isAdded = false
    runLoop.displayLinks.removeAll { $0 === self }
  }

  internal func shouldFire(frame: Int, mode: VirtualRunLoop.Mode) -> Bool {
    // `Mode.runs(in:)` spelled out as two lookups: a closure handed to `contains(where:)` checks
    // its executor on every call (SE-0423), every frame.
    isRunning && frame % stride == 0 && (modes.contains(.common) || modes.contains(mode))
  }

  internal func fire(at time: TimeInterval) {
    guard let target else { return }
    timestamp = time
    targetTimestamp = time + Double(stride) * duration
    do {
      if selector.name.hasSuffix(":") {
        try objc_msgSend(target, selector, self) as Void
      } else {
        try objc_msgSend(target, selector) as Void
      }
    } catch {
      UIKitModelIssues.report(
        .displayLinkTargetMissingSelector(target: target.description, selector: selector.name))
    }
  }
}
