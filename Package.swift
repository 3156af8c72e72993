// swift-tools-version: 6.2
import PackageDescription

// Every function in a section of its own (-function-sections), so that lld's
// --symbol-ordering-file (link/owner-order.txt, link/command-order.txt) can
// place each hot function, not only whole files' code. Without it a module's
// functions share one .text section per file.
let strict: [SwiftSetting] = [
  .treatAllWarnings(as: .error), .unsafeFlags(["-Xfrontend", "-function-sections"]),
]

// The two programs carry the Swift runtime (-static-stdlib), except in sanitizer
// builds (`make sanitize` sets WL_TOAST_SANITIZE): -static-stdlib links with
// `--exclude-libs ALL`, which also hides the sanitizer's malloc and free, so the
// C libraries would allocate past it (and ThreadSanitizer's strdup crashes).
//
// The owner also takes libstdc++, which only the Swift runtime uses, from its
// static archive (link/libstdc++.so, first in the search path, is a linker
// script that names libstdc++.a), and exports no symbols (-static-stdlib's
// `--export-dynamic` put the runtime's 4,800 in the dynamic symbol table).
// The loader then has neither libstdc++'s 3,000 symbol relocations nor those
// lookups to do: the owner's start took 8.6 M instructions instead of 11.2 M.
// It is linked by lld, which lays out the functions a toast runs first
// (link/owner-order.txt, made by scripts/link-orders.sh), so that they fill
// fewer pages, and packs its 20,000 relative relocations (-z
// pack-relative-relocs, DT_RELR, glibc 2.36): .rela.dyn, which the loader
// reads whole at every start, shrinks from 472 KiB to 5 KiB. The functions the
// ordering file cannot name go beside the hot ones (link/private-sections.ld):
// with ten notification cards the owner's own resident pages went from 3.7 to
// 3.5 MiB.
let ownerLink: [LinkerSetting] =
  Context.environment["WL_TOAST_SANITIZE"] == nil
  ? [
    .unsafeFlags([
      "-static-stdlib", "-L", Context.packageDirectory + "/link", "-Xlinker",
      "--no-export-dynamic", "-use-ld=lld", "-Xlinker",
      "--symbol-ordering-file=" + Context.packageDirectory + "/link/owner-order.txt",
      "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-z", "-Xlinker",
      "pack-relative-relocs", "-Xlinker", "-T", "-Xlinker",
      Context.packageDirectory + "/link/private-sections.ld",
    ])
  ] : []

// The command links nothing dynamically in release builds: no loader, no
// library search, no relocations at start (about half the time of a
// dynamically linked one, and 3.4 MiB instead of 6). It uses no glibc
// function that needs shared libraries at run time (no NSS, no dlopen).
// lld lays out the functions an update runs first (link/command-order.txt,
// made by scripts/link-orders.sh):
// an update command's peak RSS went from 5.2 to 3.7 MiB; with the functions
// the ordering file cannot name beside them (link/private-sections.ld), from
// 3,164 to 3,048 KiB.
let staticExecutable: [LinkerSetting] =
  Context.environment["WL_TOAST_SANITIZE"] == nil
  ? [
    .unsafeFlags(["-static-stdlib"], .when(configuration: .debug)),
    .unsafeFlags(
      [
        "-static-executable", "-use-ld=lld", "-Xlinker",
        "--symbol-ordering-file=" + Context.packageDirectory + "/link/command-order.txt",
        "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-T", "-Xlinker",
        Context.packageDirectory + "/link/private-sections.ld",
      ], .when(configuration: .release)),
  ] : []

// What the live test targets (one per compositor family) build on.
let liveTestDependencies: [Target.Dependency] = [
  "ToastKit", "ToastRendering", "ToastCommand", "ToastProtocol", "ToastOwner", "TestSupport",
  "SystemSupport", "CompositorCases", "ToastNag", "Notifications", "Watchers",
]

