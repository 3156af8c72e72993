import Foundation
import Testing
import WaylandScanner

/// Compares the scanner with the reference C wayland-scanner (package libwayland-bin,
/// which libwayland-dev brings in), the specification in practice: every file it
/// accepts, this scanner reads too, and the libwayland message tables agree: the
/// interface versions, each message's name and signature, and the interface of
/// every object argument, where the protocols built together define it (the C
/// scanner refers to any interface by name; a table here has no entry for one
/// that no loaded protocol defines).
@Suite("Reference scanner")
struct ReferenceScannerTests {
  @Test(arguments: ProtocolSet.all)
  func tablesAgree(_ set: ProtocolSet) throws {
    try #require(set.isInstalled, "\(set.package) is not installed (make deps installs it)")
    let scanner = try #require(
      executable("wayland-scanner", preferring: ["/usr/bin/wayland-scanner"]),
      "no wayland-scanner; libwayland-dev brings it (make deps)")
    var compared: [(file: String, spec: ProtocolSpec, reference: [String: ReferenceInterface])] =
      []
    for file in set.files {
      guard let reference = try referenceTables(of: file, scanner: scanner) else { continue }
      do {
        let spec = try ProtocolSpec(xml: try String(contentsOfFile: file, encoding: .utf8))
        compared.append((file, spec, reference))
      } catch {
        Issue.record("\(file): the reference scanner accepts it, this one does not: \(error)")
      }
    }
    #expect(!compared.isEmpty, "no protocol files in \(set.name)")
    // The interfaces a generator over the whole set knows.
    let known = Set(compared.flatMap { $0.spec.interfaces.map(\.name) })
    for (file, spec, reference) in compared {
      #expect(
        spec.interfaces.map(\.name).sorted() == reference.keys.sorted(), "\(file): interfaces")
      for interface in spec.interfaces {
        guard let expected = reference[interface.name] else { continue }
        #expect(
          ReferenceInterface(interface, known: known) == expected.keeping(known),
          "\(file): \(interface.name)")
      }
    }
  }
}

/// An interface's libwayland tables: its version and its requests' and events' entries.
private struct ReferenceInterface: Equatable, CustomStringConvertible {
  struct Message: Equatable, CustomStringConvertible {
    var name: String
    var signature: String
    var types: [String?]

    var description: String {
      "\(name) \"\(signature)\" [\(types.map { $0 ?? "nil" }.joined(separator: ", "))]"
    }
  }

  var version: UInt32
  var requests: [Message]
  var events: [Message]

  var description: String { "version \(version), requests \(requests), events \(events)" }

  /// The tables this scanner builds, where `known` interfaces are the loaded ones.
  init(_ interface: InterfaceSpec, known: Set<String>) {
    func messages(_ list: [MessageSpec]) -> [Message] {
      list.map {
        Message(
          name: $0.name, signature: Generator.wireSignature(of: $0),
          types: Generator.wireInterfaces(of: $0).map {
            $0.flatMap { known.contains($0) ? $0 : nil }
          })
      }
    }
    version = interface.version
    requests = messages(interface.requests)
    events = messages(interface.events)
  }

  init(version: UInt32, requests: [Message], events: [Message]) {
    self.version = version
    self.requests = requests
    self.events = events
  }

  /// The tables with references to interfaces outside `known` dropped.
  func keeping(_ known: Set<String>) -> ReferenceInterface {
    func filter(_ list: [Message]) -> [Message] {
      list.map {
        Message(
          name: $0.name, signature: $0.signature,
          types: $0.types.map { $0.flatMap { known.contains($0) ? $0 : nil } })
      }
    }
    return ReferenceInterface(version: version, requests: filter(requests), events: filter(events))
  }
}

/// Runs the reference scanner's `private-code` mode on a file and reads back the
/// interface tables it writes, or nil when it rejects the file.
private func referenceTables(
  of file: String, scanner: URL
) throws -> [String: ReferenceInterface]? {
  let output = FileManager.default.temporaryDirectory
    .appending(path: "wl-toast-reference-\(UUID().uuidString).c")
  defer { try? FileManager.default.removeItem(at: output) }
  let process = Process()
  process.executableURL = scanner
  process.arguments = ["private-code", file, output.path]
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  let tables: [String: ReferenceInterface] = try #require(
    parseReferenceCode(try String(contentsOf: output, encoding: .utf8)),
    "\(file): cannot read the reference scanner's tables")
  return tables
}

/// Reads the tables out of the C the reference scanner writes, which looks like:
///
///     static const struct wl_interface *xdg_shell_types[] = {
///         NULL,
///         &xdg_positioner_interface,
///     };
///     static const struct wl_message xdg_wm_base_requests[] = {
///         { "create_positioner", "n", xdg_shell_types + 1 },
///     };
///     WL_PRIVATE const struct wl_interface xdg_wm_base_interface = {
///         "xdg_wm_base", 5,
///         1, xdg_wm_base_requests,
///         0, NULL,
///     };
private func parseReferenceCode(_ code: String) -> [String: ReferenceInterface]? {
  let lines = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
  var types: [String?] = []
  var messages: [String: [ReferenceInterface.Message]] = [:]
  var interfaces: [String: ReferenceInterface] = [:]
  var index = 0
  func body() -> [String] {
    var items: [String] = []
    index += 1
    while index < lines.count, lines[index] != "};" {
      items.append(lines[index])
      index += 1
    }
    return items
  }
  while index < lines.count {
    let line = lines[index]
    if line.hasPrefix("static const struct wl_interface *") {
      types = body().map {
        $0 == "NULL," ? nil : String($0.dropFirst().dropLast("_interface,".count))
      }
    } else if line.hasPrefix("static const struct wl_message ") {
      let name = line.dropFirst("static const struct wl_message ".count).prefix { $0 != "[" }
      var list: [ReferenceInterface.Message] = []
      for entry in body() {
        // { "name", "signature", protocol_types + start },
        let quoted = entry.split(separator: "\"", omittingEmptySubsequences: false)
        let offset = entry.split(separator: "+").last?.filter(\.isNumber)
        guard quoted.count == 5, let start = offset.flatMap({ Int($0) }) else { return nil }
        let signature = String(quoted[3])
        let end = start + signature.filter(\.isLetter).count
        guard end <= types.count else { return nil }
        list.append(
          .init(name: String(quoted[1]), signature: signature, types: Array(types[start..<end])))
      }
      messages[String(name)] = list
    } else if line.hasPrefix("WL_PRIVATE const struct wl_interface ") {
      // "name", version, request count, requests, event count, events,
      let fields = body().joined(separator: " ").split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard fields.count >= 6, let version = UInt32(fields[1]) else { return nil }
      interfaces[String(fields[0].dropFirst().dropLast())] = ReferenceInterface(
        version: version, requests: messages[fields[3]] ?? [], events: messages[fields[5]] ?? [])
    }
    index += 1
  }
  return interfaces
}
