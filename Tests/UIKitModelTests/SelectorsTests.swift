// The public selector constants name exactly the methods of the model's tables.
import ObjCRuntime
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("Public selectors")
  struct SelectorsTests {
    @Test(
      "each class's Selectors.all is its declared table, in order",
      arguments: [
        (UIResponder.self as ObjCObject.Type, UIResponder.Selectors.all),
        (UIView.self, UIView.Selectors.all),
        (UIScrollView.self, UIScrollView.Selectors.all),
        (UINavigationBar.self, UINavigationBar.Selectors.all),
        (UIViewController.self, UIViewController.Selectors.all),
        (UINavigationController.self, UINavigationController.Selectors.all),
        (UITabBarController.self, UITabBarController.Selectors.all),
      ])
    func tables(type: ObjCObject.Type, selectors: [Selector]) {
      let declared = type.objcDeclaration.methods.filter { !$0.isClassMethod }.map(\.selector)
      #expect(declared == selectors, "\(type)")
      for selector in selectors {
        #expect(class_getInstanceMethod(type.runtimeClass, selector) != nil, "\(selector)")
      }
    }
  }
}
