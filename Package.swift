// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
  name: "wl-toast",
  products: [
    .library(name: "ToastKit", targets: ["ToastKit"]),
    .library(name: "Wayland", targets: ["Wayland"]),
    .executable(name: "wl-toast", targets: ["wl-toast"]),
    .executable(name: "wl-toast-demo", targets: ["wl-toast-demo"]),
  ],
  targets: [
    // C modules: system libraries plus tiny accessors Swift cannot express.
    .target(
      name: "CWaylandClient",
      linkerSettings: [.linkedLibrary("wayland-client")]
    ),
    .target(name: "CSystem"),
    .systemLibrary(
      name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
    .systemLibrary(
      name: "CXkbCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),

    // The binding generator: a pure library, a thin executable and a build-tool plugin.
    .target(name: "WaylandScanner", swiftSettings: strict),
    .executableTarget(
      name: "wayland-scanner", dependencies: ["WaylandScanner"], swiftSettings: strict),
    .plugin(
      name: "WaylandScannerPlugin", capability: .buildTool(),
      dependencies: ["wayland-scanner"]),

    // The runtime plus the generated protocol classes.
    .target(
      name: "Wayland", dependencies: ["CWaylandClient"], swiftSettings: strict,
      plugins: ["WaylandScannerPlugin"]),

    // The toast: model, layout, drawing and animation (pure), the surface and the presenter.
    .target(
      name: "ToastKit", dependencies: ["Wayland", "CWaylandClient", "CPangoCairo", "CXkbCommon"],
      swiftSettings: strict),
    // The command: argument parsing (a library, for tests) and main.
    .target(
      name: "ToastCommand", dependencies: ["ToastKit", "Wayland", "CSystem"], swiftSettings: strict),
    .executableTarget(
      name: "wl-toast", dependencies: ["ToastCommand", "ToastKit"], swiftSettings: strict),

    // Test support: headless compositors, screenshots, virtual input.
    .target(
      name: "TestSupport", dependencies: ["Wayland", "CWaylandClient", "CXkbCommon", "CSystem"],
      swiftSettings: strict),
    .executableTarget(
      name: "wl-toast-demo", dependencies: ["ToastKit", "TestSupport"], swiftSettings: strict),

    .executableTarget(
      name: "wl-toast-bench", dependencies: ["Wayland", "TestSupport"], swiftSettings: strict),

    .testTarget(
      name: "ScannerTests", dependencies: ["WaylandScanner"],
      exclude: ["Fixtures", "Snapshots"], swiftSettings: strict),
    .testTarget(
      name: "ToastKitTests", dependencies: ["ToastKit", "ToastCommand", "CPangoCairo"],
      exclude: ["References"], swiftSettings: strict),
    .testTarget(
      name: "ToastTests", dependencies: ["ToastKit", "ToastCommand", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "WaylandTests", dependencies: ["Wayland", "TestSupport"], swiftSettings: strict),
  ]
)
