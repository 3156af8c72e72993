import ToastModel

/// What the sound server says of its default output and input, as the
/// watcher last read it: the state compared, change after change, to tell
/// what to show (``AudioState``).
package struct AudioSnapshot: Equatable, Sendable {
  /// An output device (a sink) or an input device (a source).
  package struct Device: Equatable, Sendable {
    /// Its name on the server (`alsa_output.pci-…`, `speakers`).
    package var name: String
    /// What the user calls it, the server's description of it
    /// (`Headphones`); empty when the server gives none.
    package var displayName: String
    /// Its volume in percent, as `pactl` rounds it, of its loudest channel.
    package var percent: Int
    /// Whether it is muted.
    package var isMuted: Bool
    /// Whether it is a sink's monitor (a source only): not a microphone.
    package var isMonitor: Bool

    /// A device with these properties.
    package init(
      name: String, displayName: String, percent: Int, isMuted: Bool, isMonitor: Bool = false
    ) {
      self.name = name
      self.displayName = displayName
      self.percent = percent
      self.isMuted = isMuted
      self.isMonitor = isMonitor
    }
  }

  /// The default output; nil when the server has none (or names one that
  /// does not exist, as PipeWire's `@DEFAULT_SINK@` before its session
  /// manager picks one).
  package var sink: Device?
  /// The default input; nil when there is none.
  package var source: Device?

  /// A snapshot of these devices.
  package init(sink: Device? = nil, source: Device? = nil) {
    self.sink = sink
    self.source = source
  }
}

/// The sound server's state turned into toasts: each new snapshot is
/// compared with the last one, and only a change the user made shows (the
/// events that brought it are never trusted alone). The first snapshot of a
/// connection is the baseline: nothing shows at start, nor after the server
/// came back.
///
/// - The default output's volume or mute changed: the volume HUD ("Volume
///   40%", or "Muted"), its bar in percent up to 200 (the toast's overflow
///   above 100 %), the theme's `audio-volume-*-symbolic` icon by level.
/// - Another default output: its description ("Headphones"), with its level.
///   Only from one real output to another: the first one named is a baseline.
/// - The default input's mute changed: "Microphone muted" or "Microphone on"
///   with `microphone-sensitivity-muted|high-symbolic`. A sink's monitor is
///   no microphone and never shows.
///
/// Every toast has the tag ``tag``, so that a held key updates one toast.
package struct AudioState {
  /// The tag of every toast of the watcher.
  package static let tag = "volume"

  private var last: AudioSnapshot?

  /// A state without a baseline yet.
  package init() {}

  /// Forgets the baseline: the next snapshot is one (a new connection).
  package mutating func reset() { last = nil }

  /// Takes `snapshot` as the current state; returns the toast it calls
  /// for, nil when nothing the user sees changed.
  package mutating func update(_ snapshot: AudioSnapshot) -> Toast? {
    defer { last = snapshot }
    guard let last else { return nil }
    return Self.sinkToast(from: last.sink, to: snapshot.sink)
      ?? Self.sourceToast(from: last.source, to: snapshot.source)
  }

  private static func sinkToast(from old: AudioSnapshot.Device?, to new: AudioSnapshot.Device?)
    -> Toast?
  {
    guard let old, let new else { return nil }
    if old.name != new.name {
      let name = new.displayName.isEmpty ? new.name : new.displayName
      return volumeToast(name, percent: new.percent, isMuted: new.isMuted)
    }
    guard old.percent != new.percent || old.isMuted != new.isMuted else { return nil }
    let text = new.isMuted ? "Muted" : "Volume \(new.percent)%"
    return volumeToast(text, percent: new.percent, isMuted: new.isMuted)
  }

  private static func sourceToast(from old: AudioSnapshot.Device?, to new: AudioSnapshot.Device?)
    -> Toast?
  {
    guard let old, let new, old.name == new.name, !new.isMonitor, old.isMuted != new.isMuted
    else { return nil }
    var toast = Toast(
      new.isMuted ? "Microphone muted" : "Microphone on", timeout: .watcherHUD)
    toast.icon =
      new.isMuted ? "microphone-sensitivity-muted-symbolic" : "microphone-sensitivity-high-symbolic"
    return toast
  }

  /// The volume HUD: `text`, the bar at `percent` (at most 200), the icon.
  package static func volumeToast(_ text: String, percent: Int, isMuted: Bool) -> Toast {
    var toast = Toast(
      text, timeout: .watcherHUD, progress: Double(min(max(percent, 0), 200)) / 100)
    toast.icon = volumeIcon(percent: percent, isMuted: isMuted)
    return toast
  }

  /// The theme's icon for a level: muted (or silent), low below 34 %,
  /// medium below 67 %, high from there.
  package static func volumeIcon(percent: Int, isMuted: Bool) -> String {
    if isMuted || percent <= 0 { return "audio-volume-muted-symbolic" }
    if percent < 34 { return "audio-volume-low-symbolic" }
    if percent < 67 { return "audio-volume-medium-symbolic" }
    return "audio-volume-high-symbolic"
  }

  /// Whether a default device's name is a placeholder, not a device
  /// (PipeWire's `@DEFAULT_SINK@` before its session manager picks one).
  package static func isPlaceholder(_ name: String) -> Bool {
    name.isEmpty || (name.hasPrefix("@") && name.hasSuffix("@"))
  }

  /// A volume in percent as `pactl` prints it: `volume` (a `pa_volume_t`,
  /// 65536 at 100 %) rounded to the nearest percent.
  package static func percent(ofVolume volume: UInt32) -> Int {
    Int((UInt64(volume) * 100 + 0x8000) / 0x10000)
  }
}
