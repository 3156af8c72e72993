import Foundation
import PackagePlugin

/// Runs wayland-scanner over the core protocol, every XML file in Protocols/
/// and the protocols of wayland-protocols that Protocols/system.list names, on
/// each build, writing the bindings into the build directory.
@main
struct WaylandScannerPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let protocols = context.package.directoryURL.appending(path: "Protocols")
    let core = URL(
      fileURLWithPath: ProcessInfo.processInfo.environment["WAYLAND_CORE_XML"]
        ?? "/usr/share/wayland/wayland.xml")
    let local = try FileManager.default.contentsOfDirectory(
      at: protocols, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "xml" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let list = protocols.appending(path: "system.list")
    let systemDirectory = URL(
      fileURLWithPath: ProcessInfo.processInfo.environment["WAYLAND_PROTOCOLS_DIR"]
        ?? "/usr/share/wayland-protocols")
    let system = try String(contentsOf: list, encoding: .utf8)
      .split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
      .map { systemDirectory.appending(path: $0) }
    let files = local + system
    let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
    let outputs = ([core] + files).map {
      output.appending(path: $0.deletingPathExtension().lastPathComponent + ".swift")
    }
    return [
      .buildCommand(
        displayName: "Generating Wayland bindings",
        executable: try context.tool(named: "wayland-scanner").url,
        arguments: ["--output", output.path, "--core", core.path] + files.map(\.path),
        inputFiles: [core, list] + files,
        outputFiles: outputs + [output.appending(path: "ProtocolTables.swift")]
      )
    ]
  }
}
