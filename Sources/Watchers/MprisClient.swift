import Bus
import CGio
import SystemSupport

/// The MPRIS players on the session bus, followed on one ``BusConnection``
/// in the watch's event loop: the players there at start (`ListNames`,
/// `GetNameOwner`, `GetAll`: the baseline), players that appear and leave
/// (`NameOwnerChanged` of `org.mpris.MediaPlayer2.*`), and their properties'
/// changes (`PropertiesChanged` of `org.mpris.MediaPlayer2.Player`), each
/// told by the player's unique name (`:1.42`).
///
/// A player's signals never make a call: a change is read from the signal
/// itself. `GetAll` is asked once as a player appears, and forgotten as it
/// leaves: at most one call waits per player, however often a player takes
/// and drops its name, and one that never answers is heard as no answer
/// after the call limit (no baseline: its changes show).
package final class MprisClient {
  /// What happened on the bus.
  package enum Event: Equatable, Sendable {
    /// A player's properties that show nothing: those of a player found at
    /// start, or changed before its baseline was read.
    case baseline(player: String, MprisProperties)
    /// A player appeared.
    case appeared(player: String)
    /// A player's properties changed (or were first read after it appeared).
    case changed(player: String, MprisProperties)
    /// A player left.
    case left(player: String)
  }

  /// The prefix of every player's well-known name.
  package static let namePrefix = "org.mpris.MediaPlayer2."
  /// The player's interface, whose properties are followed.
  package static let playerInterface = "org.mpris.MediaPlayer2.Player"
  /// The players' object path.
  package static let objectPath = "/org/mpris/MediaPlayer2"
  /// How long the players found at start may take to answer `GetAll`:
  /// after it, their changes show even when one never answered.
  package static let baselinePatience: Duration = .seconds(5)

  private let loop: EventLoop
  private let connection: BusConnection
  /// The unique name of each player's well-known name.
  private var owners: [String: String] = [:]
  /// Players found at start whose `GetAll` has not answered yet, while
  /// their signals are a baseline too (until ``baselinePatience`` runs out).
  private var awaitingBaseline: Set<String> = []
  /// Players found at start whose `GetAll` has not answered yet: its
  /// answer is their baseline however late it comes.
  private var unreadAtStart: Set<String> = []
  /// Whether the players at start are still being listed.
  private var listing = true
  private var patience: EventLoop.Token?
  /// The serial of each player's `GetAll` waiting for an answer.
  private var reading: [String: UInt32] = [:]

  /// Called once the bus has answered `ListNames`: the connection works
  /// (one that fails before stays a failure of the same series of tries).
  package var onReady: (() -> Void)?
  /// Hears each event.
  package var onEvent: ((Event) -> Void)?
  /// Called once when the bus goes away, or did not answer in time.
  package var onClose: (() -> Void)?
  /// Whether the connection closed because the bus did not answer the
  /// handshake or `ListNames` within ``BusConnection/answerLimit``.
  package var closedUnanswered: Bool { connection.closedUnanswered }
  /// How many calls wait for an answer (players' `GetAll`, the bus's).
  package var waitingCalls: Int { connection.waitingCalls }

  /// Connects to the bus at `address`; nil when it does not accept. A
  /// player has `callLimit` to answer `GetAll` (tests give a shorter one).
  package init?(
    address: BusAddress, loop: EventLoop, callLimit: Duration = BusConnection.callLimit
  ) {
    guard let connection = BusConnection(address: address, loop: loop, callLimit: callLimit)
    else { return nil }
    self.loop = loop
    self.connection = connection
    connection.onReady = { [unowned self] in subscribe() }
    connection.onSignal = { [unowned self] signal in handle(signal) }
    connection.onClose = { [unowned self] in
      stopWaiting()
      onClose?()
    }
  }

  deinit { close() }

  /// Leaves the bus without a word to anyone.
  package func close() {
    stopWaiting()
    onReady = nil
    onEvent = nil
    onClose = nil
    connection.abandon()
  }

  private func stopWaiting() {
    if let patience { loop.remove(patience) }
    patience = nil
  }

  /// Whether the connection with the unique name `player` owns a player's name.
  private func follows(_ player: String) -> Bool { owners.values.contains(player) }

  private func subscribe() {
    connection.addMatch(
      "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'")
    connection.addMatch(
      "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
        + "path='\(Self.objectPath)',arg0='\(Self.playerInterface)'")
    connection.call(
      destination: BusConnection.busName, path: "/org/freedesktop/DBus",
      interface: BusConnection.busName, member: "ListNames", limit: .bus
    ) { [unowned self] result in
      if case .success = result { onReady?() }
      let players = (try? result.get()).map(Self.players(inListNames:)) ?? []
      var unanswered = players.count
      func answered() {
        unanswered -= 1
        if unanswered == 0 { listed() }
      }
      if players.isEmpty { listed() }
      for name in players {
        connection.owner(of: name) { [unowned self] result in
          if case .success(let unique) = result, owners[name] == nil {
            owners[name] = unique
            awaitingBaseline.insert(unique)
            unreadAtStart.insert(unique)
            onEvent?(.appeared(player: unique))
            readProperties(of: unique)
          }
          answered()
        }
      }
    }
  }

  /// Every player at start is known: their changes show once their
  /// `GetAll` answered, or once the patience ran out.
  private func listed() {
    listing = false
    guard !awaitingBaseline.isEmpty else { return }
    patience = loop.addTimer(after: Self.baselinePatience) { [unowned self] in
      patience = nil
      awaitingBaseline.removeAll()
    }
  }

  /// Asks `player` for its properties (`GetAll`), unless that call waits
  /// already: a baseline while it is awaited, a change otherwise.
  private func readProperties(of player: String) {
    guard reading[player] == nil else { return }
    let serial = connection.call(
      destination: player, path: Self.objectPath, interface: "org.freedesktop.DBus.Properties",
      member: "GetAll", body: Variant.tuple([Variant.string(Self.playerInterface)])
    ) { [unowned self] result in
      reading[player] = nil
      let properties = (try? result.get()).flatMap(Self.properties(inGetAll:))
      let awaited = awaitingBaseline.remove(player) != nil
      let isBaseline = unreadAtStart.remove(player) != nil || awaited
      if awaitingBaseline.isEmpty && !listing { stopWaiting() }
      guard follows(player), let properties else { return }
      onEvent?(
        isBaseline
          ? .baseline(player: player, properties) : .changed(player: player, properties))
    }
    if let serial { reading[player] = serial }
  }

  private func handle(_ signal: BusMessage) {
    if let change = Self.ownerChange(in: signal) {
      ownerChanged(change.name, old: change.old, new: change.new)
    } else if let player = signal.sender, follows(player),
      let properties = Self.propertiesChange(in: signal)
    {
      let isBaseline = awaitingBaseline.contains(player)
      onEvent?(
        isBaseline
          ? .baseline(player: player, properties) : .changed(player: player, properties))
    }
  }

  /// The players' well-known names in `ListNames`' answer (`as`); none
  /// when it is of another type.
  package static func players(inListNames reply: BusMessage) -> [String] {
    let names = reply.argument(0) { list in
      Variant.has(list, type: "as") ? Variant.children(list, Variant.text) : nil
    }
    return (names ?? []).filter(isPlayer)
  }

  /// Whether `name` is a player's: `org.mpris.MediaPlayer2.*`, but for
  /// playerctld's, which sends every player's changes again as its own
  /// (`playerctl` leaves it out alike).
  package static func isPlayer(_ name: String) -> Bool {
    name.hasPrefix(namePrefix) && name != playerctld && !name.hasPrefix(playerctld + ".")
  }

  /// playerctld's name.
  private static let playerctld = namePrefix + "playerctld"

  /// The player's properties in `GetAll`'s answer (`a{sv}`).
  package static func properties(inGetAll reply: BusMessage) -> MprisProperties? {
    reply.argument(0) { MprisProperties($0) as MprisProperties? }
  }

  /// A player's name, its old owner and its new one (each empty for none),
  /// when `signal` is the bus's `NameOwnerChanged` (`sss`) of a player's name.
  package static func ownerChange(in signal: BusMessage) -> (
    name: String, old: String, new: String
  )? {
    guard signal.interface == "org.freedesktop.DBus", signal.member == "NameOwnerChanged",
      signal.sender == BusConnection.busName, signal.signature == "sss",
      let name = signal.argument(0, Variant.text), isPlayer(name),
      let old = signal.argument(1, Variant.text), let new = signal.argument(2, Variant.text)
    else { return nil }
    return (name, old, new)
  }

  /// The changed properties when `signal` is `PropertiesChanged`
  /// (`sa{sv}as`) of the player's interface at the players' object path.
  package static func propertiesChange(in signal: BusMessage) -> MprisProperties? {
    guard signal.interface == "org.freedesktop.DBus.Properties",
      signal.member == "PropertiesChanged", signal.path == objectPath,
      signal.signature == "sa{sv}as", signal.argument(0, Variant.text) == playerInterface
    else { return nil }
    return signal.argument(1) { MprisProperties($0) as MprisProperties? }
  }

  private func ownerChanged(_ name: String, old: String, new: String) {
    if !old.isEmpty, owners[name] == old {
      owners[name] = nil
      if !follows(old) {
        awaitingBaseline.remove(old)
        unreadAtStart.remove(old)
        if let serial = reading.removeValue(forKey: old) { connection.forget(serial) }
        if awaitingBaseline.isEmpty && !listing { stopWaiting() }
        onEvent?(.left(player: old))
      }
    }
    if !new.isEmpty, owners[name] != new {
      let known = follows(new)
      owners[name] = new
      if !known {
        onEvent?(.appeared(player: new))
        readProperties(of: new)
      }
    }
  }
}
