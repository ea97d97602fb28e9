// CATransaction: explicit and implicit transactions, and completion blocks that wait for the
// animations added in them.
public import Foundation

/// One transaction: the animations added while it was current, and what to run when they end.
@preconcurrency @MainActor
internal final class Transaction {
  var completion: (() -> Void)?
  var animationDuration: TimeInterval = 0.25
  var disableActions = false
  // Unchecked as the run loop's queues are (VirtualRunLoop.swift): one thread at a time.
  @exclusivity(unchecked) var pendingAnimations = 0
  /// The latest time an animation skipped while the transaction was open would have ended: its
  /// completion waits for it too.
  @exclusivity(unchecked) var heldUntil = -TimeInterval.infinity
  var committed = false
  let isImplicit: Bool

  init(isImplicit: Bool) { self.isImplicit = isImplicit }
}

/// The transactions of the run loop: the stack of open ones (the implicit one at the bottom once
/// something touched it this turn), and committed ones waiting for their animations.
@preconcurrency @MainActor
internal final class TransactionQueue {
  // Read every frame; unchecked as the run loop's queues are (VirtualRunLoop.swift).
  @exclusivity(unchecked) private var implicit: Transaction?
  @exclusivity(unchecked) private var explicit: [Transaction] = []
  @exclusivity(unchecked) private var waiting: [Transaction] = []

  var isEmpty: Bool { implicit == nil && explicit.isEmpty && waiting.isEmpty }

  /// The transaction changes go to now: the innermost open one, or the turn's implicit one.
  var current: Transaction {
    if let last = explicit.last { return last }
    if let implicit { return implicit }
    let made = Transaction(isImplicit: true)
    implicit = made
    return made
  }

  /// Every open transaction, outermost first, the turn's implicit one included (made if
  /// needed): an animation counts for each of them.
  var open: [Transaction] {
    _ = current
    // Without `Optional.map`'s closure, which would check its executor (SE-0423) on every call.
    guard let implicit else { return explicit }
    return [implicit] + explicit
  }

  /// Makes every open transaction wait until `time`, as an animation ending then would.
  func hold(until time: TimeInterval) {
    let innermost = current
    innermost.heldUntil = max(innermost.heldUntil, time)
    if let implicit, implicit !== innermost { implicit.heldUntil = max(implicit.heldUntil, time) }
    for transaction in explicit where transaction !== innermost {
      transaction.heldUntil = max(transaction.heldUntil, time)
    }
  }

  func begin() {
    _ = current  // an implicit transaction exists under every explicit one
    explicit.append(Transaction(isImplicit: false))
  }

  func commit() -> Bool {
    guard let transaction = explicit.popLast() else { return false }
    settle(transaction)
    return true
  }

  /// The end of a run-loop turn: the implicit transaction commits; committed transactions whose
  /// animations all ended run their completion.
  func endOfTurn(animations: AnimationEngine) {
    if let implicit, explicit.isEmpty {
      self.implicit = nil
      settle(implicit)
    }
    let now = VirtualRunLoop.main.currentTime
    let isDone = { (transaction: Transaction) in
      transaction.pendingAnimations <= 0 && transaction.heldUntil <= now
    }
    let done = waiting.filter(isDone)
    waiting.removeAll(where: isDone)
    for transaction in done { transaction.completion?() }
  }

  private func settle(_ transaction: Transaction) {
    transaction.committed = true
    if transaction.completion != nil || transaction.pendingAnimations > 0
      || transaction.heldUntil > VirtualRunLoop.main.currentTime
    {
      waiting.append(transaction)
    }
  }

  func removeAll() {
    implicit = nil
    explicit.removeAll()
    waiting.removeAll()
  }
}

/// Core Animation's transactions, on the model's run loop.
///
/// Every change belongs to a transaction. Between `begin()` and `commit()` it is the explicit
/// one; otherwise it is the run-loop turn's implicit transaction, which commits at the end of the
/// turn (the next frame). A completion block runs once every animation added while its
/// transaction was open (nested ones included) has ended, or at the end of the turn if there was
/// none. Setting a completion block or duration without `begin()` applies to the implicit
/// transaction, as WRNavigationBar relies on.
@preconcurrency @MainActor
public enum CATransaction {
  private static var queue: TransactionQueue { VirtualRunLoop.main.transactions }

  /// Opens a transaction.
  public static func begin() { queue.begin() }

  /// Closes the innermost transaction. Without a matching `begin()` it is refused with
  /// ``UIKitModelIssue/unbalancedTransaction``.
  public static func commit() {
    if !queue.commit() { UIKitModelIssues.report(.unbalancedTransaction) }
  }

  /// Commits the implicit transaction now rather than at the end of the turn.
  public static func flush() {
    VirtualRunLoop.main.endTurn()
  }

  /// Sets the block run when the current transaction's animations have ended.
  public static func setCompletionBlock(_ block: (() -> Void)?) {
    queue.current.completion = block
  }

  /// The current transaction's completion block.
  public static func completionBlock() -> (() -> Void)? { queue.current.completion }

  /// Sets the default duration of the current transaction's animations.
  public static func setAnimationDuration(_ duration: TimeInterval) {
    queue.current.animationDuration = duration
  }

  /// The current transaction's default animation duration (0.25 s unless set).
  public static func animationDuration() -> TimeInterval { queue.current.animationDuration }

  /// Sets whether implicit layer actions are disabled in the current transaction.
  public static func setDisableActions(_ flag: Bool) { queue.current.disableActions = flag }

  /// Whether implicit layer actions are disabled in the current transaction.
  public static func disableActions() -> Bool { queue.current.disableActions }
}
