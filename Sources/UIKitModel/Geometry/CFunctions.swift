// Core Graphics' and Core Animation's C functions, under their C names so that iOS code ports
// unchanged.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

public import Foundation

/// Core Graphics' constructor of a translation.
public func CGAffineTransformMakeTranslation(_ tx: CGFloat, _ ty: CGFloat) -> CGAffineTransform {
  CGAffineTransform(translationX: tx, y: ty)
}

/// Core Graphics' constructor of a scale.
public func CGAffineTransformMakeScale(_ sx: CGFloat, _ sy: CGFloat) -> CGAffineTransform {
  CGAffineTransform(scaleX: sx, y: sy)
}

/// Core Graphics' constructor of a rotation.
public func CGAffineTransformMakeRotation(_ angle: CGFloat) -> CGAffineTransform {
  CGAffineTransform(rotationAngle: angle)
}

/// Core Graphics' concatenation: `t1` followed by `t2`.
public func CGAffineTransformConcat(_ t1: CGAffineTransform, _ t2: CGAffineTransform)
  -> CGAffineTransform
{
  t1.concatenating(t2)
}

/// Core Graphics' inversion.
public func CGAffineTransformInvert(_ transform: CGAffineTransform) -> CGAffineTransform {
  transform.inverted()
}

/// The virtual time, as Core Animation's `CACurrentMediaTime()`.
///
/// Nonisolated, as Core Animation's is, so that a hook's closure can read it: the model's clock
/// is the main thread's, and the model is used on the main thread (``MainThread``).
public func CACurrentMediaTime() -> TimeInterval {
  MainThread.assumeIsolated { VirtualRunLoop.main.currentTime }
}
