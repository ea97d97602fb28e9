// UINavigationBar's table: the IMPs of its methods (Base) and the Swift entry points that send
// through the table (Entry), and the selectors they send.
import Foundation
import ObjCRuntime

extension UINavigationBar {
  static func bar(_ me: id) -> UINavigationBar {
    me.receiver(as: UINavigationBar.self)
  }

  enum Base {
    static let setTitleTextAttributes: @convention(c) (id, SEL, id?) -> Void = { me, _, box in
      MainThread.enterIMP(with: me, box) { me, box in
        let bar = UINavigationBar.bar(me)
        bar.attributes = (box.unretainedObject as? TextAttributesBox)?.attributes
        bar.applyTitleAttributes()
      }
    }
    static let setBackgroundImage: @convention(c) (id, SEL, id?, Int) -> Void = {
      me, _, image, metrics in
      MainThread.enterIMP(with: me, image, metrics) { me, image, metrics in
        let bar = UINavigationBar.bar(me)
        bar.backgroundImages[metrics] = image.unretainedObject as? UIImage
        bar.applyBackground()
      }
    }
    static let setBarTintColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      MainThread.enterIMP(with: me, color) { me, color in
        let bar = UINavigationBar.bar(me)
        bar.barTint = color.unretainedObject as? UIColor
        bar.applyBackground()
      }
    }
    static let layoutSubviews: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UINavigationBar.bar(me).performLayout()
      }
    }
  }

  enum Entry {
    static let setTitleTextAttributes: @convention(c) (id, SEL, id?) -> Void = { me, _, box in
      MainThread.enterIMP(with: me, box) { me, box in
        UINavigationBar.bar(me).titleTextAttributes =
          (box.unretainedObject as? TextAttributesBox)?.attributes
      }
    }
    static let setBackgroundImage: @convention(c) (id, SEL, id?, Int) -> Void = {
      me, _, image, metrics in
      MainThread.enterIMP(with: me, image, metrics) { me, image, metrics in
        UINavigationBar.bar(me).setBackgroundImage(
          image.unretainedObject as? UIImage,
          for: UIBarMetrics(rawValue: metrics) ?? .default)
      }
    }
    static let setBarTintColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      MainThread.enterIMP(with: me, color) { me, color in
        UINavigationBar.bar(me).barTintColor = color.unretainedObject as? UIColor
      }
    }
    static let layoutSubviews: @convention(c) (id, SEL) -> Void = { me, _ in
      MainThread.enterIMP(with: me) { me in
        UINavigationBar.bar(me).layoutSubviews()
      }
    }
  }
}

/// The selectors of UINavigationBar's table methods, kept in static storage and registered once
/// (`SelectorReference`).
enum BarSelectors {
  static let setBackgroundImageForBarMetrics = SelectorReference(
    "setBackgroundImage:forBarMetrics:")
  static let setBarTintColor = SelectorReference("setBarTintColor:")
  static let setTitleTextAttributes = SelectorReference("setTitleTextAttributes:")
}
