import CGio

/// How a connection asks the bus for a well-known name (`RequestName`'s flags).
package struct NameRequestFlags: OptionSet, Sendable {
  /// The flags as `RequestName` takes them.
  package let rawValue: UInt32

  /// Flags from their number.
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Another connection that asks with ``replaceExisting`` may take the name.
  package static let allowReplacement = NameRequestFlags(rawValue: 1)
  /// Take the name from its owner, if that owner allowed replacement.
  package static let replaceExisting = NameRequestFlags(rawValue: 2)
  /// Fail at once rather than wait in the bus's queue for the name.
  package static let doNotQueue = NameRequestFlags(rawValue: 4)
}

/// The bus's answer to `RequestName`.
package enum NameRequestReply: UInt32, Equatable, Sendable {
  /// The connection owns the name now.
  case primaryOwner = 1
  /// Another owns it; the connection waits in the queue for it.
  case inQueue = 2
  /// Another owns it, and the connection asked not to queue.
  case exists = 3
  /// The connection owned it already.
  case alreadyOwner = 4

  /// Whether the connection owns the name after the request.
  package var owns: Bool { self == .primaryOwner || self == .alreadyOwner }
}

/// What the bus tells a connection about a name it owns: the bus's own
/// `NameAcquired` and `NameLost` signals, sent to the connection alone.
package enum NameOwnership: Equatable, Sendable {
  /// The connection owns the name now.
  case acquired(String)
  /// The connection no longer owns the name (another took it).
  case lost(String)
}

extension BusMessage {
  /// The change of ownership this message tells of, when it is the bus's
  /// `NameAcquired` or `NameLost` signal; nil for any other message.
  package var nameOwnership: NameOwnership? {
    guard type == G_DBUS_MESSAGE_TYPE_SIGNAL, sender == BusConnection.busName,
      interface == BusConnection.busName, let name = argument(0, Variant.text)
    else { return nil }
    switch member {
    case "NameAcquired": return .acquired(name)
    case "NameLost": return .lost(name)
    default: return nil
    }
  }
}

extension BusConnection {
  /// The bus itself: its name, which is also its interface's.
  package static let busName = "org.freedesktop.DBus"

  /// Calls a method of the bus itself; the bus has ``answerLimit`` to answer,
  /// then the connection closes unanswered (``AnswerLimit/bus``).
  private func callBus(
    _ member: String, _ arguments: [OpaquePointer],
    reply: @escaping (Result<BusMessage, CallError>) -> Void
  ) {
    call(
      destination: Self.busName, path: "/org/freedesktop/DBus", interface: Self.busName,
      member: member, body: Variant.tuple(arguments), limit: .bus, reply: reply)
  }

  /// Asks the bus for the well-known name `name` (`RequestName`); `reply`
  /// hears the bus's answer, or why none came (within ``answerLimit``).
  package func requestName(
    _ name: String, flags: NameRequestFlags,
    reply: @escaping (Result<NameRequestReply, CallError>) -> Void
  ) {
    callBus("RequestName", [Variant.string(name), Variant.uint32(flags.rawValue)]) { result in
      reply(
        result.flatMap { message in
          guard let code = message.argument(0, Variant.uint32(of:)),
            let answer = NameRequestReply(rawValue: code)
          else {
            return .failure(CallError(name: "reply", message: "RequestName's answer is no code"))
          }
          return .success(answer)
        })
    }
  }

  /// Gives the well-known name `name` back to the bus (`ReleaseName`), not
  /// waiting for the answer.
  package func releaseName(_ name: String) {
    callBus("ReleaseName", [Variant.string(name)]) { _ in }
  }

  /// The unique name (`:1.5`) of the connection that owns `name` (`GetNameOwner`).
  package func owner(
    of name: String, reply: @escaping (Result<String, CallError>) -> Void
  ) {
    callBus("GetNameOwner", [Variant.string(name)]) { result in
      reply(result.flatMap { Self.answer($0, Variant.text, of: "GetNameOwner") })
    }
  }

  /// The process id of the connection with the unique or well-known name
  /// `name` (`GetConnectionUnixProcessID`).
  package func processID(
    of name: String, reply: @escaping (Result<UInt32, CallError>) -> Void
  ) {
    callBus("GetConnectionUnixProcessID", [Variant.string(name)]) { result in
      reply(
        result.flatMap { Self.answer($0, Variant.uint32(of:), of: "GetConnectionUnixProcessID") })
    }
  }

  /// Who owns `name`, in words: `:1.5 (pid 1234)`, or the unique name alone
  /// when the bus does not tell the process; `reply` hears nil when no one
  /// owns it (or the bus does not answer).
  package func describeOwner(of name: String, reply: @escaping (String?) -> Void) {
    owner(of: name) { [weak self] result in
      guard case .success(let unique) = result, let self else {
        reply(nil)
        return
      }
      processID(of: unique) { result in
        switch result {
        case .success(let pid): reply("\(unique) (pid \(pid))")
        case .failure: reply(unique)
        }
      }
    }
  }

  /// Sends a signal from `path` (`body` a tuple, or nil for none) to whoever listens.
  @discardableResult
  package func emit(path: String, interface: String, member: String, body: OpaquePointer?)
    -> Bool
  {
    send(BusMessage.signal(path: path, interface: interface, member: member, body: body)) != nil
  }

  /// The first argument of a reply, read by `read`; a failure when it has none of that type.
  private static func answer<Value>(
    _ message: BusMessage, _ read: (OpaquePointer) -> Value?, of member: String
  ) -> Result<Value, CallError> {
    guard let value = message.argument(0, read) else {
      return .failure(CallError(name: "reply", message: "\(member)'s answer is malformed"))
    }
    return .success(value)
  }
}
