// Questions about Swift types and values the runtime asks in several places.

/// Whether `type` is `ancestor` or a subclass of it, walking the Swift superclass chain.
@inlinable
internal func isSwiftClass(_ type: AnyClass, inheritingFrom ancestor: AnyClass) -> Bool {
  var current: AnyClass? = type
  while let candidate = current {
    if candidate == ancestor { return true }
    current = _getSuperclass(candidate)
  }
  return false
}

/// The class instance `value` holds, looking through optionals; nil for value types and nil.
internal func objectReference<Value>(_ value: Value) -> AnyObject? {
  flattened(value).flatMap { type(of: $0) is AnyClass ? $0 as AnyObject : nil }
}
