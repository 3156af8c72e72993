import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing

/// `--sound` heard through a PulseAudio server of the test's own (a null
/// sink whose monitor `parec` records), on headless sway: a toast's sound
/// after its first frame, silence without one, do-not-disturb, no server,
/// bad sounds, and notifications' sound hints.
///
/// The recording is read while it grows: sound is waited for until it is
/// heard (within a bound long enough for a loaded machine, where libcanberra
/// takes its time to start); silence is a fixed stretch of recording after
/// the toast's first frame (``silenceWindow``, counted past the recording's
/// delay): far longer than a sound takes to start when one is asked for
/// (about 10 ms after the frame), which the same tests then hear in the same
/// recording (so the recording is shown to work).
@Suite(.serialized)
struct SoundTests {
  /// Seconds of recording after a frame in which no sound may start.
  static let silenceWindow = 3.0
  /// Seconds a sound may take to be heard.
  static let soundPatience = 30.0

  /// A sway desk whose commands use `server` (or none there).
  static func desk(_ environment: [String: String]) throws -> Desk<HeadlessSway> {
    let desk = try deskWithOwnRuntime()
    desk.environment.merge(environment) { $1 }
    return desk
  }

  /// Waits until `recording` has a sound in it from `start` seconds in.
  static func expectHeard(_ recording: SoundRecording, from start: Double, _ what: String) throws {
    try waitUntil(
      "\(what) to be heard (peak \(recording.peak(from: start)))", timeout: soundPatience
    ) {
      recording.heardSound(from: start)
    }
  }

  /// Seconds by which a recording's length may trail the time: the server
  /// hands an idle null sink's monitor over in chunks of up to 2 s.
  static let recordingDelay = 2.0

