import Bus
import CGio
import ToastAccessibility

/// What a bus sends on the owner's connection: the answer to the handshake,
/// then messages, read by ``BusInput`` and handled as ``BusConnection`` and the
/// screen-reader announcer handle them. A method call is answered by an
/// accessible tree of two toasts, the second with two push buttons (their
/// Action interface, DoAction included); every reply, error and signal goes through
/// the readers the announcer applies to what it waits for (any reply may
/// match a call of ours: they all read each one).
///
/// The reader never takes more bytes than it was given, takes at least a
/// message's 16 bytes of header for each message (no loop without progress),
/// and reads the same messages, or fails the same way, whether the bytes come
/// whole or a few at a time. A call that expects an answer gets a reply or an
/// error to its serial, addressed to its sender, which encodes to a message
/// that reads back as that answer (unless the sender is no bus name: then no
/// answer).
func fuzzBus(_ input: [UInt8]) throws(InvariantViolation) {
  let tree = AccessibleTree(applicationName: "wl-toast", version: "1.0")
  tree.busName = ":1.7"
  _ = tree.add(id: 1, name: "Volume 50%")
  _ = tree.add(id: 2, name: "Deleted 3 files", buttons: ["Undo", "Keep"])
  let whole = try read(input, piecesOf: max(input.count, 1)) { message throws(InvariantViolation) in
    try dispatch(message, to: tree)
  }
  let pieces = try read(input, piecesOf: 7) { _ throws(InvariantViolation) in }
  try require(
    pieces == whole, "read whole: \(whole); read 7 bytes at a time: \(pieces)")
}

/// What a reader made of an input: each message's type, serial and size (not
/// where it ends: a message skipped for its size counts as taken when it is
/// framed, which may be before the messages ahead of it are), and the
/// failure that ended the reading, if one did.
private struct Reading: Equatable, CustomStringConvertible {
  var messages: [String] = []
  var failure: BusInput.Failure?

  var description: String {
    "\(messages.count) messages (\(messages.joined(separator: ", "))), "
      + (failure.map { "then \($0)" } ?? "no failure")
  }
}

/// Feeds `input` to a reader `size` bytes at a time, taking messages after
/// each piece as the connection does after each read, and hands each to `handle`.
private func read(
  _ input: [UInt8], piecesOf size: Int,
  _ handle: (BusMessage) throws(InvariantViolation) -> Void
) throws(InvariantViolation) -> Reading {
  var reader = BusInput()
  var reading = Reading()
  var given = 0
  repeat {
    let piece = input[given..<min(given + size, input.count)]
    reader.append(piece)
    given += piece.count
    while true {
      let before = reader.consumed
      let message: BusMessage?
      do {
        message = try reader.next()
      } catch {
        reading.failure = error
        return reading
      }
      try require(
        reader.consumed <= given && reader.pending == given - reader.consumed,
        "took \(reader.consumed) bytes, \(reader.pending) pending, of \(given) given")
      guard let message else {
        try require(
          reader.isAuthenticated || reader.pending <= BusInput.maximumLineLength,
          "waits for a line after \(reader.pending) bytes")
        break
      }
      try require(reader.consumed - before >= 16, "a message in \(reader.consumed - before) bytes")
      reading.messages.append(
        "type \(message.type.rawValue) #\(message.serial) of \(message.bytesRead.count) bytes")
      try handle(message)
    }
  } while given < input.count
  return reading
}

/// Handles one message as the connection dispatches it.
private func dispatch(_ message: BusMessage, to tree: AccessibleTree) throws(InvariantViolation) {
  try requireAgreementWithGIO(message)
  switch message.type {
  case G_DBUS_MESSAGE_TYPE_METHOD_RETURN:
    readReply(message)
  case G_DBUS_MESSAGE_TYPE_ERROR:
    _ = (message.errorName, message.argument(0, Variant.text))
  case G_DBUS_MESSAGE_TYPE_SIGNAL:
    readSignal(message)
  case G_DBUS_MESSAGE_TYPE_METHOD_CALL:
    let answer =
      tree.answer(message)
      ?? message.error("org.freedesktop.DBus.Error.UnknownMethod", "no such method")
    guard message.expectsReply, message.serial != 0 else { return }
    // No answer can be addressed to a sender that is no bus name (a real bus
    // never sends one): GIO's assertion would fail and the answer go out unaddressed.
    if let sender = message.sender, !BusNames.isBusName(sender) {
      try require(answer == nil, "an answer to a call from \(sender), which is no bus name")
      return
    }
    try checkAnswer(answer, to: message)
  default:
    break
  }
}

