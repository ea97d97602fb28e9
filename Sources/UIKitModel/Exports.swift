// What UIKit users have with `import UIKit`: Foundation (CGFloat, CGRect, Date...) and the
// Objective-C runtime (which UIKit brings through Foundation on Apple platforms), with the
// encodings of the geometry types.
@_exported public import Foundation
@_exported public import ObjCRuntime
@_exported public import ObjCRuntimeGeometry
