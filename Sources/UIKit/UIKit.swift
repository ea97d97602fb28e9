// `import UIKit` on Linux: the same line as on iOS brings what it brings there, as far as the
// model goes. UIKit on Apple platforms re-exports Foundation and, through it, the Objective-C
// runtime (`method_exchangeImplementations`, `objc_setAssociatedObject`, `Selector`); here the
// model (`UIKitModel`) re-exports Foundation, the runtime and the geometry's encodings, and this
// module re-exports the model. `Docs/Porting.md` says what else an iOS file needs on Linux.
@_exported public import UIKitModel
