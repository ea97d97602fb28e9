// UIAppearance for navigation bars: values set on a proxy, applied when a bar enters a window.
import Foundation

extension UINavigationBar {
  /// The appearance proxy of every navigation bar, as UIKit's `UINavigationBar.appearance()`:
  /// what is set on it is applied to each bar **when the bar enters a window**. As Apple
  /// documents, a change does not reach a bar already in a window (remove the bar's view from
  /// the hierarchy and put it back for that); LTNavigationBar's article tried it from
  /// `scrollViewDidScroll` first and saw nothing change. (What the user sees of one bar is the
  /// instance method ``UINavigationBar/asSeen(over:)``.)
  ///
  /// The model applies every value set on the proxy each time a bar enters a window, over what
  /// was set on the bar itself; UIKit lets a value set on the bar win.
  ///
  /// ```swift
  /// UINavigationBar.appearance().barTintColor = .blue   // bars entering a window from now on
  /// ```
  public static func appearance() -> AppearanceProxy { appearanceProxy }

  static let appearanceProxy = AppearanceProxy()

  /// The values set on ``UINavigationBar/appearance()``, applied in the order they were first
  /// set through the bar's own setters (so through the runtime's tables, swizzles included).
  @preconcurrency @MainActor
  public final class AppearanceProxy {
    private var order: [String] = []
    private var setters: [String: (UINavigationBar) -> Void] = [:]
    private var values: [String: Any] = [:]

    fileprivate init() {}

    private func record<Value>(
      _ key: String, _ value: Value, apply: @escaping (UINavigationBar, Value) -> Void
    ) {
      if setters[key] == nil { order.append(key) }
      values[key] = value
      setters[key] = { apply($0, value) }
    }

    private func value<Value>(_ key: String, as type: Value.Type) -> Value? {
      values[key] as? Value
    }

    /// The bar tint colour bars get when they enter a window.
    public var barTintColor: UIColor? {
      get { value("barTintColor", as: UIColor?.self) ?? nil }
      set { record("barTintColor", newValue) { $0.barTintColor = $1 } }
    }

    /// The tint colour bars get when they enter a window.
    public var tintColor: UIColor? {
      get { value("tintColor", as: UIColor?.self) ?? nil }
      set { record("tintColor", newValue) { $0.tintColor = $1 } }
    }

    /// The background colour bars get when they enter a window.
    public var backgroundColor: UIColor? {
      get { value("backgroundColor", as: UIColor?.self) ?? nil }
      set { record("backgroundColor", newValue) { $0.backgroundColor = $1 } }
    }

    /// The title text attributes bars get when they enter a window.
    public var titleTextAttributes: TextAttributes? {
      get { value("titleTextAttributes", as: TextAttributes?.self) ?? nil }
      set { record("titleTextAttributes", newValue) { $0.titleTextAttributes = $1 } }
    }

    /// The shadow image bars get when they enter a window.
    public var shadowImage: UIImage? {
      get { value("shadowImage", as: UIImage?.self) ?? nil }
      set { record("shadowImage", newValue) { $0.shadowImage = $1 } }
    }

    /// Sets the background image bars get for `metrics` when they enter a window.
    public func setBackgroundImage(_ image: UIImage?, for metrics: UIBarMetrics) {
      record("backgroundImage.\(metrics.rawValue)", image) {
        $0.setBackgroundImage($1, for: metrics)
      }
    }

    /// The background image set for `metrics`.
    public func backgroundImage(for metrics: UIBarMetrics) -> UIImage? {
      value("backgroundImage.\(metrics.rawValue)", as: UIImage?.self) ?? nil
    }

    /// Applies the values set so far to `bar`.
    func apply(to bar: UINavigationBar) {
      for key in order { setters[key]?(bar) }
    }

    /// Forgets every value (a model reset, a launch).
    func reset() {
      order.removeAll()
      setters.removeAll()
      values.removeAll()
    }
  }
}
