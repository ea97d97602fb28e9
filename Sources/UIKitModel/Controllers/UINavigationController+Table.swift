// UINavigationController's table: the IMPs of its methods (Base, UIKit's behaviour) and the Swift
// entry points that send through the table (Entry), and the selectors they send.
import Foundation
import ObjCRuntime

extension UINavigationController {
  static func navigation(_ me: id) -> UINavigationController {
    me.receiver(as: UINavigationController.self)
  }

  static func controller(_ object: id?) -> UIViewController? {
    object.unretainedObject as? UIViewController
  }

  /// The view controller a push was sent with; nil, with an issue naming the method, for nil or
  /// an object that is not a view controller (UIKit raises "Application tried to push a nil view
  /// controller").
  func requirePushedController(_ object: id?) -> UIViewController? {
    if let controller = UINavigationController.controller(object) { return controller }
    UIKitModelIssues.report(
      .nilViewController(
        method: "-[UINavigationController pushViewController:animated:]",
        navigationController: description))
    return nil
  }

  /// The index in the stack of the controller a popTo was sent with; nil, with the issue of any
  /// controller not in the stack, for one that is not there, nil included (UIKit raises "Tried to
  /// pop to a view controller that doesn't exist" for both).
  func stackIndex(ofPopTarget object: id?) -> Int? {
    let target = UINavigationController.controller(object)
    if let target, let index = stack.firstIndex(ofIdentical: target) { return index }
    let named = object.map { $0.takeUnretainedObject().description } ?? "nil"
    UIKitModelIssues.report(.notInStack(controller: named, navigationController: description))
    return nil
  }

