// The encodings of Foundation's geometry types, and calls that pass them.
import Foundation
import ObjCRuntime
import ObjCRuntimeGeometry
import Testing

private final class Canvas: ObjCObject {
  var alpha: CGFloat = 1
  var frame = CGRect.zero
}

@Suite("Geometry encodings")
struct GeometryEncodingTests {
  @Test("CGFloat, CGPoint, CGSize and CGRect encode as clang encodes them on 64-bit machines")
  func encodings() throws {
    #expect(CGFloat.objcTypeEncoding == "d")
    #expect(CGPoint.objcTypeEncoding == "{CGPoint=dd}")
    #expect(CGRect.objcTypeEncoding == "{CGRect={CGPoint=dd}{CGSize=dd}}")
    let rect = try MethodEncoding(parsing: CGRect.objcTypeEncoding + "@:").returnDescriptor
    #expect(rect.size == MemoryLayout<CGRect>.size)
    #expect(rect.alignment == MemoryLayout<CGRect>.alignment)
  }

  @Test("a typed send to a method taking a struct is refused, not miscalled")
  func typedSendToStructMethod() throws {
    let setFrame = try Interceptor(types: "v@:{CGRect={CGPoint=dd}{CGSize=dd}}") { _ in }
    let cls = makeClass("StructHost")
    class_addMethod(
      cls, "setFrame:", setFrame.implementation, "v@:{CGRect={CGPoint=dd}{CGSize=dd}}")
    #expect(throws: ObjCRuntimeError.self) {
      try objc_msgSend(instance(of: cls), "setFrame:", 1.0) as Void
    }
  }

  @Test("a wrapper whose original is _objc_msgForward forwards a struct result as an invocation")
  func structResultThroughForwarding() throws {
    let types = "{CGRect={CGPoint=dd}{CGSize=dd}}@:"
    let wrapper = try Interceptor(types: types) { call in call.forward(to: IMP.forward) }
    let answer: @convention(c) (id, SEL, id?) -> Void = { _, _, argument in
      let invocation = argument?.takeUnretainedObject(as: Invocation.self)
      try? invocation?.setReturnValue(CGRect(x: 1, y: 2, width: 320, height: 44))
    }
    let cls = makeClass("ForwardedFrame")
    class_addMethod(cls, "frame", wrapper.implementation, types)
    class_addMethod(cls, "forwardInvocation:", try IMP(answer), "v@:@")
    // What Aspects does to a method, with a wrapper that kept the forward IMP as its original.
    let invocation = try Invocation(target: instance(of: cls), selector: "frame")
    try invocation.invoke()
    #expect(
      try invocation.returnValue(as: CGRect.self) == CGRect(x: 1, y: 2, width: 320, height: 44))
  }

  @Test("an AffineTransform is laid out as CGAffineTransform, six doubles")
  func affineTransform() throws {
    let signature = try MethodSignature(types: "v@:" + AffineTransform.objcTypeEncoding)
    let descriptor = try #require(signature.argumentDescriptor(at: 2))
    #expect(descriptor.size == MemoryLayout<AffineTransform>.size)
    #expect(descriptor.alignment == MemoryLayout<AffineTransform>.alignment)
    #expect(signature.argumentDescriptor(at: 3) == nil)
    #expect(signature.returnDescriptor == .void)
  }

  @Test("a CGFloat travels through a typed send, a CGRect through an invocation")
  func calls() throws {
    let setAlpha = try imp_implementationWithBlock { (me: Canvas, alpha: CGFloat) in
      me.alpha = alpha
    }
    let setFrame = try Interceptor(types: "v@:{CGRect={CGPoint=dd}{CGSize=dd}}") { call in
      guard let canvas = call.receiver as? Canvas, let frame = call.argument(at: 2, as: CGRect.self)
      else { return }
      canvas.frame = frame
    }
    defer { imp_removeBlock(setAlpha) }
    let cls = makeClass("Canvas", superclass: Canvas.runtimeClass)
    class_addMethod(cls, "setAlpha:", setAlpha, "v@:d")
    class_addMethod(
      cls, "setFrame:", setFrame.implementation, "v@:{CGRect={CGPoint=dd}{CGSize=dd}}")
    let canvas = Canvas()
    object_setClass(canvas, cls)
    try objc_msgSend(canvas, "setAlpha:", CGFloat(0.25)) as Void
    #expect(canvas.alpha == 0.25)
    let invocation = try Invocation(target: canvas, selector: "setFrame:")
    try invocation.setArgument(CGRect(x: 1, y: 2, width: 320, height: 44), at: 2)
    try invocation.invoke()
    #expect(canvas.frame == CGRect(x: 1, y: 2, width: 320, height: 44))
  }
}
