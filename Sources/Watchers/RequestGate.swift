/// One question to a server kept in flight at a time, however many events
/// ask for it: an event while the answer is awaited marks it dirty, and the
/// answer asks once more. A burst of N events costs at most two questions
/// and gives at most two answers, the last one current.
package struct RequestGate: Equatable, Sendable {
  /// Whether a question is awaiting its answer.
  package private(set) var inFlight = false
  /// Whether an event came since the question in flight was asked.
  package private(set) var dirty = false

  /// A gate with nothing in flight.
  package init() {}

  /// An event asks for the question: true when it is to be asked now,
  /// false when one is in flight (it is asked again when that one ends).
  package mutating func request() -> Bool {
    if inFlight {
      dirty = true
      return false
    }
    inFlight = true
    return true
  }

  /// The answer came: nothing is in flight; true when an event came
  /// meanwhile, so that the question is to be asked again.
  package mutating func answered() -> Bool {
    defer { self = RequestGate() }
    return dirty
  }

  /// The connection went away: nothing is in flight.
  package mutating func reset() { self = RequestGate() }
}
