/// A toast's timeout as it runs: its full length, when its current run
/// started, and what holds it paused.
///
/// Pure: the caller tells it the time (the session's clock, in seconds) and
/// what starts and stops holding the toast, and sets its timer from
/// ``deadline``. Every pause ends the same way: once nothing holds the toast
/// any more, the timeout starts again from its full length (as dunst does
/// after idleness), never from what was left.
///
/// Idleness holds a timeout once: when input comes back the toast has been
/// in front of its reader, and runs its full length from then even if the
/// user goes idle again before it ends (with a threshold shorter than the
/// timeout). The pointer and fingers hold it each time they rest on it.
struct ToastTimeout: Equatable {
  /// What holds a timeout paused.
  enum PauseReason: Hashable, CaseIterable {
    /// No input on the seat for the toast's idle threshold.
    case idle
    /// The pointer rests on the toast's box.
    case pointer
    /// A finger rests on the toast's box.
    case touch
  }

  /// What a change did to the timeout, for whoever draws or reports it.
  enum Change: Equatable {
    /// It stopped running (the first reason to pause came).
    case paused
    /// It runs again from its full length, from ``ToastTimeout/startedAt``.
    case restarted
  }

  /// The full length, in seconds (more than 0).
  let length: Double
  /// When the current run started (or starts: the end of the entry), in
  /// the session clock's seconds; while paused, when the last run started.
  private(set) var startedAt: Double
  /// What holds it paused now; empty while it runs.
  private(set) var pauses: Set<PauseReason> = []
  /// Whether idleness has held it and ended: it does not hold it again.
  private(set) var idleSpent = false

  /// A timeout of `length` seconds running from `start`, held by `pauses`
  /// (those of the timeout it replaces, for an update in place).
  init(length: Double, startingAt start: Double, pauses: Set<PauseReason> = []) {
    self.length = length
    startedAt = start
    self.pauses = pauses
  }

  /// Whether something holds it: it does not run out.
  var isPaused: Bool { !pauses.isEmpty }

  /// When it runs out; nil while paused.
  var deadline: Double? { isPaused ? nil : startedAt + length }

  /// `reason` holds it from now; `.paused` when it was running. Idleness
  /// that has held it once and ended does not hold it again.
  mutating func pause(_ reason: PauseReason) -> Change? {
    guard reason != .idle || !idleSpent else { return nil }
    let wasRunning = !isPaused
    pauses.insert(reason)
    return wasRunning ? .paused : nil
  }

  /// `reason` no longer holds it at `now`; `.restarted` when nothing else
  /// does, and it runs again from its full length from `now` (or from its
  /// start, when that is still to come).
  mutating func resume(_ reason: PauseReason, at now: Double) -> Change? {
    guard pauses.remove(reason) != nil else { return nil }
    if reason == .idle { idleSpent = true }
    guard pauses.isEmpty else { return nil }
    startedAt = max(startedAt, now)
    return .restarted
  }

  /// `reason` holds it or not, as `holds` says, at `now`.
  mutating func set(_ reason: PauseReason, _ holds: Bool, at now: Double) -> Change? {
    holds ? pause(reason) : resume(reason, at: now)
  }
}
