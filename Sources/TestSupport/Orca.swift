import CSystem
import Glibc
import SystemSupport

/// Debian 12's real screen reader, Orca 43, on an ``AccessibilityBus``: with an
/// X display of its own (Xvfb; Orca does not start without one) and
/// speech-dispatcher set up with a generic output module that appends each
/// text it would speak to a file instead of sounding it.
///
/// Orca runs as `python3 /usr/bin/orca`. It names its process `orca` and
/// refuses to start while another process of that name runs for the user
/// (`pgrep -u UID -x orca`), so tests run one Orca at a time on the machine:
/// each holds ``lockPath`` while its Orca runs, and the next waits for it.
package final class Orca {
  /// The lock an Orca's test holds while its Orca runs (tests in parallel,
  /// in one process or several, wait for it in turn).
  package static let lockPath = "/tmp/wl-toast-orca.lock"

  /// Orca's directory: home, configuration, logs and the spoken file.
  package let directory: String
  private let spokenPath: String
  private let xvfb: ChildProcess
  private let speech: ChildProcess
  private let orca: ChildProcess
  /// The descriptor holding ``lockPath``, until ``stop()``.
  private let lock: Int32
  private var stopped = false

  /// Waits (up to `queue` seconds) until no other test's Orca runs, starts
  /// Xvfb, speech-dispatcher and Orca, and waits until Orca has said
  /// "Screen reader on".
  package init(on bus: AccessibilityBus, timeout: Double = 60, queue: Double = 600) throws {
    let lock = open(Self.lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
    guard lock >= 0 else { throw HarnessError("cannot open \(Self.lockPath): \(Errno.current)") }
    do {
      try waitUntil("another test's Orca to stop (\(Self.lockPath))", timeout: queue) {
        flock(lock, LOCK_EX | LOCK_NB) == 0
      }
    } catch {
      close(lock)
      throw error
    }
    self.lock = lock
    let directory = bus.directory + "/orca"
    self.directory = directory
    spokenPath = directory + "/spoken.txt"
    for path in ["", "/home", "/config", "/config/speech-dispatcher", "/data", "/run", "/logs"] {
      mkdir(directory + path, 0o700)
    }
    mkdir(directory + "/config/speech-dispatcher/modules", 0o700)
    // The generic module runs a shell command per text; $DATA is the text, quoted.
    try writeFile(
      directory + "/config/speech-dispatcher/speechd.conf",
      """
      LogLevel 3
      LogDir "\(directory)/logs"
      AddModule "file" "sd_generic" "file.conf"
      DefaultModule file
      AudioOutputMethod "libao"

      """)
    try writeFile(
      directory + "/config/speech-dispatcher/modules/file.conf",
      """
      GenericExecuteSynth "echo \\'$DATA\\' >> \(spokenPath)"
      GenericCmdDependency "echo"
      GenericLanguage "en" "en" "utf-8"
      AddVoice "en" "MALE1" "default"
      DefaultVoice "default"

      """)
    // libao's null driver: no sound device is needed.
    try writeFile(directory + "/home/.libao", "default_driver=null\n")
    try writeFile(spokenPath, "")

    var environment = bus.daemonEnvironment
    environment["HOME"] = directory + "/home"
    environment["XDG_CONFIG_HOME"] = directory + "/config"
    environment["XDG_DATA_HOME"] = directory + "/data"
    environment["XDG_RUNTIME_DIR"] = directory + "/run"
    let socket = directory + "/run/speechd.sock"
    environment["SPEECHD_ADDRESS"] = "unix_socket:" + socket
    environment[rigMarker] = directory

    var started: [ChildProcess] = []
    func logs() -> String {
      ["xvfb.log", "speech.log", "orca.log", "debug.out"].compactMap { name in
        guard let data = readFile(directory + "/" + name), !data.isEmpty else { return nil }
        return "\(name) ends with:\n" + String(decoding: data.suffix(1500), as: UTF8.self)
      }.joined(separator: "\n")
    }
    do {
      // Xvfb picks a free display and writes its number to descriptor 3.
      var fds: [Int32] = [0, 0]
      guard wlt_pipe(&fds) == 0 else { throw HarnessError("pipe failed: \(Errno.current)") }
      let xvfb: ChildProcess
      do {
        xvfb = try ChildProcess(
          ["Xvfb", "-displayfd", "3", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
          environment: environment, logPath: directory + "/xvfb.log", descriptors: [3: fds[1]])
      } catch {
        close(fds[0])
        close(fds[1])
        throw error
      }
      close(fds[1])
      started.append(xvfb)
      let display = try Self.readLine(from: fds[0], timeout: 20)
      close(fds[0])
      guard let number = Int(display) else {
        throw HarnessError("Xvfb did not say its display (package xvfb)")
      }
      environment["DISPLAY"] = ":\(number)"

      let speech = try ChildProcess(
        [
          "speech-dispatcher", "--run-single", "--timeout", "0", "--communication-method",
          "unix_socket", "--socket-path", socket, "--config-dir",
          directory + "/config/speech-dispatcher", "--log-dir", directory + "/logs",
        ], environment: environment, logPath: directory + "/speech.log")
      started.append(speech)
      try waitUntil("speech-dispatcher's socket", timeout: 20) {
        guard speech.isRunning else { throw HarnessError("speech-dispatcher exited") }
        return access(socket, F_OK) == 0
      }

      let orca = try ChildProcess(
        ["/usr/bin/python3", "/usr/bin/orca", "--debug-file=\(directory)/debug.out"],
        environment: environment, logPath: directory + "/orca.log")
      started.append(orca)
      let spoken = spokenPath
      try waitUntil("Orca to say \"Screen reader on\"", timeout: timeout) {
        guard orca.isRunning else { throw HarnessError("Orca exited (package orca)") }
        let text = readFile(spoken).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return text.contains("Screen reader on")
      }
      self.xvfb = xvfb
      self.speech = speech
      self.orca = orca
    } catch {
      endRig(directory, startedWith: started)
      close(lock)
      throw HarnessError("Orca did not start: \(error)\n\(logs())")
    }
  }

  deinit { stop() }

  /// Every text Orca has spoken so far, one a line, in order.
  package func spoken() -> [String] {
    guard let data = readFile(spokenPath) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// The end of Orca's debug log (what it received and presented), for messages.
  package func debugTail() -> String {
    readFile(directory + "/debug.out").map { String(decoding: $0.suffix(3000), as: UTF8.self) }
      ?? ""
  }

  /// Stops Orca, speech-dispatcher, Xvfb and what they started.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    // Then speech-dispatcher's output module, anything Orca started.
    endRig(directory, startedWith: [xvfb, speech, orca])
    close(lock)
  }

  /// One line from `fd` (without its newline), waiting up to `timeout` seconds.
  private static func readLine(from fd: Int32, timeout: Double) throws -> String {
    var bytes: [UInt8] = []
    let deadline = now() + timeout
    while !bytes.contains(UInt8(ascii: "\n")) {
      var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard now() < deadline else { throw HarnessError("no line in \(timeout) s") }
      if poll(&ready, 1, 100) <= 0 { continue }
      var byte: UInt8 = 0
      guard read(fd, &byte, 1) == 1 else { break }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: "\n")
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var text = Substring(self)
    while let last = text.last, set.contains(last) { text = text.dropLast() }
    return String(text)
  }
}
