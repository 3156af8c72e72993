import Testing

@testable import Watchers

/// What players' changes show: tracks, play and pause, the baseline.
struct MediaStateTests {
  static let first = MediaTrack(trackID: "/0", title: "First", artists: ["A"])
  static let second = MediaTrack(trackID: "/1", title: "Second", artists: ["B", "C"])

  @Test func theBaselineShowsNothingAndItsValuesAgainShowNothing() {
    var state = MediaState()
    state.record(":1.5", playback: .playing, track: Self.first)
    #expect(state.change(":1.5", playback: .playing, track: Self.first) == nil)
    #expect(state.change(":1.5", playback: nil, track: Self.first) == nil)
  }

  @Test func aNewTrackOfAPlayingPlayerShows() {
    var state = MediaState()
    state.record(":1.5", playback: .playing, track: Self.first)
    #expect(state.change(":1.5", playback: nil, track: Self.second) == .track(Self.second))
  }

  @Test func aNewTrackWhilePausedShowsNothingUntilPlayShowsIt() {
    var state = MediaState()
    state.record(":1.5", playback: .paused, track: Self.first)
    #expect(state.change(":1.5", playback: nil, track: Self.second) == nil)
    #expect(
      state.change(":1.5", playback: .playing, track: nil) == .playback(.playing, title: "Second"))
  }

  @Test func pauseAndStopShowTheirStatusWithTheTitle() {
    var state = MediaState()
    state.record(":1.5", playback: .playing, track: Self.first)
    #expect(
      state.change(":1.5", playback: .paused, track: nil) == .playback(.paused, title: "First"))
    #expect(state.change(":1.5", playback: .paused, track: nil) == nil)
    #expect(
      state.change(":1.5", playback: .stopped, track: nil) == .playback(.stopped, title: "First"))
  }

  @Test func aPlayerThatAppearsShowsItsFirstPlayingTrack() {
    var state = MediaState()
    state.add(":1.9")
    #expect(state.change(":1.9", playback: .playing, track: Self.first) == .track(Self.first))
  }

  @Test func aPlayerThatAppearsStoppedOrPausedShowsNothingUntilItChanges() {
    var state = MediaState()
    state.add(":1.9")
    #expect(state.change(":1.9", playback: .stopped, track: MediaTrack()) == nil)
    state.add(":2.1")
    #expect(state.change(":2.1", playback: .paused, track: Self.first) == nil)
    #expect(
      state.change(":2.1", playback: .playing, track: nil) == .playback(.playing, title: "First"))
    #expect(state.change(":1.9", playback: nil, track: Self.first) == nil, "stopped still")
    #expect(
      state.change(":1.9", playback: .playing, track: nil) == .playback(.playing, title: "First"))
  }

  @Test func aPlayerNotFollowedShowsNothing() {
    var state = MediaState()
    #expect(state.change(":1.9", playback: .playing, track: Self.first) == nil)
    state.add(":1.9")
    state.remove(":1.9")
    #expect(state.change(":1.9", playback: .playing, track: Self.first) == nil)
    #expect(state.playerNames.isEmpty)
  }

  @Test func withoutTrackIDsANewTitleOrArtistIsANewTrack() {
    var state = MediaState()
    let one = MediaTrack(title: "One", artists: ["A"])
    state.record(":1.5", playback: .playing, track: one)
    let sameTitleOtherArtist = MediaTrack(title: "One", artists: ["B"])
    #expect(
      state.change(":1.5", playback: nil, track: sameTitleOtherArtist)
        == .track(sameTitleOtherArtist))
    let two = MediaTrack(title: "Two", artists: ["B"])
    #expect(state.change(":1.5", playback: nil, track: two) == .track(two))
  }

  @Test func theSameTracksCoverComingAfterItShowsItWhilePlaying() {
    var state = MediaState()
    state.record(":1.5", playback: .playing, track: Self.first)
    var covered = Self.first
    covered.artURL = "file:///c.png"
    #expect(state.change(":1.5", playback: nil, track: covered) == .track(covered))
    #expect(state.change(":1.5", playback: nil, track: covered) == nil, "the same cover again")
    state.record(":1.6", playback: .paused, track: Self.first)
    #expect(state.change(":1.6", playback: nil, track: covered) == nil, "paused")
  }

  @Test func anEmptyTrackShowsNothing() {
    var state = MediaState()
    state.record(":1.5", playback: .playing, track: Self.first)
    #expect(state.change(":1.5", playback: nil, track: MediaTrack()) == nil)
  }

  @Test func theTitleFallsBackToTheFileName() {
    #expect(MediaTrack(url: "file:///music/My%20Song.ogg").displayTitle == "My Song.ogg")
    #expect(MediaTrack(title: "", url: "http://radio/x/stream").displayTitle == "stream")
    #expect(MediaTrack(url: "file:///music/").displayTitle == nil)
    #expect(MediaTrack(url: "file:///music/a%00b").displayTitle == "a%00b")
    #expect(MediaTrack().displayTitle == nil)
  }

  @Test func theBannerSaysTitleAndArtists() {
    #expect(MediaWatch.text(of: Self.second) == "Second — B, C")
    #expect(MediaWatch.text(of: MediaTrack(title: "Alone")) == "Alone")
    #expect(MediaWatch.text(of: MediaTrack(trackID: "/x", artists: ["A"])) == "Unknown track — A")
  }

  @Test func playbackShowsItsIconWithTheTitle() {
    let paused = MediaWatch.toast(for: .playback(.paused, title: "First"))
    #expect(paused.text == "First" && paused.icon == "media-playback-pause-symbolic")
    #expect(paused.accessibleText == "Paused: First")
    let playing = MediaWatch.toast(for: .playback(.playing, title: nil))
    #expect(playing.text == "Playing" && playing.icon == "media-playback-start-symbolic")
    #expect(
      MediaWatch.toast(for: .playback(.stopped, title: nil)).icon == "media-playback-stop-symbolic")
  }

  @Test func aTrackWithoutADrawableCoverIsTextAlone() {
    var track = Self.first
    track.artURL = "http://example.com/cover.png"
    let toast = MediaWatch.toast(for: .track(track))
    #expect(toast.text == "First — A" && toast.icon == nil && toast.style == .banner)
    #expect(toast.timeout == .automatic, "as long as it takes to read")
  }
}
