import Testing
import ToastModel
import ToastProtocol

/// The owner's command line: what the command writes, the owner reads back as
/// the same values, and anything else is one line.
@Suite("The owner's command line")
struct OwnerLaunchTests {
  static var launches: [OwnerLaunch] {
    var toast = Toast("Volume 40%")
    toast.progress = 0.4
    toast.isAnimated = false
    return [
      .serve(Rendezvous.Listener.Numbers(fd: 5, inode: 123_456, lockFD: 6), linger: 1),
      .serve(Rendezvous.Listener.Numbers(fd: 3, inode: 0), linger: 0.25),
      .serve(Rendezvous.Listener.Numbers(fd: 7, inode: 9, lockFD: 8), linger: nil),
      // A linger that Double's description writes with an exponent (1e-05).
      .serve(Rendezvous.Listener.Numbers(fd: 5, inode: 1, lockFD: 6), linger: 0.00001),
      .serve(Rendezvous.Listener.Numbers(fd: 5, inode: 1, lockFD: 6), linger: 59.999999999),
      .serve(
        Rendezvous.Listener.Numbers(fd: 5, inode: 1, lockFD: 6), linger: nil,
        notifications: .serve(replace: false, rules: .array([]))),
      .serve(
        Rendezvous.Listener.Numbers(fd: 5, inode: 1), linger: nil,
        notifications: .serve(
          replace: true, rules: .array([.object(["settings": .object(["timeout": .number(3)])])]))
      ),
      .activated,
      .watch(.sway(SwayWatchOptions())),
      .watch(.sway(SwayWatchOptions(workspaces: true))),
      .watch(.sway(SwayWatchOptions(keyboardLayout: true))),
      .watch(.sway(SwayWatchOptions(workspaces: true, keyboardLayout: true))),
      .watch(.river(RiverWatchOptions())),
      .watch(
        .river(
          RiverWatchOptions(
            focusedTags: true, urgent: true, tagNames: [1: "web", 32: "a=b c", 3: "Ünï 🎉"]))),
      .watch(WatchRequest(targets: [.audio])),
      .watch(
        WatchRequest(
          targets: [
            .media, .river(RiverWatchOptions(urgent: true, tagNames: [2: "audio"])),
            .sway(SwayWatchOptions(keyboardLayout: true)), .backlight, .audio,
          ],
          presets: [
            "volume": .object(["position": .string("bottom"), "timeout": .number(1)]),
            "sway-mode": .object(["background": .string("#000000ff")]),
          ])),
      .render(
        RenderRequest(path: "/tmp/a b.png", scale: 1.5, outputWidth: 800, outputHeight: 600), toast),
    ]
  }

  @Test(arguments: launches)
  func whatTheCommandWritesTheOwnerReadsBack(_ launch: OwnerLaunch) throws {
    #expect(try OwnerLaunch(arguments: launch.arguments) == launch)
  }

  @Test(arguments: [
    (["serve", "5", "1", "nan", "6"], "serve: --linger: expected seconds from 0 to 60, got 'nan'"),
    (["serve", "5", "1", "61", "6"], "serve: --linger: expected seconds from 0 to 60, got '61'"),
    (["serve", "-1", "1", "1", "6"], "serve: expected LISTEN-FD INODE LINGER|resident LOCK-FD"),
    (["serve", "5", "1", "1"], "started by wl-toast; see 'wl-toast --help'"),
    (
      ["serve", "5", "1", "resident", "6", "notify", "[]"],
      "serve: expected notifications[-replace] RULES-JSON"
    ),
    (
      ["serve", "5", "1", "resident", "6", "notifications", "{}"],
      "serve: expected notifications[-replace] RULES-JSON"
    ),
    (["watch", "sway", "--workspaces"], "watch sway: unexpected '--workspaces'"),
    (["watch", "river", "urgent", "urgent"], "watch river: unexpected 'urgent'"),
    (["watch", "river", "33=x"], "watch river: unexpected '33=x'"),
    (["watch", "river", "1=a", "1=b"], "watch river: unexpected '1=b'"),
    (["watch", "river", "2=a,b"], "watch river: unexpected '2=a,b'"),
    (["watch", "weston"], "started by wl-toast; see 'wl-toast --help'"),
    (["watch", "audio", "weston"], "watch: unexpected 'weston'"),
    (["watch", "audio", "audio"], "watch: audio given twice"),
    (["watch", "audio", "presets", "[]"], "watch: expected presets PRESETS-JSON"),
    (["watch", "audio", "presets", "{\"volume\": 1}"], "watch: expected presets PRESETS-JSON"),
    (["watch", "sway", "audio", "workspaces"], "watch: unexpected 'workspaces'"),
    (
      ["render", "/tmp/x.png", "9", "800", "600", "{}"],
      "render: expected PATH SCALE WIDTH HEIGHT TOAST-JSON"
    ),
    (
      ["render", "/tmp/x.png", "1", "800", "600", "{\"modal\": 1}"],
      "render: bad toast: modal: expected true or false"
    ),
    ([], "started by wl-toast; see 'wl-toast --help'"),
  ])
  func anythingElseIsOneLine(arguments: [String], message: String) {
    #expect(throws: OwnerLaunchError.self) { try OwnerLaunch(arguments: arguments) }
    do {
      _ = try OwnerLaunch(arguments: arguments)
    } catch {
      #expect(error.description == message)
    }
  }
}
