import Glibc
import SystemSupport

/// A peer a test plays with a Python script of the repository
/// (`scripts/NAME`): started on a Unix socket in a private directory of its
/// own, with a mode as its second argument, its output logged there. The
/// fake sound server and the silent bus are such peers.
package final class ScriptedPeer {
  /// The private directory: the socket and the log.
  package let directory: String
  /// The socket.
  package let socket: String
  private let process: ChildProcess
  private let name: String

  /// Starts `scripts/SCRIPT SOCKET MODE` with the socket named `socketName`
  /// in a new directory whose name starts with `prefix`, and waits until it
  /// listens: the script gives the socket its name only once it listens (a
  /// socket bound and not yet listening refuses a connection).
  package init(script: String, mode: String, socketName: String, prefix: String) throws {
    name = script
    directory = try makeTemporaryDirectory(prefix: prefix)
    socket = directory + "/" + socketName
    var environment = currentEnvironment()
    environment[rigMarker] = directory
    do {
      process = try ChildProcess(
        ["/usr/bin/python3", repositoryDirectory + "/scripts/" + script, socket, mode],
        environment: environment, logPath: directory + "/peer.log")
    } catch {
      removeTree(directory)
      throw error
    }
    let process = process
    let socket = socket
    try waitUntil("\(script) to listen on \(socket)") {
      guard process.isRunning else { throw HarnessError("\(script) ended") }
      return access(socket, F_OK) == 0
    }
  }

  deinit {
    endRig(directory, startedWith: [process])
    removeTree(directory)
  }

  /// How many lines the script has printed that start with `prefix`.
  package func lines(startingWith prefix: String) -> Int {
    let log = String(decoding: readFile(directory + "/peer.log") ?? [], as: UTF8.self)
    return log.split(separator: "\n").filter { $0.hasPrefix(prefix) }.count
  }
}
