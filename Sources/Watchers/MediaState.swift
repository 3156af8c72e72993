/// What an MPRIS player says of its track (`Metadata`), as far as a toast
/// needs it: each field nil (or empty) when the player gave none, or gave it
/// with another type than MPRIS's.
package struct MediaTrack: Equatable, Sendable {
  /// `mpris:trackid`.
  package var trackID: String?
  /// `xesam:title`.
  package var title: String?
  /// `xesam:artist`, in order.
  package var artists: [String]
  /// `xesam:url`: where the track is read from.
  package var url: String?
  /// `mpris:artUrl`: the cover's URI.
  package var artURL: String?

  /// A track with these fields.
  package init(
    trackID: String? = nil, title: String? = nil, artists: [String] = [], url: String? = nil,
    artURL: String? = nil
  ) {
    self.trackID = trackID
    self.title = title
    self.artists = artists
    self.url = url
    self.artURL = artURL
  }

  /// Whether the player named no track at all (a stopped player's empty `Metadata`).
  package var isEmpty: Bool { trackID == nil && title == nil && artists.isEmpty && url == nil }

  /// Whether `other` is another track: another `mpris:trackid`, or another
  /// title or artist (a player without track ids, a stream's next title).
  func differs(from other: MediaTrack?) -> Bool {
    guard let other else { return true }
    return trackID != other.trackID || title != other.title || artists != other.artists
  }

  /// The name shown for the track: its title, else the file name of its
  /// URL (percent-decoded), else nil.
  package var displayTitle: String? {
    if let title, !title.isEmpty { return title }
    guard let url, let slash = url.lastIndex(of: "/") else { return nil }
    let name = url[url.index(after: slash)...]
    guard !name.isEmpty else { return nil }
    return MediaCover.decodedText(name) ?? String(name)
  }
}

/// `PlaybackStatus`: what a player is doing.
package enum MediaPlayback: String, Equatable, Sendable {
  /// `Playing`.
  case playing = "Playing"
  /// `Paused`.
  case paused = "Paused"
  /// `Stopped`.
  case stopped = "Stopped"

  /// The theme's icon for the status.
  package var iconName: String {
    switch self {
    case .playing: "media-playback-start-symbolic"
    case .paused: "media-playback-pause-symbolic"
    case .stopped: "media-playback-stop-symbolic"
    }
  }
}

/// What a change of a player's properties shows.
package enum MediaChange: Equatable, Sendable {
  /// A new track while playing: its title, its artists and its cover's URI.
  case track(MediaTrack)
  /// Play, pause or stop, with the track's title when there is one.
  case playback(MediaPlayback, title: String?)
}

/// The players on the bus, by unique name (`:1.42`), and what each said
/// last: turns each change of their properties into what it shows, if
/// anything. Pure: the bus is ``MprisClient``'s.
package struct MediaState: Sendable {
  private struct Player: Sendable {
    var playback: MediaPlayback?
    var track: MediaTrack?
    /// Whether anything was read of it yet: a player that appeared is not.
    var isRead = false
  }

  private var players: [String: Player] = [:]

  /// No player yet.
  package init() {}

  /// The players followed, by unique name.
  package var playerNames: [String] { players.keys.sorted() }

  /// Takes what a player said (`GetAll`'s answer at start, or a change while
  /// the watcher is starting) as the baseline: nothing shows for it.
  package mutating func record(_ player: String, playback: MediaPlayback?, track: MediaTrack?) {
    var state = players[player] ?? Player()
    if let playback { state.playback = playback }
    if let track { state.track = track }
    state.isRead = true
    players[player] = state
  }

  /// A player that appeared: it starts from nothing, so its first reading
  /// shows when it plays (a player started stopped or paused says nothing).
  package mutating func add(_ player: String) {
    if players[player] == nil { players[player] = Player() }
  }

  /// A player that left the bus.
  package mutating func remove(_ player: String) {
    players[player] = nil
  }

  /// Whether `player` is followed.
  package func follows(_ player: String) -> Bool { players[player] != nil }

  /// What `player`'s change shows: its properties `playback` and `track`
  /// (nil: not among those changed). A new track shows while the player
  /// plays (also when it starts playing with it), and again when its cover
  /// comes after it (browsers name the cover in a second change); otherwise
  /// a change of playback shows its icon. The same values again show
  /// nothing, and so does the first reading of a player that appeared,
  /// unless it plays.
  package mutating func change(_ player: String, playback: MediaPlayback?, track: MediaTrack?)
    -> MediaChange?
  {
    guard var state = players[player] else { return nil }
    let old = state
    if let playback { state.playback = playback }
    if let track { state.track = track }
    state.isRead = true
    players[player] = state
    if !old.isRead && state.playback != .playing { return nil }
    let newTrack = track.map { !$0.isEmpty && $0.differs(from: old.track) } ?? false
    let newCover =
      track.map {
        $0.artURL != nil && $0.artURL != old.track?.artURL && !$0.differs(from: old.track)
      }
      ?? false
    let newPlayback = playback != nil && playback != old.playback
    if newTrack || newCover, state.playback == .playing, let track = state.track {
      return .track(track)
    }
    guard newPlayback, let playback = state.playback else { return nil }
    return .playback(playback, title: state.track?.displayTitle)
  }
}
