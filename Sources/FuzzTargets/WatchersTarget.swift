import Bus
import CGio
import ToastModel
import Watchers

/// What the watchers read from others, from parts of the input separated by
/// ``watcherPartSeparator``: the bodies of a player's `PropertiesChanged`
/// (`(sa{sv}as)`) and of its `GetAll` answer (`(a{sv})`), of the bus's
/// `NameOwnerChanged` (`(sss)`) and `ListNames` answer (`(as)`), each read
/// as GVariant reads data it does not trust and handled as ``MprisClient``
/// and `watch media` handle it; then an `mpris:artUrl`; then a backlight's
/// `brightness` and `max_brightness` as sysfs gives them (a missing part:
/// a missing attribute).
///
/// Each property the watcher keeps is one line within
/// ``MprisProperties/fieldLength``; a toast of `watch media` has a non-empty
/// line of text, and its cover, when it has one, is an absolute path. A
/// cover's path is absolute, decoded from a `file://` URI, without control
/// characters; ``MediaCover/isDrawable(_:)`` reads nothing beyond the bytes
/// it is given, and a PNG or JPEG it takes has a size within the limit. A backlight's level is 0 to 100 percent, or its problem is
/// one line.
func fuzzWatchers(_ input: [UInt8]) throws(InvariantViolation) {
  let parts = split(input, maximumParts: 7)
  func part(_ index: Int) -> [UInt8]? { index < parts.count ? parts[index] : nil }
  try fuzzPlayer(
    changed: part(0) ?? [], all: part(1) ?? [], owner: part(2) ?? [], names: part(3) ?? [])
  try fuzzCover(part(4) ?? input)
  try fuzzBacklight(brightness: part(5).map(text(of:)), maximum: part(6).map(text(of:)))
}

/// What separates the parts of a `watchers` input.
let watcherPartSeparator: [UInt8] = [0x0a, 0x1f, 0x0a]

/// `input`'s parts between separators, the last one taking the rest.
private func split(_ input: [UInt8], maximumParts: Int) -> [[UInt8]] {
  var parts: [[UInt8]] = []
  var start = 0
  var index = 0
  let separator = watcherPartSeparator
  while index + separator.count <= input.count, parts.count < maximumParts - 1 {
    if input[index..<index + separator.count].elementsEqual(separator) {
      parts.append(Array(input[start..<index]))
      index += separator.count
      start = index
    } else {
      index += 1
    }
  }
  parts.append(Array(input[start...]))
  return parts
}

/// `bytes` as a serialized value of `type`, untrusted (floating).
private func variant(_ bytes: [UInt8], _ type: StaticString) -> OpaquePointer {
  let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
  defer { g_bytes_unref(data) }
  return g_variant_new_from_bytes(Variant.type(type), data, 0)!
}

/// A player's messages read as the client reads them, and its changes
/// turned into toasts as `watch media` turns them.
private func fuzzPlayer(changed: [UInt8], all: [UInt8], owner: [UInt8], names: [UInt8])
  throws(InvariantViolation)
{
  let player = ":1.42"
  let signal = BusMessage.signal(
    path: MprisClient.objectPath, interface: "org.freedesktop.DBus.Properties",
    member: "PropertiesChanged", body: variant(changed, "(sa{sv}as)"))
  signal.sender = player
  let change = MprisClient.propertiesChange(in: signal)
  let call = BusMessage.call(
    destination: player, path: MprisClient.objectPath,
    interface: "org.freedesktop.DBus.Properties", member: "GetAll",
    body: Variant.tuple([Variant.string(MprisClient.playerInterface)]))
  call.serial = 7
  guard let reply = call.reply(variant(all, "(a{sv})")) else {
    throw InvariantViolation("no reply to GetAll")
  }
  let baseline = MprisClient.properties(inGetAll: reply)
  for properties in [change, baseline].compactMap({ $0 }) { try check(properties) }

  var state = MediaState()
  state.add(player)
  state.record(player, playback: baseline?.playback, track: baseline?.track)
  for properties in [change, baseline, change].compactMap({ $0 }) {
    guard let shown = state.change(player, playback: properties.playback, track: properties.track)
    else { continue }
    try check(MediaWatch.toast(for: shown), of: shown)
  }

  let ownerSignal = BusMessage.signal(
    path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
    body: variant(owner, "(sss)"))
  ownerSignal.sender = "org.freedesktop.DBus"
  if let ownerChange = MprisClient.ownerChange(in: ownerSignal) {
    try require(
      ownerChange.name.hasPrefix(MprisClient.namePrefix), "a player named \(ownerChange.name)")
    state.add(ownerChange.new)
    state.remove(ownerChange.old)
    try require(!state.follows(ownerChange.old), "\(ownerChange.old) is followed after it left")
  }
  let list = BusMessage.call(
    destination: BusConnection.busName, path: "/org/freedesktop/DBus",
    interface: BusConnection.busName, member: "ListNames")
  list.serial = 8
  guard let listed = list.reply(variant(names, "(as)")) else {
    throw InvariantViolation("no reply to ListNames")
  }
  for name in MprisClient.players(inListNames: listed) {
    try require(name.hasPrefix(MprisClient.namePrefix), "a player named \(name)")
  }
}

