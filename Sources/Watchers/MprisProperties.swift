import Bus
import CGio
import ToastModel

/// The properties of `org.mpris.MediaPlayer2.Player` a toast needs, read
/// from an `a{sv}` (`GetAll`'s answer, `PropertiesChanged`'s changes) as any
/// player may send them: each value's type is checked before it is read
/// (GLib aborts on a wrong one), a value of another type counts as absent,
/// `xesam:artist` is taken as MPRIS's `as` or as one `s`, and every text is
/// put on one line and cut, however long the player made it.
package struct MprisProperties: Equatable, Sendable {
  /// `PlaybackStatus`; nil when absent or not one of MPRIS's three words.
  package var playback: MediaPlayback?
  /// `Metadata`; nil when absent or no `a{sv}`.
  package var track: MediaTrack?

  /// The longest text kept of a field, in Unicode scalars (the "…" included).
  package static let fieldLength = 512
  /// The most artists kept.
  package static let maximumArtists = 8

  /// Properties with these values.
  package init(playback: MediaPlayback? = nil, track: MediaTrack? = nil) {
    self.playback = playback
    self.track = track
  }

  /// The properties in `dictionary` (an `a{sv}`; another type gives none).
  package init(_ dictionary: OpaquePointer) {
    let properties = VariantDictionary(dictionary)
    playback = properties.value("PlaybackStatus", Variant.text).flatMap(MediaPlayback.init)
    track = properties.value("Metadata") { metadata -> MediaTrack? in
      guard Variant.has(metadata, type: "a{sv}") else { return nil }
      return Self.track(VariantDictionary(metadata))
    }
  }

  /// The track described by a `Metadata` dictionary's entries.
  static func track(_ metadata: VariantDictionary) -> MediaTrack {
    MediaTrack(
      trackID: metadata.value("mpris:trackid", Variant.text).map(line),
      title: metadata.value("xesam:title", Variant.text).map(line),
      artists: metadata.value("xesam:artist", artists) ?? [],
      url: metadata.value("xesam:url", Variant.text).map(line),
      artURL: metadata.value("mpris:artUrl", Variant.text).flatMap { uri in
        // No path within the icon's limit is longer than this, each byte escaped.
        uri.utf8.count <= 3 * Toast.Limits.iconLength + 16 ? uri : nil
      })
  }

  /// `xesam:artist`: an `as` (its first few), or a single `s`; an empty name is none.
  static func artists(_ value: OpaquePointer) -> [String]? {
    let names: [String]?
    if Variant.has(value, type: "s") {
      names = Variant.text(value).map { [line($0)] }
    } else if Variant.has(value, type: "as") {
      names = (0..<min(Variant.count(of: value), maximumArtists)).compactMap { index in
        Variant.child(value, index, Variant.text).map(line)
      }
    } else {
      names = nil
    }
    return names?.filter { !$0.isEmpty }
  }

  /// `text` on one line (line breaks and control characters as spaces),
  /// cut to ``fieldLength``.
  static func line(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars.prefix(fieldLength + 1) {
      result.unicodeScalars.append(Toast.breaksLine(scalar) ? " " : scalar)
    }
    return Toast.truncated(result, limit: fieldLength)
  }
}