/// Every reader the announcer applies to a reply: `Hello`'s unique name,
/// `NameHasOwner`, the `org.a11y.Status` properties, `GetAddress`'s bus
/// address, `Embed`'s desktop, `GetRegisteredEvents`' registrations.
private func readReply(_ reply: BusMessage) {
  _ = reply.argument(0, Variant.text).map(BusAddress.init)
  _ = reply.argument(0, Variant.bool)
  _ = reply.argument(0) { Variant.booleans($0) }
  _ = ScreenReaderAnnouncer.desktop(in: reply)
  _ = ScreenReaderAnnouncer.announcementsReachEveryone(
    ScreenReaderAnnouncer.registeredEvents(in: reply))
}

/// The readers the announcer applies to a signal: `NameOwnerChanged`'s name
/// and new owner, `PropertiesChanged`'s interface, changed and invalidated properties.
private func readSignal(_ signal: BusMessage) {
  _ = (signal.interface, signal.member)
  _ = signal.argument(0, Variant.text)
  _ = signal.argument(2, Variant.text)
  _ = signal.argument(1) { Variant.booleans($0) }
  _ = signal.argument(2) { Variant.children($0, Variant.text) }
}

/// Throws unless `answer` is a reply or an error to `call` that the
/// connection can send and a bus can read back.
private func checkAnswer(_ answer: BusMessage?, to call: BusMessage) throws(InvariantViolation) {
  let name = "\(call.interface ?? "-").\(call.member ?? "-") #\(call.serial)"
  guard let answer else { throw InvariantViolation("no answer to \(name)") }
  try require(
    answer.type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN || answer.type == G_DBUS_MESSAGE_TYPE_ERROR,
    "the answer to \(name) is of type \(answer.type.rawValue)")
  try require(
    answer.replySerial == call.serial,
    "the answer to \(name) answers #\(answer.replySerial)")
  try require(
    answer.destination == call.sender,
    "the answer to \(name) from \(call.sender ?? "-") goes to \(answer.destination ?? "-")")
  guard let bytes = answer.encoded(serial: 1) else {
    throw InvariantViolation("the answer to \(name) does not encode")
  }
  var reader = BusInput()
  reader.append(Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8) + bytes)
  let again = try? reader.next()
  try require(
    again?.type == answer.type && again?.replySerial == call.serial && reader.pending == 0,
    "the answer to \(name) does not read back")
}

/// Throws unless GIO, when it reads the same bytes at all, reads the same
/// header as ``BusMessage/decode(_:)`` did, and the same body when both read it.
private func requireAgreementWithGIO(_ message: BusMessage) throws(InvariantViolation) {
  let bytes = message.bytesRead
  var error: UnsafeMutablePointer<GError>?
  let read = bytes.withUnsafeBufferPointer {
    g_dbus_message_new_from_blob(
      UnsafeMutablePointer(mutating: $0.baseAddress), gsize($0.count),
      G_DBUS_CAPABILITY_FLAGS_NONE, &error)
  }
  if let error { g_error_free(error) }
  guard let read else { return }
  defer { g_object_unref(UnsafeMutableRawPointer(read)) }
  func text(_ value: UnsafePointer<CChar>?) -> String? { value.map { String(cString: $0) } }
  let ours = [
    "\(message.type.rawValue) \(message.serial) \(message.replySerial) \(message.expectsReply)",
    message.path, message.interface, message.member, message.errorName, message.destination,
    message.sender, message.signature,
  ]
  let flags = g_dbus_message_get_flags(read).rawValue
  let gios = [
    "\(g_dbus_message_get_message_type(read).rawValue) \(g_dbus_message_get_serial(read))"
      + " \(g_dbus_message_get_reply_serial(read))"
      + " \(flags & G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED.rawValue == 0)",
    text(g_dbus_message_get_path(read)), text(g_dbus_message_get_interface(read)),
    text(g_dbus_message_get_member(read)), text(g_dbus_message_get_error_name(read)),
    text(g_dbus_message_get_destination(read)), text(g_dbus_message_get_sender(read)),
    text(g_dbus_message_get_signature(read)) ?? "",
  ]
  try require(ours == gios, "the header read as \(ours), by GIO as \(gios)")
  // A body either reader refuses is not compared: ours refuses arrays whose
  // elements overrun their length, which GIO reads on past (a bus lets
  // neither through); where both read one, they read the same.
  if let ours = message.body, let theirs = g_dbus_message_get_body(read) {
    try require(
      g_variant_equal(UnsafeRawPointer(ours), UnsafeRawPointer(theirs)) != 0,
      "the body differs from GIO's")
  }
}
