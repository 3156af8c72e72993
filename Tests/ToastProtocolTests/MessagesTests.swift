import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastModel
import ToastProtocol

struct MessagesTests {
  @Test func aToastSurvivesTheWire() throws {
    let toast = Toast.everyOption
    var decoded = Toast("")
    try decoded.apply(try JSONValue.parse(toast.json.serialized))
    #expect(decoded == toast)
    #expect(toast.json["progress"]?.doubleValue == 42, "progress travels in percent")
  }

  @Test(arguments: [Toast.OutputChoice.automatic, .all, .named("HEADLESS-2")])
  func everyOutputChoiceSurvivesTheWire(_ output: Toast.OutputChoice) throws {
    var toast = Toast("Hi")
    toast.output = output
    var decoded = Toast("")
    try decoded.apply(try JSONValue.parse(toast.json.serialized))
    #expect(decoded.output == output)
  }

  @Test(arguments: [
    OwnerRequest.show(tag: "volume", toast: Toast.everyOption, wait: true),
    .show(tag: "default", toast: Toast("x"), wait: false),
    .show(tag: "first", toast: Toast("y"), wait: true, whenShown: true),
    .hide(tag: "a", after: 0.5), .hide(tag: "a", after: nil), .status(tag: "ünïcödé"), .hold,
    .notifications(.serve(replace: false, rules: .array([]))),
    .notifications(
      .serve(
        replace: true,
        rules: .array([.object(["criteria": .object(["app-name": .string("Firefox")])])]))),
    .notifications(.list()), .notifications(.list(from: 1000)),
    .notifications(.dismiss(id: 7)), .notifications(.dismiss(id: nil)),
    .notifications(.invoke(id: UInt32.max, action: "snooze")),
    .notifications(.invoke(id: 1, action: nil)), .notifications(.focus),
    .notifications(.history()), .notifications(.history(from: 12)), .notifications(.restore),
  ])
  func requestsRoundTrip(_ request: OwnerRequest) throws {
    #expect(try OwnerRequest(decoding: request.encoded) == request)
  }

