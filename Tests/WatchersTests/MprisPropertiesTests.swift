import Bus
import CGio
import Testing

@testable import Watchers

/// MPRIS properties read from what players send, well-formed or not.
struct MprisPropertiesTests {
  /// The properties of an `a{sv}` written in GVariant's text format.
  static func properties(_ text: String) throws -> MprisProperties {
    let value = try Variant.parsed(text)
    defer { g_variant_unref(value) }
    return MprisProperties(value)
  }

  @Test func mpvsChangeGivesTheStatusAndTheTrack() throws {
    let read = try Self.properties(
      """
      {'PlaybackStatus': <'Playing'>, 'Metadata': <{'mpris:trackid': <objectpath '/0'>,
       'xesam:title': <'First Song'>, 'xesam:artist': <['Test Artist']>,
       'xesam:url': <'file:///m/1.ogg'>, 'mpris:length': <int64 4000000>,
       'mpris:artUrl': <'file:///m/cover.png'>}>}
      """)
    #expect(read.playback == .playing)
    #expect(
      read.track
        == MediaTrack(
          trackID: "/0", title: "First Song", artists: ["Test Artist"], url: "file:///m/1.ogg",
          artURL: "file:///m/cover.png"))
  }

  @Test func aStatusAloneLeavesTheTrackUnchanged() throws {
    let read = try Self.properties("{'PlaybackStatus': <'Paused'>}")
    #expect(read == MprisProperties(playback: .paused, track: nil))
  }

  @Test func anArtistAsOneStringIsTaken() throws {
    let read = try Self.properties("{'Metadata': <{'xesam:artist': <'Solo'>}>}")
    #expect(read.track?.artists == ["Solo"])
  }

  @Test func anEmptyArtistIsNone() throws {
    let one = try Self.properties("{'Metadata': <{'xesam:artist': <''>}>}")
    #expect(one.track?.artists == [])
    let list = try Self.properties("{'Metadata': <{'xesam:artist': <['', 'Duo']>}>}")
    #expect(list.track?.artists == ["Duo"])
  }

  @Test func valuesOfOtherTypesCountAsAbsent() throws {
    let read = try Self.properties(
      """
      {'PlaybackStatus': <int32 1>, 'Metadata': <{'xesam:artist': <int32 7>,
       'xesam:title': <uint32 3>, 'mpris:trackid': <int32 2>, 'mpris:artUrl': <['a']>,
       'xesam:url': <true>}>}
      """)
    #expect(read.playback == nil)
    #expect(read.track == MediaTrack())
    #expect(read.track?.isEmpty == true)
  }

  @Test func metadataThatIsNoDictionaryIsNoTrack() throws {
    #expect(try Self.properties("{'Metadata': <'a string'>}").track == nil)
    #expect(try Self.properties("{'Metadata': <{'a': 'b'}>}").track == nil)
  }

  @Test func anUnknownStatusWordIsNoStatus() throws {
    #expect(try Self.properties("{'PlaybackStatus': <'Buffering'>}").playback == nil)
  }

  @Test func aValueThatIsNoDictionaryGivesNothing() throws {
    let value = try Variant.parsed("['Metadata']")
    defer { g_variant_unref(value) }
    #expect(MprisProperties(value) == MprisProperties())
  }

  @Test func longTextIsCutAndPutOnOneLine() throws {
    let huge = String(repeating: "x", count: 100_000)
    let read = try Self.properties(
      "{'Metadata': <{'xesam:title': <'\(huge)'>, 'xesam:artist': <['a\\nb\\tc']>}>}")
    let title = try #require(read.track?.title)
    #expect(title.unicodeScalars.count == MprisProperties.fieldLength)
    #expect(title.hasSuffix("…"))
    #expect(read.track?.artists == ["a b c"])
  }

  @Test func manyArtistsAreCut() throws {
    let names = (0..<100).map { "'a\($0)'" }.joined(separator: ", ")
    let read = try Self.properties("{'Metadata': <{'xesam:artist': <[\(names)]>}>}")
    #expect(read.track?.artists.count == MprisProperties.maximumArtists)
    #expect(read.track?.artists.first == "a0")
  }
}