let package = Package(
  name: "wl-toast",
  products: [
    .library(name: "ToastKit", targets: ["ToastKit"]),
    .library(name: "Wayland", targets: ["Wayland"]),
    .executable(name: "wl-toast", targets: ["wl-toast"]),
    .executable(name: "wl-toast-owner", targets: ["wl-toast-owner"]),
    .executable(name: "wl-toast-demo", targets: ["wl-toast-demo"]),
  ],
  targets: [
    // C modules: system libraries plus tiny accessors Swift cannot express.
    .target(
      name: "CWaylandClient",
      linkerSettings: [.linkedLibrary("wayland-client")]
    ),
    .target(name: "CSystem"),
    // Small POSIX helpers: the monotonic clock, errno, EINTR, Unix addresses, the
    // executable, and the event loop (poll, timerfd, signalfd) that knows no Wayland.
    .target(name: "SystemSupport", dependencies: ["CSystem"], swiftSettings: strict),
    .systemLibrary(
      name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
    .systemLibrary(
      name: "CXkbCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
    // librsvg for SVG icons: the two functions called, as pointer types. The
    // library is opened at the first SVG drawn (dlopen), never linked, so that
    // processes without an SVG icon do not load it.
    .systemLibrary(name: "CRsvg", providers: [.apt(["librsvg2-dev"])]),
    // PulseAudio's client library and libudev, for `watch audio` and `watch
    // backlight`: declarations only. Each is opened when its watcher starts
    // (dlopen), never linked, so nothing else loads it.
    .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
    .systemLibrary(name: "CUdev", providers: [.apt(["libudev-dev"])]),
    // GIO: D-Bus messages for screen readers (ToastAccessibility) and the test
    // harness (KWin's screenshots). Pango loads it already.
    .systemLibrary(
      name: "CGio", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),

    // The binding generator: a pure library, a thin executable and a build-tool plugin.
    .target(name: "WaylandScanner", swiftSettings: strict),
    .executableTarget(
      name: "wayland-scanner", dependencies: ["WaylandScanner"], swiftSettings: strict),
    .plugin(
      name: "WaylandScannerPlugin", capability: .buildTool(),
      dependencies: ["wayland-scanner"]),

    // The runtime plus the generated protocol classes.
    .target(
      name: "Wayland", dependencies: ["CWaylandClient", "SystemSupport"], swiftSettings: strict,
      plugins: ["WaylandScannerPlugin"]),

    // The toast: model, layout, drawing and animation (pure), the surface and the presenter.
    .target(name: "ToastModel", swiftSettings: strict),
    // Layout, text, icons, drawing and animation: pure, on Pango, Cairo and librsvg, no Wayland.
    .target(
      name: "ToastRendering",
      dependencies: ["ToastModel", "CPangoCairo", "CRsvg", "SystemSupport"],
      swiftSettings: strict),
    // One D-Bus connection in the event loop (GIO's message format, a
    // connection of our own: no thread): screen readers and the notification
    // server use it.
    .target(name: "Bus", dependencies: ["CGio", "SystemSupport"], swiftSettings: strict),
    // Notifications (org.freedesktop.Notifications 1.2), pure: a `Notify`
    // call checked, its body's markup, ids, the card it shows and the
    // configuration's rules applied; no Wayland.
    .target(
      name: "Notifications", dependencies: ["Bus", "ToastModel", "ToastProtocol", "CGio"],
      swiftSettings: strict),
    // Screen readers: AT-SPI over D-Bus in the presenter's event loop.
    .target(
      name: "ToastAccessibility",
      dependencies: ["Bus", "ToastModel", "CGio", "CPangoCairo", "SystemSupport"],
      swiftSettings: strict),
    .target(
      name: "ToastKit",
      dependencies: [
        "ToastModel", "ToastRendering", "ToastAccessibility", "Wayland", "CWaylandClient",
        "CPangoCairo", "CXkbCommon",
        "SystemSupport",
      ],
      swiftSettings: strict),
    // The socket protocol between the command and the owner: messages, the JSON
    // of a toast's fields (from their table), the rendezvous, the owner's
    // command line, and the client that hands toasts over (the command's and
    // the watchers'). Both programs link it.
    .target(
      name: "ToastProtocol", dependencies: ["ToastModel", "CSystem", "SystemSupport"],
      swiftSettings: strict),
    // The command: the table of options, argument parsing, the configuration
    // file and --follow (a library, for tests); main.swift only wires them.
    .target(
      name: "ToastCommand",
      dependencies: ["ToastModel", "ToastProtocol", "ToastNagOptions", "CSystem", "SystemSupport"],
      swiftSettings: strict),
    // `wl-toast nag`: swaynag's command line, configuration file and types,
    // read as swaynag reads them, into the bar to show and the buttons' actions.
    .target(
      name: "ToastNag", dependencies: ["ToastModel", "ToastNagOptions", "SystemSupport"],
      swiftSettings: strict),
    // The table of `wl-toast nag`'s options alone: the command's completions
    // read it without linking the rest of ToastNag.
    .target(name: "ToastNagOptions", swiftSettings: strict),
    // The watchers of `wl-toast watch` that know no Wayland: the sound server
    // (libpulse), media players (MPRIS on the session bus) and the backlight
    // (udev), each turning events into toasts handed to a feed; the presets' looks.
    .target(
      name: "Watchers",
      dependencies: [
        "Bus", "ToastModel", "ToastProtocol", "SystemSupport", "CSystem", "CGio", "CPulse", "CUdev",
      ],
      swiftSettings: strict),
    // The background owner and `watch`: the part that links Wayland, Pango and Cairo.
    .target(
      name: "ToastOwner",
      dependencies: [
        "ToastProtocol", "ToastKit", "ToastAccessibility", "ToastNag", "Wayland", "CSystem",
        "SystemSupport", "Bus", "Notifications", "Watchers",
      ],
      swiftSettings: strict),
    // Two programs: the light command (a fast update path) and the owner it starts.
    .executableTarget(
      name: "wl-toast", dependencies: ["ToastCommand", "ToastProtocol", "SystemSupport"],
      swiftSettings: strict,
      linkerSettings: staticExecutable),
    .executableTarget(
      name: "wl-toast-owner", dependencies: ["ToastOwner", "ToastProtocol", "CSystem"],
      swiftSettings: strict,
      linkerSettings: ownerLink),

    // Test support: headless compositors, screenshots, virtual input, and the
    // desk that runs wl-toast on each (its status read with the protocol's JSON).
    .target(
      name: "TestSupport",
      dependencies: [
        "Wayland", "CWaylandClient", "CXkbCommon", "CGio", "CSystem", "SystemSupport",
        "ToastProtocol", "ToastModel",
      ],
      swiftSettings: strict),
    .executableTarget(
      name: "wl-toast-demo", dependencies: ["ToastKit", "TestSupport"], swiftSettings: strict),
    // The cases every test compositor runs alike (HUD and banner placement, tap,
    // touch-through, Escape, update in place, a notification's button), for the
    // test targets.
    .target(
      name: "CompositorCases",
      dependencies: [
        "TestSupport", "ToastKit", "ToastRendering", "ToastProtocol", "Notifications", "Watchers",
      ],
      swiftSettings: strict),

    // The harness's headless sway and screen reader's desktop for the scripts
    // (`make leaks`, `make soak`): one way to start them, the tests' own.
    .executableTarget(
      name: "wl-toast-rig", dependencies: ["TestSupport", "SystemSupport"], swiftSettings: strict),
    .executableTarget(
      name: "wl-toast-bench",
      dependencies: ["TestSupport", "SystemSupport", "CSystem", "ToastCommand", "ToastProtocol"],
      swiftSettings: strict),

    // Fuzzing: each parser's fuzz body, run by libFuzzer (`make fuzz`) and by the replay tests.
    .target(
      name: "FuzzTargets",
      dependencies: [
        "ToastCommand", "ToastProtocol", "ToastModel", "ToastRendering", "WaylandScanner",
        "ToastAccessibility", "ToastNag", "Bus", "Notifications", "Watchers",
        "CGio",
      ],
      swiftSettings: strict),
    .executableTarget(name: "wl-toast-fuzz", dependencies: ["FuzzTargets"], swiftSettings: strict),

    // Each library's own tests: pure ones beside it, fast and without a compositor.
    // The binding generator: units, snapshots and compiled output.
    .testTarget(
      name: "WaylandScannerTests", dependencies: ["WaylandScanner"],
      exclude: ["Fixtures", "Snapshots"], swiftSettings: strict),
    // The Wayland runtime: its event loop, buffers and errors, on a real sway and weston.
    .testTarget(
      name: "WaylandTests", dependencies: ["Wayland", "TestSupport", "SystemSupport"],
      swiftSettings: strict),
    // The toast's model: its limits and the checks that answer ASCII without Unicode tables.
    .testTarget(name: "ToastModelTests", dependencies: ["ToastModel"], swiftSettings: strict),
    // Pure tests: layout, text, easing, timelines and offscreen renders against references.
    .testTarget(
      name: "ToastRenderingTests", dependencies: ["ToastRendering", "CPangoCairo", "TestSupport"],
      exclude: ["References", "Icons"], swiftSettings: strict),
    // The bus connection's parts without a bus (addresses, messages, framing),
    // and a service's on a private bus (names, dispatch, introspection, signals).
    .testTarget(
      name: "BusTests", dependencies: ["Bus", "CGio", "TestSupport", "SystemSupport"],
      swiftSettings: strict),
    // Notifications without a bus: calls built by hand, hints, images, markup
    // (checked valid by Pango), ids, criteria and rules, the card.
    .testTarget(
      name: "NotificationsTests",
      dependencies: [
        "Notifications", "Bus", "ToastModel", "ToastProtocol", "ToastRendering", "CGio",
      ],
      swiftSettings: strict),
    // Screen readers: spoken text, the accessibility bus, the accessible tree's answers.
    .testTarget(
      name: "ToastAccessibilityTests",
      dependencies: [
        "ToastAccessibility", "Bus", "ToastModel", "CGio", "SystemSupport", "TestSupport",
      ],
      swiftSettings: strict),
    // The socket protocol: JSON, messages, the fields' kinds and the owner's command line.
    .testTarget(
      name: "ToastProtocolTests",
      dependencies: ["ToastProtocol", "ToastModel", "TestSupport", "SystemSupport"],
      swiftSettings: strict),
    // The command's own: arguments, the option table, configuration files,
    // --follow's lines, and the limits it applies as the socket and follow lines do.
    .testTarget(
      name: "ToastCommandTests",
      dependencies: [
        "ToastCommand", "ToastProtocol", "ToastModel", "ToastNag", "ToastNagOptions", "TestSupport",
      ],
      swiftSettings: strict),
    // The presenter's pure parts, without a compositor: a toast's input (focus,
    // presses, a bar's details), what it refuses.
    .testTarget(
      name: "ToastKitTests", dependencies: ["ToastKit", "ToastRendering"], swiftSettings: strict),
    // swaynag's command line, configuration file and types, as `wl-toast nag` reads them.
    .testTarget(
      name: "ToastNagTests", dependencies: ["ToastNag", "ToastNagOptions", "ToastModel"],
      swiftSettings: strict),
    // The owner's pure parts: sway's IPC frames and watcher, river's watcher, do-not-disturb.
    .testTarget(
      name: "ToastOwnerTests",
      dependencies: ["ToastOwner", "ToastProtocol", "ToastModel", "TestSupport"],
      swiftSettings: strict),
    // The watchers' pure parts: the sound server's, media players' and the
    // backlight's states turned into toasts, the presets' looks.
    .testTarget(
      name: "WatchersTests",
      dependencies: [
        "Watchers", "ToastProtocol", "ToastModel", "TestSupport", "SystemSupport", "Bus", "CGio",
      ],
      swiftSettings: strict),
    // The test harness's own parsers (WAYLAND_DEBUG logs).
    .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"], swiftSettings: strict),

    // Live tests, one target per compositor family: what a user sees and does.
    // On a headless sway: the HUD, the banner, the library and the command.
    .testTarget(
      name: "SwayTests",
      dependencies: liveTestDependencies,
      swiftSettings: strict),
    // On a headless KWin at fractional scales: its own placement, crisp text, the shared cases.
    .testTarget(
      name: "KWinTests",
      dependencies: liveTestDependencies,
      swiftSettings: strict),
    // The same on a real river, built from source (`make test-river`; `make test` skips it).
    .testTarget(
      name: "RiverTests",
      dependencies: [
        "ToastKit", "ToastRendering", "ToastCommand", "ToastProtocol", "ToastOwner", "TestSupport",
        "SystemSupport", "CompositorCases",
        "Wayland",
      ],
      swiftSettings: strict),
    // Every committed fuzz seed and crash (Tests/Fuzz) through its target, without libFuzzer.
    .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzTargets"], swiftSettings: strict),
    // The architecture map (docs/ARCHITECTURE.md) matches Sources/, Plugins/ and Tests/.
    .testTarget(name: "RepositoryTests", swiftSettings: strict),
  ]
)
