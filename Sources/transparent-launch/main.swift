// An application that links the transparent-bar plugin and names it nowhere: at the launch the
// plugin installs itself, the EM seed's way (a SelfAware class arms a hook of
// -[UIApplication nextResponder], whose first call walks objc_getClassList and awakes every
// TransparentBarAware class; this file's UINavigationController subclass installs the plugin).
// It is a program of its own because the trigger acts on the whole process: in the test binary
// it would install the plugin for every later test. CI runs it.
import Foundation
import Hooks
import ObjCRuntime
import TransparentBarPlugin
import UIKitModel

/// The application's navigation controller: a subclass, as the seed's apps have.
final class AppNavigationController: UINavigationController {}

/// Builds the first screen.
final class AppDelegate: UIApplicationDelegate {
  var window: UIWindow?

  func application(
    _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [String: Any]?
  ) -> Bool {
    let home = UIViewController()
    home.navBarBgAlpha = 0
    window?.rootViewController = AppNavigationController(rootViewController: home)
    return true
  }
}

let navigation = UINavigationController.runtimeClass
let original = class_getInstanceMethod(navigation, "popViewControllerAnimated:")?.implementation
let installedBefore = PluginRegistry.shared.isInstalled("swizzlekit.transparent")
UIApplication.shared.launch(delegate: AppDelegate())
let installed = PluginRegistry.shared.isInstalled("swizzlekit.transparent")
// Awake run again (a second walk, or awake() called by hand): nothing is exchanged twice, which
// would undo the swizzle.
AppNavigationController.awake()
UINavigationController.awake()
let exchanged =
  class_getInstanceMethod(navigation, "et_popViewControllerAnimated:")?.implementation == original
print("installed before the launch: \(installedBefore)")
print("installed after the launch: \(installed)")
print(
  "after awake() twice more, -[UINavigationController et_popViewControllerAnimated:] holds the"
    + " original: \(exchanged)")
for entry in PluginRegistry.shared.hookMap.entries
where entry.method.selectorName == "popViewControllerAnimated:" {
  print(entry)
}
exit(!installedBefore && installed && exchanged ? 0 : 1)