  enum Base {
    static let setDelegate: @convention(c) (id, SEL, id?) -> Void = { me, _, delegate in
      MainThread.enterIMP(with: me, delegate) { me, delegate in
        UINavigationController.navigation(me).delegateObject = SwiftObjectBox.unwrap(
          delegate?.takeUnretainedObject())
      }
    }
    static let push: @convention(c) (id, SEL, id?, Bool) -> Void = { me, _, controller, animated in
      MainThread.enterIMP(with: me, controller, animated) { me, controller, animated in
        let navigation = UINavigationController.navigation(me)
        guard let controller = navigation.requirePushedController(controller) else { return }
        navigation.performPush(controller, animated: animated)
      }
    }
    static let pop: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
      MainThread.enterIMP(with: me, animated) { me, animated in
        let navigation = UINavigationController.navigation(me)
        let popped = navigation.performPop(to: navigation.stack.count - 2, animated: animated)
        return popped?.last?.passRetained()
      }
    }
    static let popTo: @convention(c) (id, SEL, id?, Bool) -> id? = { me, _, target, animated in
      MainThread.enterIMP(with: me, target, animated) { me, target, animated in
        let navigation = UINavigationController.navigation(me)
        guard let index = navigation.stackIndex(ofPopTarget: target) else { return nil }
        let popped = navigation.performPop(to: index, animated: animated) ?? []
        return ViewControllerList(popped).passRetained()
      }
    }
    static let popToRoot: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
      MainThread.enterIMP(with: me, animated) { me, animated in
        let popped = UINavigationController.navigation(me).performPop(to: 0, animated: animated)
        return ViewControllerList(popped ?? []).passRetained()
      }
    }
    static let setControllers: @convention(c) (id, SEL, id?, Bool) -> Void = {
      me, _, list, animated in
      MainThread.enterIMP(with: me, list, animated) { me, list, animated in
        let controllers =
          (list.unretainedObject as? ViewControllerList)?.controllers ?? []
        UINavigationController.navigation(me).performSet(controllers, animated: animated)
      }
    }
    static let shouldPush: @convention(c) (id, SEL, id?, id?) -> Bool = { _, _, _, _ in true }
    static let shouldPop: @convention(c) (id, SEL, id?, id?) -> Bool = { _, _, _, _ in true }
    /// UIKit's answer of a navigation controller: dark content over a default bar, light
    /// content over a black one.
    static let statusBarStyle: @convention(c) (id, SEL) -> Int = { me, _ in
      MainThread.enterIMP(with: me) { me in
        switch UINavigationController.navigation(me).navigationBar.barStyle {
        case .default: UIStatusBarStyle.default.rawValue
        case .black: UIStatusBarStyle.lightContent.rawValue
        }
      }
    }
    static let updateInteractive: @convention(c) (id, SEL, Double) -> Void = { me, _, percent in
      MainThread.enterIMP(with: me, percent) { me, percent in
        UINavigationController.navigation(me).activeCoordinator?.interactivePercent =
          CGFloat(percent)
      }
    }
  }

  enum Entry {
    static let setDelegate: @convention(c) (id, SEL, id?) -> Void = { me, _, delegate in
      MainThread.enterIMP(with: me, delegate) { me, delegate in
        let navigation = UINavigationController.navigation(me)
        let argument: ObjCObject? = delegate?.takeUnretainedObject()
        if let swift = SwiftObjectBox.unwrap(argument) as? any UINavigationControllerDelegate {
          navigation.delegate = swift
        } else {
          // An object that answers the selectors without the Swift protocol (or a box around
          // one): the base stores it.
          try? navigation.sendToTable(NavigationSelectors.setDelegate.selector, argument) as Void
        }
      }
    }
    static let push: @convention(c) (id, SEL, id?, Bool) -> Void = { me, _, controller, animated in
      MainThread.enterIMP(with: me, controller, animated) { me, controller, animated in
        let navigation = UINavigationController.navigation(me)
        guard let controller = navigation.requirePushedController(controller) else { return }
        navigation.pushViewController(controller, animated: animated)
      }
    }
    static let pop: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
      MainThread.enterIMP(with: me, animated) { me, animated in
        UINavigationController.navigation(me).popViewController(animated: animated)?
          .passRetained()
      }
    }
    static let popTo: @convention(c) (id, SEL, id?, Bool) -> id? = { me, _, target, animated in
      MainThread.enterIMP(with: me, target, animated) { me, target, animated in
        let navigation = UINavigationController.navigation(me)
        // The Swift method takes a controller: nil stops here, anything else goes on to the table.
        guard let controller = UINavigationController.controller(target) else {
          _ = navigation.stackIndex(ofPopTarget: target)
          return nil
        }
        let popped = navigation.popToViewController(controller, animated: animated)
        return popped.map { ViewControllerList($0).passRetained() }
      }
    }
    static let popToRoot: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
      MainThread.enterIMP(with: me, animated) { me, animated in
        let popped = UINavigationController.navigation(me).popToRootViewController(
          animated: animated)
        return popped.map { ViewControllerList($0).passRetained() }
      }
    }
    static let setControllers: @convention(c) (id, SEL, id?, Bool) -> Void = {
      me, _, list, animated in
      MainThread.enterIMP(with: me, list, animated) { me, list, animated in
        let controllers =
          (list.unretainedObject as? ViewControllerList)?.controllers ?? []
        UINavigationController.navigation(me).setViewControllers(controllers, animated: animated)
      }
    }
    static let statusBarStyle: @convention(c) (id, SEL) -> Int = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UINavigationController.navigation(me).preferredStatusBarStyle.rawValue
      }
    }
    static let shouldPush: @convention(c) (id, SEL, id?, id?) -> Bool = { me, _, bar, item in
      MainThread.enterIMP(with: me, bar, item) { me, bar, item in
        guard let bar = bar.map({ $0.takeUnretainedObject() }) as? UINavigationBar,
          let item = item.map({ $0.takeUnretainedObject() }) as? UINavigationItem
        else { return true }
        return UINavigationController.navigation(me).navigationBar(bar, shouldPush: item)
      }
    }
    static let shouldPop: @convention(c) (id, SEL, id?, id?) -> Bool = { me, _, bar, item in
      MainThread.enterIMP(with: me, bar, item) { me, bar, item in
        guard let bar = bar.map({ $0.takeUnretainedObject() }) as? UINavigationBar,
          let item = item.map({ $0.takeUnretainedObject() }) as? UINavigationItem
        else { return true }
        return UINavigationController.navigation(me).navigationBar(bar, shouldPop: item)
      }
    }
    static let updateInteractive: @convention(c) (id, SEL, Double) -> Void = { me, _, percent in
      MainThread.enterIMP(with: me, percent) { me, percent in
        UINavigationController.navigation(me).updateInteractiveTransition(CGFloat(percent))
      }
    }
  }
}

/// The selectors of UINavigationController's table methods, kept in static storage and registered
/// once (`SelectorReference`).
enum NavigationSelectors {
  static let push = SelectorReference("pushViewController:animated:")
  static let pop = SelectorReference("popViewControllerAnimated:")
  static let popTo = SelectorReference("popToViewController:animated:")
  static let popToRoot = SelectorReference("popToRootViewControllerAnimated:")
  static let setControllers = SelectorReference("setViewControllers:animated:")
  static let shouldPush = SelectorReference("navigationBar:shouldPushItem:")
  static let shouldPop = SelectorReference("navigationBar:shouldPopItem:")
  static let updateInteractive = SelectorReference("_updateInteractiveTransition:")
  static let setDelegate = SelectorReference("setDelegate:")
}
