// The loader: each module gcc registers becomes selectors, class pairs and categories on the
// runtime, then its +load methods run, in objc4's order.
internal import CObjCGNU
import ObjCRuntime
import Synchronization

enum Loader {
  struct State {
    var modules: [ObjectiveCModule] = []
    /// Categories whose class did not exist when their file loaded.
    var waiting: [WaitingCategory] = []
    /// Which category last defined each method, to say when a later one replaces it.
    var definedBy: [String: String] = [:]
  }

  // @unchecked Sendable: the record is gcc's data in a loaded library, which the loader only
  // reads, under the state's lock; libraries with Objective-C are pinned (RTLD_NODELETE).
  struct WaitingCategory: @unchecked Sendable {
    let file: String
    let moduleIndex: Int
    let name: String
    let className: String
    let record: UnsafeMutablePointer<swk_gnu_category>
  }

  static let state = Mutex(State())

  // nonisolated(unsafe): written once here, before it is published to C, and never again.
  /// What the GNU entry points call.
  private nonisolated(unsafe) static let handlers: UnsafeMutablePointer<swk_gnu_handlers> = {
    let handlers = UnsafeMutablePointer<swk_gnu_handlers>.allocate(capacity: 1)
    handlers.initialize(
      to: swk_gnu_handlers(
        load_module: { module in if let module { Loader.load(module) } },
        lookup: { receiver, selector, cacheable in
          Dispatch.lookup(receiver, selector, cacheable)
        },
        lookup_super: { receiver, start, selector in
          Dispatch.lookupSuper(receiver, start, selector)
        },
        get_class: { name, meta in Dispatch.classNamed(name, meta: meta != 0) }))
    return handlers
  }()

  static func start() {
    _ = started
  }

  private static let started: Bool = {
    DirectForwardingFailures.install { error in Failures.record(error) }
    Foundation.install()
    RuntimeFunctions.install()
    Dispatch.enableSendCache()
    return swk_gnu_install(handlers) != 0
  }()

  // MARK: A module

  static func load(_ module: UnsafeMutablePointer<swk_gnu_module>) {
    let image = Origins.image(holding: UnsafeRawPointer(module))
    let library = image?.path ?? "(unknown image)"
    let named = module.pointee.name.map { String(cString: $0) } ?? ""
    let recorded = image.flatMap { image in
      Origins.sourceFiles.withLock { $0[image.path]?[image.offset] }
    }
    let file = recorded ?? (named.isEmpty ? library : named)
    // The library stays loaded: the runtime keeps its methods, selectors and literals.
    swk_gnu_pin_image(UnsafeRawPointer(module))
    let moduleIndex = state.withLock { state in
      state.modules.append(ObjectiveCModule(file: file, library: library))
      return state.modules.count - 1
    }
    let expectedSize = UInt(MemoryLayout<swk_gnu_module>.size)
    guard module.pointee.version == UInt(SWK_GNU_ABI_VERSION), module.pointee.size == expectedSize
    else {
      refuse(
        moduleIndex,
        .unsupportedABI(file: file, version: module.pointee.version, size: module.pointee.size))
      return
    }
    guard swk_gnu_image_needs(UnsafeRawPointer(module), "libobjc.so") == 0 else {
      refuse(moduleIndex, .linkedWithGNULibobjc(file: file, library: library))
      return
    }
    guard let symtab = module.pointee.symtab else { return }
    registerSelectors(symtab.pointee.refs)
    let classCount = Int(symtab.pointee.cls_def_cnt)
    let categoryCount = Int(symtab.pointee.cat_def_cnt)
    // gcc lists a file's classes and categories last first: reversed, they follow the source, so
    // that of two categories defining one method the later in the file wins, as in objc4.
    let classes = (0..<classCount).reversed().compactMap { index in
      swk_gnu_symtab_def(symtab, index)?.assumingMemoryBound(to: swk_gnu_class.self)
    }
    let categories = (classCount..<classCount + categoryCount).reversed().compactMap { index in
      swk_gnu_symtab_def(symtab, index)?.assumingMemoryBound(to: swk_gnu_category.self)
    }
    var loads: [() -> Void] = []
    for gnuClass in superclassesFirst(classes) {
      if let made = makeClass(gnuClass, file: file, moduleIndex) {
        loads.append(contentsOf: loadMethod(of: gnuClass, on: made, moduleIndex))
      }
    }
    for category in categories {
      let className = String(cString: category.pointee.class_name)
      let name = String(cString: category.pointee.category_name)
      guard let cls = Foundation.lookUpClass(className) else {
        let waiting = WaitingCategory(
          file: file, moduleIndex: moduleIndex, name: name, className: className,
          record: category)
        update(moduleIndex) {
          $0.problems.append(.missingClass(file: file, category: name, className: className))
        }
        state.withLock { $0.waiting.append(waiting) }
        continue
      }
      loads.append(contentsOf: attach(category, name: name, to: cls, file: file, moduleIndex))
    }
    if let statics = swk_gnu_symtab_def(symtab, classCount + categoryCount) {
      StaticInstances.prepare(statics, file: file) { problem in
        update(moduleIndex) { $0.problems.append(problem) }
      }
    }
    // Categories of earlier files that waited for a class this file defines.
    loads.append(contentsOf: attachWaiting())
    for run in loads { run() }
  }