  @Test func notificationRequestsCarryNoTagAndRefuseBadIds() throws {
    #expect(
      OwnerRequest.notifications(.invoke(id: 3, action: "a")).encoded
        == #"{"action":"a","do":"invoke","id":3,"op":"notifications","v":1}"#)
    for bad in ["0", "-1", "1.5", "4294967296", "\"7\""] {
      #expect(
        throws: MessageError.badField("id", expected: "a notification id from 1 to 4294967295")
      ) {
        try OwnerRequest(
          decoding: #"{"do":"dismiss","id":"# + bad + #","op":"notifications","v":1}"#)
      }
    }
    #expect(throws: MessageError.notAMessage("unknown notifications request")) {
      try OwnerRequest(decoding: #"{"do":"menu","op":"notifications","v":1}"#)
    }
    let listed = OwnerReply.listed(
      [.object(["id": .number(5), "summary": .string("Hi")])], more: true)
    #expect(try OwnerReply(decoding: listed.encoded) == listed)
    #expect(
      try OwnerReply(decoding: OwnerReply.listed([], more: false).encoded)
        == .listed([], more: false))
  }

  @Test func holdIsTheOneRequestWithoutATag() throws {
    #expect(OwnerRequest.hold.encoded == #"{"op":"hold","v":1}"#)
    #expect(throws: MessageError.notAMessage("no tag")) {
      try OwnerRequest(decoding: #"{"op":"status","v":1}"#)
    }
  }

  @Test func anOwnerThatFailsHoldIsOlderThanTheClientUnlessTheClientStartedIt() throws {
    // What an owner without `hold` answers it: a request without a tag.
    let older = try OwnerReply(decoding: #"{"error":"malformed request: no tag","ok":false}"#)
    #expect(Client.isOlderOwner(answeringHold: older, startedHere: false))
    #expect(Client.isOlderOwner(answeringHold: .refused("unknown op"), startedHere: false))
    #expect(!Client.isOlderOwner(answeringHold: older, startedHere: true), "its own failure")
    #expect(!Client.isOlderOwner(answeringHold: .accepted, startedHere: false))
    let error = CommandError.ownerOlder(pid: 4242)
    #expect(error.description.hasPrefix("the toast owner running (pid 4242) is older than"))
    #expect(!error.description.contains("\n") && error.exitCode == ExitCode.error)
  }

  /// ``Toast/everyOption`` with every field away from its default, those newer
  /// than the protocol's first version too.
  static func everyFieldSet() -> Toast {
    var toast = Toast.everyOption
    toast.urgency = .critical
    toast.fullscreen = .delay
    toast.doNotDisturb = .show
    toast.showsCountdown = true
    return toast
  }

  /// The toast of a show request's text, as an owner reads it.
  static func shownToast(_ text: String) throws -> Toast? {
    guard case .show(_, let toast, _, _) = try OwnerRequest(decoding: text) else { return nil }
    return toast
  }

  /// The members of a show request's toast object.
  static func toastMembers(_ text: String) throws -> Set<String> {
    guard case .object(let fields)? = try JSONValue.parse(text)["toast"] else { return [] }
    return Set(fields.keys)
  }

  @Test func aRequestCarriesOnlyTheFieldsAwayFromTheirDefaults() throws {
    let defaults = Toast("")
    let full = Self.everyFieldSet()
    for field in ToastField.all {
      #expect(field.encode(full) != field.encode(defaults), "the test sets \(field.name)")
    }
    // A new toast: an empty object, read back as a new toast.
    let empty = OwnerRequest.show(tag: "a", toast: defaults, wait: false).encoded
    #expect(empty == #"{"op":"show","tag":"a","toast":{},"v":1,"wait":false}"#)
    #expect(try Self.shownToast(empty) == defaults)
    // Each field alone away from its default: that field alone travels, and
    // the owner, starting from a new toast, has the same toast.
    for field in ToastField.all {
      var one = Toast("")
      try one.apply(.object([field.name: field.encode(full)]))
      let request = OwnerRequest.show(tag: "a", toast: one, wait: false).encoded
      #expect(try Self.toastMembers(request) == [field.name], "\(field.name)")
      #expect(try Self.shownToast(request) == one, "\(field.name)")
      // A request with every field (as earlier commands send it) gives the same toast.
      let whole = JSONValue.object([
        "v": .number(1), "op": .string("show"), "tag": .string("a"), "toast": one.json,
        "wait": .bool(false),
      ]).serialized
      #expect(try Self.shownToast(whole) == one, "\(field.name), every field sent")
    }
    // Every field at once, both ways.
    let request = OwnerRequest.show(tag: "a", toast: full, wait: true).encoded
    #expect(try Self.toastMembers(request) == Set(ToastField.all.map(\.name)))
    #expect(try Self.shownToast(request) == full)
    let whole = JSONValue.object([
      "v": .number(1), "op": .string("show"), "tag": .string("a"), "toast": full.json,
      "wait": .bool(true),
    ]).serialized
    #expect(try Self.shownToast(whole) == full)
  }

  @Test func anUpdateRequestIsWrittenInKeyOrderWithItsChangedFields() throws {
    var toast = Toast("Volume 2%", timeout: 0)
    toast.progress = 0.02
    toast.isAnimated = false
    #expect(
      OwnerRequest.show(tag: "bench", toast: toast, wait: false).encoded
        == #"{"op":"show","tag":"bench","toast":{"text":"Volume 2%","timeout":0,"progress":2,"#
        + #""no-animation":true},"v":1,"wait":false}"#)
    #expect(
      OwnerRequest.show(tag: "b", toast: Toast("x"), wait: true, whenShown: true).encoded
        == #"{"op":"show","shown":true,"tag":"b","toast":{"text":"x"},"v":1,"wait":true}"#)
    // The other requests are the text a tree of values serializes to.
    for request in [OwnerRequest.hide(tag: "a", after: 0.5), .hide(tag: "a", after: nil)] {
      guard case .hide(let tag, let after) = request else { continue }
      let tree = JSONValue.object([
        "v": .number(1), "op": .string("hide"), "tag": .string(tag),
        "after": after.map(JSONValue.number) ?? .null,
      ])
      #expect(request.encoded == tree.serialized)
    }
    let status = JSONValue.object(["v": .number(1), "op": .string("status"), "tag": .string("é")])
    #expect(OwnerRequest.status(tag: "é").encoded == status.serialized)
  }

  @Test func decimalsAreSignedDigitsWithOnePoint() {
    for (text, value) in [
      ("3", 3.0), ("-1", -1), ("0.5", 0.5), (".5", 0.5), ("+2.", 2), ("007", 7), ("-.25", -0.25),
    ] {
      #expect(decimal(text) == value, "\(text)")
    }
    for text in [
      "", "+", "-", ".", "+.", "1.2.3", "1e3", "0x10", "inf", "nan", "+-1", "1-", " 1", "1 ",
      "٣", "1,5",
    ] {
      #expect(decimal(text) == nil, "\(text)")
    }
  }

  @Test func theAcceptedReplyIsKnownByItsTextOrParsed() throws {
    #expect(OwnerReply.accepted.encoded == JSONValue.object(["ok": .bool(true)]).serialized)
    #expect(try OwnerReply(decoding: OwnerReply.accepted.encoded) == .accepted)
    #expect(try OwnerReply(decoding: #" { "ok" : true } "#) == .accepted)
  }

  @Test func theFirstBadFieldInNameOrderIsTheOneReported() throws {
    // Several mistakes: the same one named whatever the object's order.
    for text in [
      #"{"style":"toast","layer":1,"margin":-5}"#, #"{"margin":-5,"layer":1,"style":"toast"}"#,
    ] {
      var toast = Toast("before")
      let json = try JSONValue.parse(text)
      do throws(MessageError) {
        try toast.apply(json)
        Issue.record("accepted \(text)")
      } catch {
        #expect(error.description.hasPrefix("layer"), "\(text): \(error)")
      }
      #expect(toast == Toast("before"), "nothing changed")
    }
    var toast = Toast("before")
    let json = try JSONValue.parse(#"{"zzz":1,"margin":-5,"aaa":true,"text":"x"}"#)
    do throws(MessageError) {
      try toast.apply(json)
      Issue.record("accepted")
    } catch {
      #expect(error == .unknownField("aaa"))
    }
    #expect(toast == Toast("before"))
    do throws(MessageError) {
      _ = try OwnerRequest(decoding: #"{"v":1,"zz":1,"op":"show","tag":"a","b":2,"toast":{}}"#)
      Issue.record("accepted")
    } catch {
      #expect(error == .unknownField("b"))
    }
  }

  @Test(arguments: [
    OwnerReply.accepted, .failed("no"), .refused("--markup: bad"), .outcome(.dismissed),
    .outcome(.activated), .outcome(.chose(button: 0)), .outcome(.chose(button: 7)),
    .notice("output 'DP-1' went away; toast hidden"),
    .status(nil, pid: 42, surfaces: 1), .status(Toast("On"), pid: 7, surfaces: 3),
    .status(Toast("On"), pid: 7, surfaces: 1, screenReaders: "connected"),
    .status(
      Toast("On"), pid: 7, surfaces: 3,
      drawn: [
        DrawnSurface(
          output: "DP-1", scale: 1.5, width: 184, height: 144, bufferWidth: 276,
          bufferHeight: 216),
        DrawnSurface(
          output: nil, scale: 1, width: 10, height: 20, bufferWidth: 10, bufferHeight: 20),
      ]),
  ])
  func repliesRoundTrip(_ reply: OwnerReply) throws {
    #expect(try OwnerReply(decoding: reply.encoded) == reply)
  }

  @Test func everyOutcomeIsWrittenByItsName() throws {
    #expect(OwnerReply.outcome(.activated).encoded == #"{"outcome":"activated"}"#)
    #expect(
      ToastOutcome.names == [
        "expired", "hidden", "dismissed", "activated", "replaced", "button", "suppressed",
      ])
  }

  @Test func aButtonOutcomeNamesABoundedIndex() throws {
    #expect(OwnerReply.outcome(.chose(button: 1)).encoded == #"{"button":1,"outcome":"button"}"#)
    for bad in [
      #"{"outcome":"button"}"#, #"{"outcome":"button","button":8}"#,
      #"{"outcome":"button","button":-1}"#, #"{"outcome":"button","button":0.5}"#,
    ] {
      #expect(throws: MessageError.self, "\(bad)") { try OwnerReply(decoding: bad) }
    }
  }

  @Test func checkedTurnsFailuresIntoErrors() throws {
    #expect(try OwnerReply.accepted.checked() == .accepted)
    #expect(throws: CommandError.failed("no")) { try OwnerReply.failed("no").checked() }
    #expect(throws: CommandError.refused("bad")) { try OwnerReply.refused("bad").checked() }
    #expect(CommandError.refused("bad").exitCode == ExitCode.usage)
    #expect(CommandError.failed("no").exitCode == ExitCode.error)
  }

  @Test(arguments: [
    ("", "invalid JSON"), ("[]", "not a wl-toast version 1 message"),
    ("{\"v\":2,\"op\":\"show\",\"tag\":\"a\"}", "not a wl-toast version 1 message"),
    ("{\"v\":1,\"op\":\"show\"}", "no tag"),
    ("{\"v\":1,\"op\":\"show\",\"tag\":\"a b\"}", "tag: expected 1 to 64 printable"),
    ("{\"v\":1,\"op\":\"fly\",\"tag\":\"a\"}", "unknown op"),
    ("{\"v\":1,\"op\":\"show\",\"tag\":\"a\"}", "show without a toast"),
    (
      "{\"v\":1,\"op\":\"hide\",\"tag\":\"a\",\"after\":-1}",
      "after: expected seconds from 0 to 86400, got '-1'"
    ),
    ("{\"v\":1,\"op\":\"show\",\"tag\":\"a\",\"toast\":{\"style\":\"toast\"}}", "style"),
    ("{\"v\":1,\"op\":\"show\",\"tag\":\"a\",\"toast\":{\"colour\":1}}", "unknown field 'colour'"),
    (
      "{\"v\":1,\"op\":\"show\",\"tag\":\"a\",\"toast\":{\"margin\":-5}}", "margin: expected pixels"
    ),
    ("{\"v\":1,\"op\":\"show\",\"tag\":\"a\",\"toast\":{\"output\":\"\"}}", "output: expected"),
    ("{\"v\":1,\"op\":\"show\",\"tag\":\"a\",\"toast\":{\"position\":\"up\"}}", "position"),
    ("{\"v\":1,\"op\":\"show\",\"tag\":\"a\",\"toast\":{\"layer\":1}}", "layer"),
  ])
  func malformedRequestsAreRefused(_ text: String, _ reason: String) {
    do {
      _ = try OwnerRequest(decoding: text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.description.contains(reason), "\(text): \(error)")
    }
  }

  @Test func textFollowLinesAreTextWhateverTheyLookLike() throws {
    var toast = Toast("start")
    try toast.apply(followLine: "plain text line")
    #expect(toast.text == "plain text line")
    // A window title that looks like JSON is still a title.
    let lookalike = "{\"modal\": true, \"dim\": true, \"dismiss\": \"tap\"}"
    try toast.apply(followLine: lookalike)
    #expect(toast.text == lookalike)
    #expect(!toast.isModal && !toast.dimsBackground && toast.dismissal == .none)
  }

  @Test func jsonFollowLinesSetContentFieldsOnly() throws {
    var toast = Toast("start")
    try toast.apply(
      followLine: "  {\"progress\": 30, \"spinner\": true, \"timeout\": null}", format: .json)
    #expect(toast.progress == 0.3)
    #expect(toast.showsSpinner)
    #expect(toast.timeout == .standard)
    #expect(toast.text == "start", "fields not named stay")
    try toast.apply(
      followLine: "{\"text\": \"json\", \"style\": \"banner\", \"progress\": null}", format: .json)
    #expect(toast.text == "json" && toast.style == .banner && toast.progress == nil)
    // Input modes and looks are the user's, not the stream's.
    let notFollowable = ToastField.all.map(\.name).filter { !Toast.followFields.contains($0) }
    #expect(notFollowable.contains("modal") && notFollowable.contains("no-animation"))
    for field in notFollowable {
      let line = "{\"text\": \"taken?\", \"\(field)\": true}"
      #expect(throws: MessageError.notFollowable(field)) {
        try toast.apply(followLine: line, format: .json)
      }
    }
    #expect(toast.text == "json" && !toast.isModal)
    #expect(throws: MessageError.unknownField("colour")) {
      try toast.apply(followLine: "{\"colour\": 1}", format: .json)
    }
    #expect(throws: MessageError.notAMessage("expected a JSON object")) {
      try toast.apply(followLine: "[1]", format: .json)
    }
    #expect(throws: MessageError.self) { try toast.apply(followLine: "plain", format: .json) }
    #expect(MessageError.unknownField("a\nb").description == "unknown field 'a\\nb'")
    #expect(
      MessageError.notFollowable("modal").description
        == "modal: cannot be set by a follow line (only progress, say, spinner, style, text,"
        + " timeout)")
    // What a screen reader says is content: a line may change it.
    try toast.apply(followLine: "{\"say\": \"Volume muted\"}", format: .json)
    #expect(toast.accessibleText == "Volume muted")
    #expect(throws: MessageError.invalidValue(.init(.say, " "))) {
      try toast.apply(followLine: "{\"say\": \" \"}", format: .json)
    }
  }

  @Test func aBadFollowLineChangesNothing() {
    var toast = Toast("kept")
    toast.progress = 0.1
    for line in [
      "{\"progress\": 250}", "{\"progress\": \"high\"}", "{\"text\": 5}", "{\"timeout\": -1}",
      "{broken", "{\"spinner\": \"yes\"}", "{\"text\": \"new\", \"progress\": 201}",
    ] {
      #expect(throws: MessageError.self) { try toast.apply(followLine: line, format: .json) }
    }
    #expect(toast.text == "kept" && toast.progress == 0.1)
  }

  @Test func hugeTextIsCut() throws {
    var toast = Toast("")
    try toast.apply(followLine: String(repeating: "y", count: 10_000))
    #expect(toast.text.unicodeScalars.count == Toast.Limits.textLength)
    #expect(toast.text.hasSuffix("…"))
  }
}