  /// Called right after the command that showed the toast has returned (its
  /// first frame on screen): records until `silenceWindow` seconds past that
  /// frame are in the recording, whatever its delay, and expects no sound in
  /// it from `start` (taken before the command) on.
  static func expectSilence(_ recording: SoundRecording, from start: Double, _ what: String) throws
  {
    let shown = recording.seconds
    try waitUntil("\(silenceWindow) s of recording after \(what)", timeout: soundPatience) {
      recording.seconds >= shown + recordingDelay + silenceWindow
    }
    #expect(
      !recording.heardSound(from: start),
      "\(what): silence (peak \(recording.peak(from: start)))")
  }

  @Test func aSoundIsHeardAfterTheFirstFrameAndAToastWithoutOneIsSilent() throws {
    let server = try SoundServer()
    let trace = server.directory + "/trace"
    let desk = try Self.desk(server.clientEnvironment.merging(["WL_TOAST_TRACE": trace]) { $1 })
    let recording = try server.record()
    // Without a sound: silence, and status says nothing of a sound.
    let quiet = recording.seconds
    #expect(try desk.runToEnd(["--timeout", "0", "--tag", "quiet", "Quiet"]).status == 0)
    #expect(try desk.status(tag: "quiet")?.sound == nil)
    try Self.expectSilence(recording, from: quiet, "a toast without a sound")
    // With one: heard, and it started after the toast's first frame.
    let start = recording.seconds
    let shown = try desk.runToEnd(
      ["--timeout", "0", "--tag", "ding", "--sound", "message-new-instant", "Ding"])
    #expect(shown.status == 0 && shown.errors.isEmpty, "\(shown.errors)")
    try Self.expectHeard(recording, from: start, "message-new-instant")
    try waitUntil("status to say the sound played", timeout: Self.soundPatience) {
      try desk.status(tag: "ding")?.sound == "played"
    }
    let lines = String(decoding: readFile(trace) ?? [], as: UTF8.self).split(separator: "\n")
    let frame = lines.first { $0.hasSuffix(" ding") && !$0.contains(" sound ") }
    let sound = lines.first { $0.hasSuffix(" sound ding") }
    let frameTime = try #require(
      frame.flatMap { $0.split(separator: " ").first }.flatMap { UInt64($0) })
    let soundTime = try #require(
      sound.flatMap { $0.split(separator: " ").first }.flatMap { UInt64($0) })
    #expect(frameTime < soundTime, "the sound starts after the first frame")
    // An update in place is silent, unless it asks.
    // The sound's end is in the recording (it trails the time) before the next window.
    let played = recording.seconds
    try waitUntil("the sound's end in the recording", timeout: Self.soundPatience) {
      recording.seconds >= played + Self.recordingDelay + 0.5
    }
    let updated = recording.seconds
    #expect(
      try desk.runToEnd(["--timeout", "0", "--tag", "ding", "--sound", "message-new-instant", "2"])
        .status == 0)
    try Self.expectSilence(recording, from: updated, "an update in place")
    let again = recording.seconds
    #expect(
      try desk.runToEnd([
        "--timeout", "0", "--tag", "ding", "--sound", "message-new-instant", "--sound-on-update",
        "3",
      ]).status == 0)
    try Self.expectHeard(recording, from: again, "an update with --sound-on-update")
  }

  @Test func aSoundIsHeardThroughPipeWiresPulseServer() throws {
    let server = try SoundServer(.pipeWire)
    let desk = try Self.desk(server.clientEnvironment)
    let recording = try server.record()
    let quiet = recording.seconds
    #expect(try desk.runToEnd(["--timeout", "0", "--tag", "quiet", "Quiet"]).status == 0)
    try Self.expectSilence(recording, from: quiet, "a toast without a sound, through PipeWire")
    let start = recording.seconds
    let shown = try desk.runToEnd(["--timeout", "0", "--sound", "message-new-instant", "Ding"])
    #expect(shown.status == 0 && shown.errors.isEmpty, "\(shown.errors)")
    try Self.expectHeard(recording, from: start, "message-new-instant through PipeWire")
  }

  @Test func theOwnerIsIdleOnceItsSoundHasPlayed() throws {
    let server = try SoundServer()
    let desk = try Self.desk(server.clientEnvironment)
    let recording = try server.record()
    #expect(
      try desk.runToEnd([
        "--linger", "60", "--timeout", "0.5", "--sound", "message-new-instant", "Ding",
      ]).status == 0)
    try Self.expectHeard(recording, from: 0, "message-new-instant")
    let owner = try #require(desk.ownerProcesses().first)
    try waitUntil("the toast to go") { try desk.status() == nil }
    // libcanberra's context, libpulse's thread and its connection went with
    // the sound's end: the owner's threads sleep.
    try expectIdle(owner)
  }

  @Test func doNotDisturbSilencesANormalToastAndACriticalOneIsHeard() throws {
    let server = try SoundServer()
    let desk = try Self.desk(server.clientEnvironment)
    #expect(try desk.runToEnd(["dnd", "on"]).status == 0)
    let recording = try server.record()
    let start = recording.seconds
    let normal = try desk.runToEnd(["--sound", "message-new-instant", "Normal"])
    #expect(normal.status == 0)
    try Self.expectSilence(recording, from: start, "a normal toast under do-not-disturb")
    let critical = recording.seconds
    #expect(
      try desk.runToEnd([
        "--urgency", "critical", "--timeout", "0", "--sound", "dialog-warning", "Battery low",
      ]).status == 0)
    try Self.expectHeard(recording, from: critical, "a critical toast under do-not-disturb")
  }

  @Test func withoutASoundServerTheToastShowsAndSaysWhy() throws {
    let desk = try Self.desk(SoundServer.absentEnvironment)
    let shown = try desk.runToEnd(["--timeout", "0", "--sound", "message-new-instant", "Hi"])
    #expect(shown.status == 0 && shown.errors.isEmpty, "\(shown.errors)")
    try desk.waitUntilDrawn()
    var status: ToastStatus?
    try waitUntil(
      "status to say why no sound played (\(lastSeen(status?.soundProblem)))",
      timeout: Self.soundPatience
    ) {
      status = try desk.status()
      return status?.sound == "failed"
    }
    #expect(
      status?.soundProblem?.hasPrefix("no sound server at unix:/nonexistent/") == true,
      "\(lastSeen(status?.soundProblem))")
    // A waiting command prints it, one line, and exits as it would, even
    // when its toast ends first.
    let waited = try desk.runToEnd([
      "--tag", "w", "--timeout", "0.1", "--wait", "--sound", "message-new-instant", "Hi",
    ])
    #expect(waited.status == 0, "\(waited.errors)")
    let lines = waited.errors.split(separator: "\n")
    #expect(
      lines.count == 1 && lines.first?.hasPrefix("wl-toast: no sound server at ") == true,
      "\(waited.errors)")
  }

  @Test func statusKeepsWhyTheSoundOfAToastThatHasGoneFailed() throws {
    let desk = try Self.desk(SoundServer.absentEnvironment)
    let shown = try desk.runToEnd([
      "--linger", "60", "--tag", "gone", "--timeout", "0.1", "--wait", "--sound",
      "message-new-instant", "Hi",
    ])
    #expect(shown.status == 0 && shown.errors.contains("no sound server at "), "\(shown.errors)")
    let status = try desk.runToEnd(["status", "--tag", "gone"])
    #expect(status.status == 1, "no toast shows with the tag")
    let gone = try ToastStatus(line: status.output)
    #expect(
      gone.sound == "failed" && gone.soundProblem?.hasPrefix("no sound server at ") == true,
      "\(status.output)")
    // Until the tag shows again.
    #expect(try desk.runToEnd(["--tag", "gone", "--timeout", "0", "Again"]).status == 0)
    #expect(try desk.status(tag: "gone")?.sound == nil)
  }

  @Test func withoutTheDriverVariableNoServerIsToldAsAUserSeesIt() throws {
    // As a user runs it: libcanberra picks its driver. Nothing of the
    // machine's is reachable: a private home and runtime directory, and
    // PULSE_SERVER naming a socket that is not there.
    let desk = try Self.desk([:])
    let home = desk.sway.runtimeDirectory + "/home"
    #expect(mkdir(home, 0o700) == 0)
    desk.environment["HOME"] = home
    desk.environment["CANBERRA_DRIVER"] = nil
    #expect(desk.environment["PULSE_SERVER"]?.hasPrefix("unix:/nonexistent/") == true)
    let shown = try desk.runToEnd([
      "--tag", "user", "--timeout", "0.1", "--wait", "--sound", "message-new-instant", "Hi",
    ])
    #expect(shown.status == 0, "\(shown.errors)")
    let lines = shown.errors.split(separator: "\n")
    #expect(
      lines.count == 1
        && (lines[0].hasPrefix("wl-toast: no sound server at unix:/nonexistent/")
          || lines[0] == "wl-toast: no sound driver (is libcanberra-pulse installed?)"),
      "\(shown.errors)")
  }

  @Test func theOwnerStaysPastItsLingerForASoundThatHasNotStarted() throws {
    let server = try SoundServer()
    let desk = try Self.desk(server.clientEnvironment)
    server.pause()
    defer { server.resume() }
    // The toast goes at once and the owner lingers 3 s; its sound is given
    // up on 5 s after it was asked for, which only an owner still there tells
    // (for 3 s more: time for a loaded machine's status commands to ask).
    let shown = try desk.runToEnd(
      [
        "--tag", "s", "--linger", "3", "--timeout", "0.1", "--sound", "message-new-instant", "S",
      ], timeout: 10)
    #expect(shown.status == 0 && shown.errors.isEmpty, "\(shown.errors)")
    var said = ""
    try waitUntil("status to say the sound was given up on (\(said))", timeout: 30) {
      said = try desk.runToEnd(["status", "--tag", "s"]).output
      return said.contains("the sound server did not answer within 5 s")
    }
    try waitUntil("the owner to go once the sound is given up on", timeout: 30) {
      desk.ownerProcesses().isEmpty
    }
  }

  @Test func aStoppedSoundServerHoldsUpNoToastAndALaterSoundPlays() throws {
    let server = try SoundServer()
    let desk = try Self.desk(server.clientEnvironment)
    let recording = try server.record()
    server.pause()
    defer { server.resume() }
    // Its waiting command hears that the sound did not start, after the toast's end.
    let waited = try desk.runToEnd(
      ["--linger", "60", "--tag", "w", "--timeout", "0.1", "--wait", "--sound", "bell", "W"],
      timeout: 30)
    #expect(
      waited.status == 0 && waited.errors.contains("the sound server did not answer"),
      "\(waited.errors)")
    // Toasts keep showing, the owner answers, and status says why there was no sound.
    for tag in ["a", "b"] {
      let shown = try desk.runToEnd(
        ["--tag", tag, "--timeout", "0", "--sound", "message-new-instant", tag], timeout: 10)
      #expect(shown.status == 0 && shown.errors.isEmpty, "\(shown.errors)")
    }
    var status: ToastStatus?
    try waitUntil("status to say the sound failed (\(lastSeen(status?.soundProblem)))", timeout: 30)
    {
      status = try desk.status(tag: "b")
      return status?.sound == "failed"
    }
    #expect(
      status?.soundProblem?.contains("the sound server") == true,
      "\(lastSeen(status?.soundProblem))")
    // Going on, the server plays a later sound.
    server.resume()
    let start = recording.seconds
    let later = try desk.runToEnd(
      ["--tag", "later", "--timeout", "0", "--sound", "message-new-instant", "Later"])
    #expect(later.status == 0 && later.errors.isEmpty, "\(later.errors)")
    try Self.expectHeard(recording, from: start, "a sound after the server went on")
  }

  @Test func badSoundsAreLeftOutWithOneLineAndNeverHang() throws {
    let server = try SoundServer()
    let desk = try Self.desk(server.clientEnvironment)
    let files = server.directory
    // A FIFO nobody writes, a directory, a sparse 1 GiB file, a text file.
    #expect(mkfifo(files + "/fifo", 0o600) == 0)
    let big = open(files + "/big.wav", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    #expect(big >= 0 && ftruncate(big, 1 << 30) == 0)
    close(big)
    try writeFile(files + "/text.oga", "not a sound\n")
    let leftOut = [
      (files + "/fifo", "is a FIFO"), (files, "is a directory"),
      (files + "/big.wav", "is larger than 16 MiB"), (files + "/missing.oga", "No such file"),
    ]
    for (path, reason) in leftOut {
      let result = try desk.runToEnd(
        ["--tag", "bad", "--timeout", "0", "--sound", path, "Bad"], timeout: 30)
      #expect(result.status == 0, "\(path): \(result.errors)")
      let lines = result.errors.split(separator: "\n")
      #expect(
        lines.count == 1 && lines[0].hasPrefix("wl-toast: sound file \(path) ")
          && lines[0].contains(reason) && lines[0].hasSuffix("; the toast shows without it"),
        "\(path): \(result.errors)")
      #expect(try desk.status(tag: "bad")?.sound == "failed")
    }
    // Found out as it plays: a file that is no sound, a name not in the theme.
    let late = [
      (files + "/text.oga", "is not a sound libcanberra can play"),
      ("no-such-sound", "sound 'no-such-sound' not found in the sound theme freedesktop (in "),
    ]
    for (sound, reason) in late {
      let result = try desk.runToEnd(
        ["--tag", "late", "--timeout", "5", "--wait", "--sound", sound, "Late"], timeout: 30)
      #expect(result.status == 0, "\(sound): \(result.errors)")
      #expect(
        result.errors.split(separator: "\n").count == 1 && result.errors.contains(reason),
        "\(sound): \(result.errors)")
    }
    // A name that cannot be one: a usage error.
    let empty = try desk.runToEnd(["--sound", "", "Empty"])
    #expect(empty.status == 64 && empty.errors.hasPrefix("wl-toast: --sound: "), "\(empty.errors)")
  }

  @Test func aNotificationsSoundHintIsHeardAndSuppressSoundSilencesIt() throws {
    let server = try SoundServer()
    let notifications = try NotificationServerTests.Server(environment: server.clientEnvironment)
    let recording = try server.record()
    let suppressed = recording.seconds
    _ = try notifications.notify([
      "-h", "string:sound-name:message-new-instant", "-h", "boolean:suppress-sound:true",
      "Quiet",
    ])
    try Self.expectSilence(recording, from: suppressed, "a notification with suppress-sound")
    let start = recording.seconds
    _ = try notifications.notify(["-h", "string:sound-name:message-new-instant", "Mail"])
    try Self.expectHeard(recording, from: start, "a notification's sound-name")
  }

  @Test func aNotificationHeldBackByDoNotDisturbIsSilentThenAndWhenItShows() throws {
    let server = try SoundServer()
    let notifications = try NotificationServerTests.Server(environment: server.clientEnvironment)
    #expect(try notifications.desk.runToEnd(["dnd", "on"]).status == 0)
    let recording = try server.record()
    let held = recording.seconds
    _ = try notifications.notify(["-t", "0", "-h", "string:sound-name:message-new-instant", "Held"])
    try waitUntil("the notification held back") {
      try notifications.list().map { $0["shown"]?.boolValue } == [false]
    }
    try Self.expectSilence(recording, from: held, "a notification held back by do-not-disturb")
    let critical = recording.seconds
    _ = try notifications.notify([
      "-u", "critical", "-h", "string:sound-name:dialog-warning", "Battery low",
    ])
    try Self.expectHeard(recording, from: critical, "a critical notification under do-not-disturb")
    let played = recording.seconds
    try waitUntil("the sound's end in the recording", timeout: Self.soundPatience) {
      recording.seconds >= played + Self.recordingDelay + 0.5
    }
    let shown = recording.seconds
    #expect(try notifications.desk.runToEnd(["dnd", "off"]).status == 0)
    try waitUntil("the held notification shown") {
      try notifications.list().allSatisfy { $0["shown"]?.boolValue == true }
    }
    try Self.expectSilence(
      recording, from: shown, "a held notification shown once do-not-disturb ends")
  }
}