  /// Records why the module at `index` is not loaded at all, and says so.
  private static func refuse(_ index: Int, _ problem: ObjectiveCLoadError) {
    Diagnostics.warn("Objective-C: \(problem)")
    update(index) { $0.problems.append(problem) }
  }

  private static func update(_ index: Int, _ change: (inout ObjectiveCModule) -> Void) {
    state.withLock { state in change(&state.modules[index]) }
  }

  /// Writes the runtime's selector into each reference gcc's code passes, and registers the
  /// table so that `@selector(x)` passed as a value is understood wherever it enters.
  private static func registerSelectors(_ references: UnsafeMutablePointer<swk_gnu_selector>?) {
    guard let references else { return }
    var count = 0
    while let name = references[count].sel_id {
      let selector = Selector(String(cString: name.assumingMemoryBound(to: CChar.self)))
      references[count].sel_id = UnsafeRawPointer(selector.sel)
      count += 1
    }
    SelectorReferenceTables.register(
      base: UnsafeRawPointer(references), count: count,
      stride: MemoryLayout<swk_gnu_selector>.stride)
  }

  /// The module's classes with every superclass defined in the module before its subclasses.
  private static func superclassesFirst(
    _ classes: [UnsafeMutablePointer<swk_gnu_class>]
  ) -> [UnsafeMutablePointer<swk_gnu_class>] {
    var remaining = classes
    var ordered: [UnsafeMutablePointer<swk_gnu_class>] = []
    while !remaining.isEmpty {
      let names = Set(remaining.map { String(cString: $0.pointee.name) })
      let ready = remaining.filter { gnuClass in
        guard let superName = superclassName(gnuClass) else { return true }
        return !names.contains(superName)
      }
      // A cycle cannot be compiled; should one appear, the rest goes in file order.
      let next = ready.isEmpty ? remaining : ready
      ordered.append(contentsOf: next)
      remaining.removeAll { candidate in next.contains(candidate) }
    }
    return ordered
  }

  private static func superclassName(_ gnuClass: UnsafeMutablePointer<swk_gnu_class>) -> String? {
    gnuClass.pointee.super_class.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
  }

  // MARK: Classes

  /// Makes the class pair for a class gcc laid out, with its methods; nil (and a problem) when
  /// it cannot be made.
  private static func makeClass(
    _ gnuClass: UnsafeMutablePointer<swk_gnu_class>, file: String, _ moduleIndex: Int
  ) -> Class? {
    func problem(_ problem: ObjectiveCLoadError) -> Class? {
      update(moduleIndex) { $0.problems.append(problem) }
      return nil
    }
    let name = String(cString: gnuClass.pointee.name)
    if let ivars = gnuClass.pointee.ivars, ivars.pointee.count > 0 {
      let names = (0..<Int(ivars.pointee.count)).map { index in
        String(cString: swk_gnu_ivar_at(ivars, index).pointee.name)
      }
      return problem(.instanceVariables(file: file, className: name, names: names))
    }
    let superName = superclassName(gnuClass)
    guard let superName, let superclass = Foundation.lookUpClass(superName) else {
      return problem(.missingSuperclass(file: file, className: name, superclass: superName))
    }
    guard let cls = objc_allocateClassPair(superclass, name, 0) else {
      if objc_getClass(name) != nil { return problem(.classExists(file: file, className: name)) }
      return problem(
        .refused(
          file: file, className: name,
          .invalidDeclaration(className: name, reason: "the runtime refused the class's name")))
    }
    do throws(ObjCRuntimeError) {
      for method in methods(of: gnuClass.pointee.methods) {
        _ = try cls.addMethod(
          method.selector, implementation: method.implementation, types: method.types,
          fileID: file, line: 0)
      }
      if let meta = gnuClass.pointee.isa {
        for method in methods(of: meta.pointee.methods) {
          _ = try cls.metaclass.addMethod(
            method.selector, implementation: method.implementation, types: method.types,
            fileID: file, line: 0)
        }
      }
    } catch {
      objc_disposeClassPair(cls)
      return problem(.refused(file: file, className: name, error))
    }
    objc_registerClassPair(cls)
    // gcc's super sends in the class's own methods read these two words.
    gnuClass.pointee.super_class = UnsafeRawPointer(Unmanaged.passUnretained(superclass).toOpaque())
    gnuClass.pointee.isa?.pointee.super_class = UnsafeRawPointer(
      Unmanaged.passUnretained(superclass.metaclass).toOpaque())
    update(moduleIndex) { $0.classes.append(name) }
    return cls
  }

