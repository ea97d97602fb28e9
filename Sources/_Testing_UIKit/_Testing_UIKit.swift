// Swift Testing declares a cross-import overlay for UIKit (Testing.swiftcrossimport names
// `_Testing_UIKit`): a file that imports both Testing and a module named UIKit makes the
// compiler import this one too, and fails when there is none. On Apple platforms the overlay
// makes UIKit's images attachable to tests; here it is empty, and exists so that
// `import Testing` beside `import UIKit` compiles on Linux. The UIKit module depends on it, so
// every build that has UIKit has it.