struct RendezvousTests {
  @Test func socketNamesComeFromTheDisplay() throws {
    let plain = try Rendezvous(display: "wayland-1")
    #expect(
      plain.socketPath.hasSuffix("/wl-toast/wayland-1.sock")
        || plain.socketPath.hasSuffix("/wayland-1.sock"))
    #expect(plain.lockPath.hasSuffix("/wayland-1.lock"))
    // A path (or a long name) is hashed: stable, short, no slashes.
    let path = try Rendezvous(display: "/tmp/some/dir/wayland-9")
    let again = try Rendezvous(display: "/tmp/some/dir/wayland-9")
    let other = try Rendezvous(display: "/tmp/other/wayland-9")
    #expect(path.socketPath == again.socketPath)
    #expect(path.socketPath != other.socketPath)
    let name = path.socketPath.split(separator: "/").last!
    #expect(name.hasPrefix("display-") && name.hasSuffix(".sock"))
    #expect(path.socketPath.utf8.count < 108)
  }

  @Test func aDirectorySwappedForALinkIsNotFollowed() throws {
    var template = Array("/tmp/wl-toast-swap-XXXXXX".utf8CString)
    let runtime = String(cString: try #require(mkdtemp(&template)))
    defer { _ = system("rm -rf '\(runtime)'") }
    let rendezvous = try Rendezvous(display: "wayland-9", runtimeDirectory: runtime)
    let elsewhere = runtime + "/elsewhere"
    #expect(mkdir(elsewhere, 0o700) == 0)
    // A link where the directory should be is refused, and nothing is made through it.
    #expect(symlink(elsewhere, rendezvous.directory) == 0)
    #expect(throws: RendezvousError.directoryNotPrivate(rendezvous.directory)) {
      _ = try rendezvous.connectOrListen(until: .now)
    }
    #expect(unlink(rendezvous.directory) == 0)
    // Opened and checked, then swapped for a link: the lock file and the
    // socket still go into the directory that was checked.
    let directory = try rendezvous.openDirectory()
    #expect(rename(rendezvous.directory, runtime + "/moved") == 0)
    #expect(symlink(elsewhere, rendezvous.directory) == 0)
    let lock = directory.openFile("wayland-9.lock", O_RDWR | O_CREAT)?.take() ?? -1
    defer { close(lock) }
    let locked = directory.holds(lock, at: "wayland-9.lock")
    #expect(locked)
    let socket = Glibc.socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
    defer { close(socket) }
    let bound = withUnixAddress(directory.addressPath(of: "wayland-9.sock")) {
      bind(socket, $0, $1)
    }
    #expect(bound == 0)
    #expect(access(runtime + "/moved/wayland-9.lock", F_OK) == 0)
    #expect(access(runtime + "/moved/wayland-9.sock", F_OK) == 0)
    #expect(access(elsewhere + "/wayland-9.lock", F_OK) != 0, "nothing made through the link")
    #expect(access(elsewhere + "/wayland-9.sock", F_OK) != 0, "nothing made through the link")
  }
}