/// Throws unless `text` is one line of at most ``MprisProperties/fieldLength`` scalars.
private func checkField(_ text: String, _ name: String) throws(InvariantViolation) {
  try require(
    isOneLine(text) && text.unicodeScalars.count <= MprisProperties.fieldLength
      && !text.unicodeScalars.contains("\0"),
    "\(name) of \(text.unicodeScalars.count) scalars: \(String(reflecting: text))")
}

/// Throws unless every text kept of a player's properties is a field.
private func check(_ properties: MprisProperties) throws(InvariantViolation) {
  guard let track = properties.track else { return }
  for (name, field) in [("trackid", track.trackID), ("title", track.title), ("url", track.url)] {
    if let field { try checkField(field, name) }
  }
  if let title = track.displayTitle { try checkField(title, "the shown title") }
  try require(
    track.artists.count <= MprisProperties.maximumArtists, "\(track.artists.count) artists")
  for artist in track.artists {
    try require(!artist.isEmpty, "an empty artist")
    try checkField(artist, "an artist")
  }
  if let artURL = track.artURL {
    try require(
      artURL.utf8.count <= 3 * Toast.Limits.iconLength + 16, "an artUrl of \(artURL.utf8.count)")
  }
}

/// Throws unless `toast`, shown for `change`, has a non-empty line of text
/// made of fields, and its icon, if any, is a drawable cover's absolute
/// path or the playback's icon.
private func check(_ toast: Toast, of change: MediaChange) throws(InvariantViolation) {
  let fields = 1 + MprisProperties.maximumArtists
  try require(
    !toast.text.isEmpty && isOneLine(toast.text)
      && toast.text.unicodeScalars.count <= fields * (MprisProperties.fieldLength + 3),
    "the toast's text: \(String(reflecting: toast.text))")
  switch change {
  case .track:
    if let icon = toast.icon {
      try require(
        icon.hasPrefix("/") && !icon.unicodeScalars.contains("\0"), "a cover at \(icon)")
    }
  case .playback(let playback, _):
    try require(toast.icon == playback.iconName, "the icon \(toast.icon ?? "-") of \(playback)")
  }
}

/// `mpris:artUrl` as a cover, and `bytes` as the start of a cover file.
private func fuzzCover(_ bytes: [UInt8]) throws(InvariantViolation) {
  let uri = text(of: bytes)
  if let path = MediaCover.path(of: uri) {
    try require(
      uri.hasPrefix("file://") && path.hasPrefix("/")
        && !path.unicodeScalars.contains(where: Toast.breaksLine)
        && path.utf8.count <= Toast.Limits.iconLength,
      "the path \(String(reflecting: path)) of \(String(reflecting: uri))")
    // Decoded: the path, each byte after its first slash escaped, names the same path.
    let escaped = path.utf8.dropFirst().map { byte in
      "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
    try require(
      MediaCover.path(of: "file:///" + escaped.joined()) == path,
      "the path \(String(reflecting: path)) is not decoded")
  }
  if let file = MediaCover.file(of: uri) {
    try require(file == MediaCover.path(of: uri), "the file \(file) of \(uri)")
  }
  // The head between other bytes: what lies beyond it changes nothing.
  for count in Set([min(bytes.count, 64), bytes.count]) {
    let alone = MediaCover.isDrawable(ArraySlice(Array(bytes.prefix(count))))
    let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
    let padded = png + Array(bytes.prefix(count)) + png + Array("IHDR<".utf8) + [0, 0, 0, 1]
    let within = MediaCover.isDrawable(padded[png.count..<png.count + count])
    try require(alone == within, "\(count) bytes read as \(alone) alone, \(within) within others")
  }
  // A drawable PNG or JPEG has a size its header gives, within the owner's limit.
  let head = ArraySlice(bytes)
  if MediaCover.isDrawable(head), let format = ImageFormat(signature: head), format != .svg {
    let size = format.pixelSize(in: head)
    try require(
      size.map { 1...ImageFormat.maximumBitmapSide ~= max($0.width, $0.height) } == true,
      "a drawable \(format) of size \(String(describing: size))")
  }
}

/// A backlight's two attributes, read, then seen as its baseline and as a change.
private func fuzzBacklight(brightness: String?, maximum: String?) throws(InvariantViolation) {
  let reading = BacklightState.Reading(brightness: brightness, maxBrightness: maximum)
  switch BacklightState.level(reading) {
  case .success(let level):
    try require(
      level.maximum > 0 && (0...100).contains(level.percent),
      "\(level.brightness) of \(level.maximum) at \(level.percent)%")
  case .failure(let problem):
    try require(isOneLine(problem.description), "the problem: \(problem.description)")
  }
  let device = "/sys/devices/pci0000:00/0000:00:02.0/backlight/intel_backlight"
  var state = BacklightState()
  state.baseline(device, BacklightState.Reading(brightness: "40\n", maxBrightness: "100\n"))
  for next in [
    reading, reading, BacklightState.Reading(brightness: maximum, maxBrightness: brightness),
  ] {
    switch state.changed(device, next) {
    case .show(let toast):
      let percent = toast.progress.map { $0 * 100 } ?? -1
      try require(
        (0.0...100.0).contains(percent) && toast.text == "Brightness \(Int(percent.rounded()))%",
        "the HUD \(toast.text) at \(percent)%")
    case .report(let line):
      try require(isOneLine(line), "the line: \(line)")
    case nil:
      break
    }
  }
}
