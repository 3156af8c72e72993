import Testing
import ToastProtocol

@testable import ToastOwner

/// `wl-toast notifications list`'s objects and pages as the owner makes them.
@Suite struct NotificationListingTests {
  /// A notification's object as the server lists it.
  static func object(
    id: Int, summary: String = "s", body: String = "b", actions: [String: String] = [:]
  ) -> JSONValue {
    .object([
      "id": .number(Double(id)), "app": .string("app"), "summary": .string(summary),
      "body": .string(body), "urgency": .string("normal"),
      "actions": .object(actions.mapValues(JSONValue.string)), "tag": .null,
      "category": .null, "shown": .bool(false),
    ])
  }

  /// The longest a notification's texts can be (4096 characters each, 16
  /// actions with keys and labels of 256 bytes), all of U+0001, six bytes
  /// each in JSON.
  static let escapedWorst: JSONValue = {
    let control = "\u{1}"
    var actions: [String: String] = [:]
    for number in 0..<16 {
      let key = String(format2(number)) + String(repeating: control, count: 254)
      actions[key] = String(repeating: control, count: 256)
    }
    return object(
      id: 7, summary: String(repeating: control, count: 4096),
      body: String(repeating: control, count: 4096), actions: actions)
  }()

  static func format2(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

  @Test func anObjectOfEscapedTextIsCutToFitOneReply() throws {
    #expect(Self.escapedWorst.serialized.utf8.count > maximumMessageSize, "too long uncut")
    let capped = NotificationListing.capped(Self.escapedWorst)
    #expect(capped.serialized.utf8.count <= NotificationListing.objectLimit)
    // The body went first, then the summary; the labels as far as needed;
    // the keys and the id whole.
    let body = try #require(capped["body"]?.stringValue)
    let summary = try #require(capped["summary"]?.stringValue)
    #expect(body == "…")
    #expect(summary.hasSuffix("…") && summary.unicodeScalars.count < 4096)
    guard case .object(let actions)? = capped["actions"],
      case .object(let original)? = Self.escapedWorst["actions"]
    else {
      Issue.record("no actions")
      return
    }
    #expect(actions.keys.sorted() == original.keys.sorted())
    #expect(actions.values.allSatisfy { $0.stringValue?.unicodeScalars.count == 256 })
    #expect(capped["id"] == .number(7) && capped["app"] == .string("app"))
    // And the page of it is one reply the command reads whole.
    let reply = NotificationListing.page(of: [Self.escapedWorst], from: 0)
    #expect(reply.encoded.utf8.count + 1 <= maximumMessageSize)
    #expect(try OwnerReply(decoding: reply.encoded) == .listed([capped], more: false))
  }

  @Test func labelsAreCutOnceTheBodyAndSummaryAreNotEnough() throws {
    let control = "\u{1}"
    var actions: [String: String] = [:]
    for number in 0..<60 {
      actions[Self.format2(number)] = String(repeating: control, count: 256)
    }
    let object = Self.object(
      id: 1, summary: "s", body: String(repeating: control, count: 100), actions: actions)
    let capped = NotificationListing.capped(object)
    #expect(capped.serialized.utf8.count <= NotificationListing.objectLimit)
    // Too short to be cut: as it is.
    #expect(capped["summary"] == .string("s"))
    #expect(capped["body"] == .string("…"))
    guard case .object(let labels)? = capped["actions"] else {
      Issue.record("no actions")
      return
    }
    // In the order of their keys: the first ones cut, the last ones whole.
    #expect(labels["00"] == .string("…"))
    #expect(labels["59"] == .string(String(repeating: control, count: 256)))
    #expect(labels.count == 60)
  }

  @Test func anObjectWithinTheLimitIsListedAsItIs() {
    let plain = Self.object(
      id: 3, summary: String(repeating: "ü", count: 4096),
      body: String(repeating: "界", count: 4096), actions: ["default": "Open"])
    #expect(NotificationListing.capped(plain) == plain)
  }

  @Test func aPageReadsOnlyTheObjectsItHolds() {
    var made = 0
    let notifications = (0..<480).lazy.map { number -> JSONValue in
      made += 1
      return Self.object(id: number + 1, body: String(repeating: "x", count: 8000))
    }
    guard case .listed(let page, let more) = NotificationListing.page(of: notifications, from: 470)
    else {
      Issue.record("not a page")
      return
    }
    #expect(page.count == 7 && more, "7 of 8 KB in a page of 64 KiB")
    #expect(page.first?["id"] == .number(471))
    #expect(made == 8, "the page's own objects and the one that did not fit")
    guard case .listed(let last, let end) = NotificationListing.page(of: notifications, from: 477)
    else {
      Issue.record("not a page")
      return
    }
    #expect(last.count == 3 && !end)
  }

  @Test func aLongListIsCutIntoPagesThatEachFitAReply() {
    let body = String(repeating: "x", count: 4000)
    let notifications = (1...100).map {
      JSONValue.object(["id": .number(Double($0)), "body": .string(body)])
    }
    var seen: [JSONValue] = []
    var pages = 0
    while true {
      let reply = NotificationListing.page(of: notifications, from: seen.count)
      guard case .listed(let page, let more) = reply else {
        Issue.record("not a page: \(reply)")
        return
      }
      #expect(reply.encoded.utf8.count <= maximumMessageSize)
      seen += page
      pages += 1
      if !more { break }
    }
    #expect(seen == notifications && pages > 1)
    #expect(NotificationListing.page(of: notifications, from: 100) == .listed([], more: false))
  }
}