  /// The methods of a chain of gcc's method lists, in order.
  private static func methods(of first: UnsafeMutablePointer<swk_gnu_method_list>?)
    -> [CategoryMethod]
  {
    var result: [CategoryMethod] = []
    var list = first
    while let current = list {
      for index in 0..<Int(current.pointee.count) {
        guard let method = swk_gnu_method_at(current, index), let name = method.pointee.name,
          let imp = method.pointee.imp
        else { continue }
        let types = method.pointee.types.map { String(cString: $0) } ?? "v@:"
        result.append(
          CategoryMethod(
            Selector(String(cString: name)), IMP(rawValue: UnsafeRawPointer(imp)), types))
      }
      list = current.pointee.next
    }
    return result
  }

  /// The `+load` a class or category defines itself, as a call to make later: objc4 calls each
  /// `+load` function directly, never through a send, so a category's does not replace its
  /// class's.
  private static func loadMethod(
    of gnuClass: UnsafeMutablePointer<swk_gnu_class>, on cls: Class, _ moduleIndex: Int
  ) -> [() -> Void] {
    guard let meta = gnuClass.pointee.isa else { return [] }
    return loadCall(in: meta.pointee.methods, on: cls, label: "+[\(cls.name) load]", moduleIndex)
  }

  private static let loadSelector: Selector = "load"

  /// The call of the `+load` in `list`, if it has one: the failures of its sends and the objects
  /// it autoreleased are those of this thread while it runs.
  private static func loadCall(
    in list: UnsafeMutablePointer<swk_gnu_method_list>?, on cls: Class, label: String,
    _ moduleIndex: Int
  ) -> [() -> Void] {
    guard let method = methods(of: list).first(where: { $0.selector == loadSelector }) else {
      return []
    }
    let imp = method.implementation
    return [
      {
        typealias Load = @convention(c) (UnsafeMutableRawPointer, SEL) -> Void
        let function = unsafeBitCast(imp.rawValue, to: Load.self)
        let failuresBefore = Failures.mark()
        let poolBefore = Foundation.poolMark()
        function(Unmanaged.passUnretained(cls).toOpaque(), loadSelector.sel)
        Foundation.drainPool(since: poolBefore)
        let failures = Failures.take(since: failuresBefore)
        update(moduleIndex) { module in
          module.loads.append(label)
          module.problems += failures.map { .failedSend(file: module.file, during: label, $0) }
        }
      }
    ]
  }

  // MARK: Categories

  private static func attach(
    _ category: UnsafeMutablePointer<swk_gnu_category>, name: String, to cls: Class,
    file: String, _ moduleIndex: Int
  ) -> [() -> Void] {
    let instanceMethods = methods(of: category.pointee.instance_methods)
    let classMethods = methods(of: category.pointee.class_methods)
    let label = "\(cls.name) (\(name))"
    do throws(ObjCRuntimeError) {
      // Both lists, or neither.
      try cls.attachCategory(
        name, methods: instanceMethods, classMethods: classMethods, fileID: file, line: 0)
    } catch {
      update(moduleIndex) { $0.problems.append(.refused(file: file, className: label, error)) }
      return []
    }
    let replaced = state.withLock { state -> [String] in
      var replaced: [String] = []
      for (prefix, list) in [("-", instanceMethods), ("+", classMethods)] {
        for method in list where method.selector != loadSelector {
          let key = "\(prefix)[\(cls.name) \(method.selector)]"
          if let earlier = state.definedBy[key] {
            replaced.append("\(key): \(label) replaces \(earlier)")
          }
          state.definedBy[key] = label
        }
      }
      return replaced
    }
    update(moduleIndex) { module in
      module.categories.append(label)
      module.replacements.append(contentsOf: replaced)
    }
    return loadCall(
      in: category.pointee.class_methods, on: cls, label: "+[\(cls.name)(\(name)) load]",
      moduleIndex)
  }

  /// Attaches the waiting categories whose class now exists; returns their `+load` calls.
  private static func attachWaiting() -> [() -> Void] {
    let ready = state.withLock { state -> [(WaitingCategory, Class)] in
      var ready: [(WaitingCategory, Class)] = []
      state.waiting.removeAll { waiting in
        guard let cls = Foundation.lookUpClass(waiting.className) else { return false }
        ready.append((waiting, cls))
        return true
      }
      return ready
    }
    var loads: [() -> Void] = []
    for (waiting, cls) in ready {
      update(waiting.moduleIndex) { module in
        module.problems.removeAll {
          $0
            == .missingClass(
              file: waiting.file, category: waiting.name, className: waiting.className)
        }
      }
      loads.append(
        contentsOf: attach(
          waiting.record, name: waiting.name, to: cls, file: waiting.file, waiting.moduleIndex))
    }
    return loads
  }
}