/// The systemd units of socket activation agree with the command.
struct SystemdUnitTests {
  static func unit(_ name: String) throws -> String {
    // Tests/ToastCommandTests/this file → the repository.
    var root = #filePath
    for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
    let fd = open(root + "/systemd/" + name, O_RDONLY)
    guard fd >= 0 else { throw MessageError.notAMessage("no \(name)") }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(fd, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func theSocketUnitListensWhereTheCommandLooks() throws {
    let socketUnit = try Self.unit("wl-toast@.socket")
    let listen = try #require(
      socketUnit.split(separator: "\n").first { $0.hasPrefix("ListenSequentialPacket=") })
    // systemd expands %t to XDG_RUNTIME_DIR and %i to the instance, the display.
    let path = String(listen.dropFirst("ListenSequentialPacket=".count))
      .replacing("%t", with: "/run/user/1000").replacing("%i", with: "wayland-1")
    #expect(
      path
        == (try Rendezvous(display: "wayland-1", runtimeDirectory: "/run/user/1000").socketPath))
    #expect(socketUnit.contains("\nSocketMode=0600\n"))
    #expect(socketUnit.contains("\nDirectoryMode=0700\n"), "the directory the command checks")
    let service = try Self.unit("wl-toast@.service")
    #expect(service.contains("\nEnvironment=WAYLAND_DISPLAY=%i\n"))
    #expect(
      service.contains("\nExecStart=@OWNER@ activated\n"), "the owner program's path, installed")
  }
}
