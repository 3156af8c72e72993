import Bus
import CGio
import Notifications
import Testing
import ToastModel

/// A `Notify` call read: its arguments, every hint, and what is refused or cut.
struct NotificationRequestTests {
  @Test func theArgumentsAreReadInTheSpecificationsOrder() throws {
    let read = try request(
      appName: "Firefox", replacesID: 7, appIcon: "firefox", summary: "Download done",
      body: "<b>x.iso</b>", actions: ["default", "Open", "show", "Show in folder"],
      expireTimeout: 3000)
    #expect(read.appName == "Firefox" && read.replacesID == 7 && read.appIcon == "firefox")
    #expect(read.summary == "Download done" && read.body == "<b>x.iso</b>")
    #expect(
      read.actions == [
        NotificationAction(key: "default", label: "Open"),
        NotificationAction(key: "show", label: "Show in folder"),
      ])
    #expect(read.expireTimeout == 3000 && read.hints == NotificationHints())
  }

  @Test func aCallThroughTheWireFormatReadsTheSame() throws {
    let call = notifyCall(
      summary: "Über", body: "a & b", actions: ["ok", "OK"],
      hints: [("urgency", byte(2)), ("category", Variant.string("im.received"))])
    let bytes = try #require(call.encoded(serial: 3))
    let received = try #require(
      BusMessage.decode(bytes))
    #expect(try NotificationRequest(decoding: received) == NotificationRequest(decoding: call))
    #expect(try NotificationRequest(decoding: received).hints.urgency == .critical)
  }

  @Test func aBodyOfAnotherTypeIsRefused() {
    let wrong = BusMessage.call(
      destination: nil, path: "/org/freedesktop/Notifications",
      interface: "org.freedesktop.Notifications", member: "Notify",
      body: Variant.tuple([Variant.string("app"), Variant.int32(0)]))
    #expect(
      throws: NotificationRefusal(
        name: NotificationRefusal.invalidArguments,
        message: "Notify takes (susssasa{sv}i), got (si)")
    ) { try NotificationRequest(decoding: wrong) }
    let none = BusMessage.call(
      destination: nil, path: "/", interface: "org.freedesktop.Notifications", member: "Notify")
    #expect(throws: NotificationRefusal.self) { try NotificationRequest(decoding: none) }
  }

  @Test func everyHintIsRead() throws {
    let hints = try request(hints: [
      ("urgency", byte(0)), ("value", Variant.int32(40)),
      ("x-canonical-private-synchronous", Variant.string("volume")),
      ("transient", Variant.boolean(true)), ("resident", Variant.boolean(true)),
      ("category", Variant.string("email.arrived")),
      ("desktop-entry", Variant.string("org.gnome.Evolution")),
      ("sound-name", Variant.string("message-new-email")),
      ("sound-file", Variant.string("/usr/share/sounds/a.oga")),
      ("suppress-sound", Variant.boolean(true)),
      ("image-path", Variant.string("mail-unread")),
    ]).hints
    var expected = NotificationHints()
    expected.urgency = .low
    expected.value = 40
    expected.stackTag = "volume"
    expected.transient = true
    expected.resident = true
    expected.category = "email.arrived"
    expected.desktopEntry = "org.gnome.Evolution"
    expected.soundName = "message-new-email"
    expected.soundFile = "/usr/share/sounds/a.oga"
    expected.suppressSound = true
    expected.image = .iconName("mail-unread")
    expected.imagePath = "mail-unread"
    #expect(hints == expected)
  }

  @Test func urgencyIsAnyIntegerFromZeroToTwo() throws {
    #expect(try request(hints: [("urgency", byte(1))]).hints.urgency == .normal)
    #expect(try request(hints: [("urgency", Variant.int32(2))]).hints.urgency == .critical)
    #expect(try request(hints: [("urgency", Variant.uint32(0))]).hints.urgency == .low)
    #expect(try request(hints: [("urgency", byte(9))]).hints.urgency == .normal, "unknown")
    #expect(
      try request(hints: [("urgency", Variant.string("critical"))]).hints.urgency == .normal,
      "a string is no urgency")
  }

  @Test func valueKeepsMoreThanAHundredAndDropsANegative() throws {
    #expect(try request(hints: [("value", Variant.int32(150))]).hints.value == 150)
    #expect(try request(hints: [("value", Variant.uint32(0))]).hints.value == 0)
    #expect(try request(hints: [("value", Variant.int32(-5))]).hints.value == nil)
    #expect(try request(hints: [("value", Variant.string("40"))]).hints.value == nil)
    #expect(try request(hints: [("value", g_variant_new_int64(1 << 40))]).hints.value == 1 << 40)
  }

  @Test func theStackTagIsDunstsBeforeCanonicals() throws {
    let both = try request(hints: [
      ("x-canonical-private-synchronous", Variant.string("a")),
      ("x-dunst-stack-tag", Variant.string("b")),
    ])
    #expect(both.hints.stackTag == "b")
    #expect(try request(hints: [("x-dunst-stack-tag", Variant.string(""))]).hints.stackTag == nil)
    #expect(
      try request(hints: [("x-canonical-private-synchronous", Variant.int32(1))]).hints.stackTag
        == nil, "not a string")
  }

  @Test func flagsAreBooleansOrIntegers() throws {
    let read = try request(hints: [
      ("transient", Variant.int32(1)), ("resident", byte(0)),
      ("suppress-sound", Variant.string("true")),
    ])
    #expect(read.hints.transient && !read.hints.resident && !read.hints.suppressSound)
  }

  @Test func tooLongHintStringsAreIgnored() throws {
    let long = String(repeating: "c", count: NotificationRequest.Limits.hintStringBytes + 1)
    let read = try request(hints: [
      ("category", Variant.string(long)), ("desktop-entry", Variant.string("ok")),
    ])
    #expect(read.hints.category == nil && read.hints.desktopEntry == "ok")
  }

  @Test func imagesFollowTheSpecificationsPriority() throws {
    let pixel = imageData(
      width: 1, height: 1, rowstride: 3, hasAlpha: false, channels: 3, data: [1, 2, 3])
    let image = try #require(Toast.Image(width: 1, height: 1, rgba: [1, 2, 3, 255]))
    #expect(
      try request(hints: [("image-path", Variant.string("/a.png")), ("image-data", pixel)])
        .hints.image == .pixels(image))
    #expect(
      try request(hints: [("image_path", Variant.string("b")), ("image-path", Variant.string("a"))])
        .hints.image == .iconName("a"))
    #expect(
      try request(appIcon: "firefox", hints: [("image_path", Variant.string("/b.png"))])
        .hints.image == .file("/b.png"), "image-path goes before app_icon")
    // A value goes into one call (which takes it).
    func iconData() -> OpaquePointer {
      imageData(width: 1, height: 1, rowstride: 4, hasAlpha: true, channels: 4, data: [1, 2, 3, 4])
    }
    #expect(
      try request(appIcon: "firefox", hints: [("icon_data", iconData())]).hints.image == nil,
      "app_icon goes before icon_data")
    let icon = try #require(Toast.Image(width: 1, height: 1, rgba: [1, 2, 3, 4]))
    #expect(try request(hints: [("icon_data", iconData())]).hints.image == .pixels(icon))
    #expect(
      try request(appIcon: "icons/relative.png", hints: [("icon_data", iconData())]).hints.image
        == .pixels(icon), "an app_icon that names no image hides nothing")
  }

  @Test func imageReferencesArePathsFileURIsOrIconNames() {
    #expect(
      NotificationImage(reference: "/usr/share/icons/a.png") == .file("/usr/share/icons/a.png"))
    #expect(NotificationImage(reference: "file:///tmp/a%20b.png") == .file("/tmp/a b.png"))
    #expect(NotificationImage(reference: "file://localhost/tmp/c.svg") == .file("/tmp/c.svg"))
    #expect(NotificationImage(reference: "dialog-information") == .iconName("dialog-information"))
    #expect(NotificationImage(reference: "") == nil)
    #expect(NotificationImage(reference: "icons/a.png") == nil, "relative")
    #expect(NotificationImage(reference: "https://example.com/a.png") == nil)
    #expect(NotificationImage(reference: "file://host/tmp/a.png") == nil, "another host")
    #expect(NotificationImage(reference: "file:///tmp/a%2") == nil, "a broken escape")
    #expect(NotificationImage(reference: "file:///tmp/%00") == nil, "a NUL")
    #expect(NotificationImage(reference: "file:///tmp/%FF") == nil, "not UTF-8")
    #expect(NotificationImage(reference: "a\nb") == nil)
    #expect(NotificationImage(reference: "/" + String(repeating: "a", count: 5000)) == nil)
  }

  @Test func anOddNumberOfActionStringsIsRefused() {
    #expect(
      refusal(actions: ["default", "Open", "snooze"])
        == NotificationRefusal(
          name: NotificationRefusal.invalidArguments,
          message: "actions: 3 strings, not pairs of a key and a label"))
  }

  @Test func tooManyActionsAreRefused() {
    let limit = NotificationRequest.Limits.actions
    #expect(refusal(actions: (0..<limit).flatMap { ["k\($0)", "L\($0)"] }) == nil)
    #expect(
      refusal(actions: (0...limit).flatMap { ["k\($0)", "L\($0)"] })
        == NotificationRefusal(
          name: NotificationRefusal.limitsExceeded, message: "actions: 17, at most 16"))
    #expect(
      refusal(actions: (0..<5000).flatMap { ["k\($0)", "L\($0)"] })?.name
        == NotificationRefusal.limitsExceeded, "10,000 strings")
    #expect(
      refusal(actions: [String(repeating: "k", count: 257), "L"])?.name
        == NotificationRefusal.limitsExceeded, "a long key")
  }

  @Test func tooManyHintsAreRefused() {
    let many = (0...NotificationRequest.Limits.hints).map { ("x-\($0)", Variant.int32(1)) }
    #expect(refusal(hints: many)?.message == "hints: 129, at most 128")
  }

  @Test func longTextsAreCutAtACharactersBoundary() throws {
    let body = String(repeating: "é", count: 600_000)  // 1.2 MB
    let read = try request(
      appName: String(repeating: "a", count: 1000), summary: String(repeating: "s", count: 5000),
      body: body)
    #expect(read.body.utf8.count == NotificationRequest.Limits.bodyBytes)
    #expect(read.body.allSatisfy { $0 == "é" })
    #expect(read.appName.utf8.count == NotificationRequest.Limits.appNameBytes)
    #expect(read.summary.utf8.count == NotificationRequest.Limits.summaryBytes)
    let odd = try request(body: "x" + String(repeating: "é", count: 40_000))
    #expect(odd.body.utf8.count == NotificationRequest.Limits.bodyBytes - 1, "é is two bytes")
  }

  @Test func emptyStringsAreTaken() throws {
    let read = try request(appName: "", summary: "", body: "", actions: ["", ""])
    #expect(read.appName.isEmpty && read.summary.isEmpty && read.body.isEmpty)
    #expect(read.actions == [NotificationAction(key: "", label: "")])
  }

  @Test func aTooLongAppIconIsIgnored() throws {
    let long = "/" + String(repeating: "a", count: NotificationRequest.Limits.pathBytes)
    #expect(try request(appIcon: long).appIcon == "")
  }
}
