import Glibc
import SystemSupport

/// Event sounds through libcanberra, the library GNOME's own sound layer sits
/// on: an event sound of the freedesktop sound theme by name, or a sound
/// file, played through the user's sound server.
///
/// Nothing of it is loaded before the first sound: libcanberra
/// (`libcanberra.so.0`) is opened with dlopen then, on a thread of the
/// player's own, which does every call into it. `ca_context_play` blocks its
/// caller while it connects, looks the sound up and sets up the stream (tens
/// of milliseconds, and up to libpulse's 30 s on a server that stopped
/// answering): the event loop's thread never waits for it, and no
/// libcanberra or libpulse thread touches Wayland. Results come back to the
/// loop through a pipe, watched only once a sound was asked for.
///
/// The thread plays one request at a time: a request that waited longer
/// than ``Limits/lateness`` behind a slow server is left out (a late sound
/// is worse than none), as is the oldest once ``Limits/queued`` wait, and
/// one whose toast has gone is withdrawn (``withdraw(_:)``).
///
/// The context (and with it libpulse's connection and thread) lives while
/// sounds play and is destroyed once the last one has finished: a process
/// that played a sound goes back to sleeping with no thread of libpulse's
/// and no connection to the server, and a server started again later is
/// found by the next sound.
final class SoundPlayer {
  /// How a sound went, as the player reports it to the loop.
  enum Event: Equatable, Sendable {
    /// It started playing.
    case started
    /// It played to its end.
    case finished
    /// It could not play (or stopped): why, in one line.
    case failed(String)
  }

  /// How long a request may wait for the thread, and how many may wait.
  enum Limits {
    /// A request older than this when the thread comes to it is left out.
    static let lateness: Duration = .seconds(2)
    /// A request that took longer than this to connect is left out: it
    /// has been given up on (``ToastPresenter/soundPatience``).
    static let connecting: Duration = .seconds(5)
    /// More requests than this waiting: the oldest is left out.
    static let queued = 8
  }

  private let loop: EventLoop
  /// The thread that calls libcanberra, started at the first sound.
  private var worker: Worker?
  private var watch: EventLoop.Token?
  private var handlers: [UInt32: (Event) -> Void] = [:]
  private var nextID: UInt32 = 1

  /// A player whose results `loop` hears; nothing is loaded or started yet.
  init(loop: EventLoop) {
    self.loop = loop
  }

  deinit {
    if let watch { loop.remove(watch) }
    worker?.stop()
  }

  /// Plays `sound` (a name of the sound theme, or a path: it holds a slash), with
  /// `description` for the sound server's list of streams; `handler` hears
  /// in the loop when it starts and ends, or why it cannot play. Returns the
  /// request's number (for ``withdraw(_:)`` and ``forget(_:)``), nil when
  /// no sound can play (the handler has heard why).
  @discardableResult
  func play(_ sound: String, description: String, handler: @escaping (Event) -> Void) -> UInt32? {
    let worker: Worker
    if let running = self.worker {
      worker = running
    } else {
      do {
        worker = try Worker()
      } catch {
        handler(.failed("cannot play sounds: \(error)"))
        return nil
      }
      self.worker = worker
      watch = loop.addSource(fd: worker.resultsFD) { [unowned self] _ in deliver() }
    }
    let id = nextID
    nextID = nextID == UInt32.max ? 1 : nextID + 1
    handlers[id] = handler
    worker.enqueue(Worker.Request(id: id, sound: sound, description: description, asked: .now))
    return id
  }

  /// Takes back request `id` if the thread has not come to it yet (its
  /// handler hears nothing more); whether it did.
  func withdraw(_ id: UInt32) -> Bool {
    guard let worker, worker.withdraw(id) else { return false }
    handlers[id] = nil
    return true
  }

  /// Stops listening for request `id`'s results (given up on).
  func forget(_ id: UInt32) {
    handlers[id] = nil
  }

  /// Hands the worker's results to their handlers.
  private func deliver() {
    guard let worker else { return }
    for (id, event) in worker.takeResults() {
      guard let handler = handlers[id] else { continue }
      if event != .started { handlers[id] = nil }
      handler(event)
    }
  }

  /// Why a sound file cannot be played, checked before it is handed over
  /// (libcanberra would wait for ever on a FIFO's writer): not there, not a
  /// regular file (a directory, a FIFO, a device), larger than
  /// ``ToastModel/Toast/Limits/soundFileBytes`` or unreadable. Nil for a
  /// file that may be played, and for a sound's name.
  static func problem(with sound: String) -> String? {
    guard sound.contains("/") else { return nil }
    var info = stat()
    guard stat(sound, &info) == 0 else {
      return "sound file \(sound) cannot be read: \(Errno.current)"
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      let kind =
        switch info.st_mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
      return "sound file \(sound) is \(kind)"
    }
    guard info.st_size <= Toast.Limits.soundFileBytes else {
      return
        "sound file \(sound) is larger than \(Toast.Limits.soundFileBytes >> 20) MiB"
    }
    guard access(sound, R_OK) == 0 else {
      return "sound file \(sound) cannot be read: \(Errno.current)"
    }
    return nil
  }
}

// MARK: - The thread that calls libcanberra

/// libcanberra's functions that are called, looked up after dlopen.
private struct Canberra: @unchecked Sendable {
  typealias Finished =
    @convention(c) (OpaquePointer?, UInt32, Int32, UnsafeMutableRawPointer?) ->
    Void
  let contextCreate: @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
  let contextDestroy: @convention(c) (OpaquePointer?) -> Int32
  let contextOpen: @convention(c) (OpaquePointer?) -> Int32
  let changeProps: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
  let playFull:
    @convention(c) (OpaquePointer?, UInt32, OpaquePointer?, Finished?, UnsafeMutableRawPointer?)
      -> Int32
  let proplistCreate: @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
  let proplistDestroy: @convention(c) (OpaquePointer?) -> Int32
  let proplistSets:
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
  let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?

  /// The soname of Debian's libcanberra0.
  static let libraryName = "libcanberra.so.0"

  // libcanberra's error codes (canberra.h) that are told apart.
  static let notFound: Int32 = -9
  static let noDriver: Int32 = -5
  static let corrupt: Int32 = -7
  static let tooBig: Int32 = -8

  /// Opens the library and looks the functions up; the reason when it cannot.
  static func open() -> Result<Canberra, SoundProblem> {
    Result { () throws(LibraryError) in
      let library = try LoadedLibrary(
        libraryName, context: "cannot play sounds", package: "libcanberra0")
      return Canberra(
        contextCreate: try library.function("ca_context_create", as: Create.self),
        contextDestroy: try library.function("ca_context_destroy", as: Destroy.self),
        contextOpen: try library.function("ca_context_open", as: Destroy.self),
        changeProps: try library.function("ca_context_change_props_full", as: Change.self),
        playFull: try library.function("ca_context_play_full", as: Play.self),
        proplistCreate: try library.function("ca_proplist_create", as: Create.self),
        proplistDestroy: try library.function("ca_proplist_destroy", as: Destroy.self),
        proplistSets: try library.function("ca_proplist_sets", as: Sets.self),
        strerror: try library.function("ca_strerror", as: StrError.self))
    }.mapError { SoundProblem($0.description) }
  }

  typealias Create = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
  typealias Destroy = @convention(c) (OpaquePointer?) -> Int32
  typealias Change = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
  typealias Play =
    @convention(c) (OpaquePointer?, UInt32, OpaquePointer?, Finished?, UnsafeMutableRawPointer?)
    -> Int32
  typealias Sets =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
  typealias StrError = @convention(c) (Int32) -> UnsafePointer<CChar>?

  /// A property list of `properties`, for one call (the caller destroys it).
  func proplist(_ properties: [(String, String)]) -> OpaquePointer? {
    var list: OpaquePointer?
    guard proplistCreate(&list) == 0, let list else { return nil }
    for (key, value) in properties { _ = proplistSets(list, key, value) }
    return list
  }

  /// libcanberra's text for an error code.
  func text(of code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
  }
}

/// Why no sound plays, in one line.
private struct SoundProblem: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The player's thread and what it shares with the loop's: requests in,
/// results out, under one lock.
private final class Worker: @unchecked Sendable {
  struct Request {
    var id: UInt32
    var sound: String
    var description: String
    /// When it was asked for (``SoundPlayer/Limits/lateness``).
    var asked: MonotonicTime
  }

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  private var requests: [Request] = []
  private var results: [(UInt32, SoundPlayer.Event)] = []
  /// Sounds started and not finished (libcanberra's callback ends them).
  private var playing = 0
  /// Sounds whose start is posted and whose end is not, and sounds that
  /// ended before their start was posted: `started` always comes first.
  private var startPosted: Set<UInt32> = []
  private var endedEarly: Set<UInt32> = []
  /// Set by ``stop()``: the thread lets go of everything and ends.
  private var stopping = false
  private var thread = pthread_t()
  /// `ca_strerror`, for the callback (set under the lock).
  private var errorText: Canberra.StrError?
  /// The read end of the results pipe (the loop watches it) and its write end.
  let resultsFD: Int32
  private let wakeFD: Int32

  // The worker thread's own (never touched by another thread).
  private var library: Result<Canberra, SoundProblem>?
  private var context: OpaquePointer?

  init() throws(SoundProblem) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      throw SoundProblem("cannot make a pipe: \(Errno.current)")
    }
    for fd in fds {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    resultsFD = fds[0]
    wakeFD = fds[1]
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
    // No signal reaches this thread, nor the threads libpulse starts from
    // it: SIGINT and SIGTERM stay for the loop's signalfd.
    var all = sigset_t()
    var saved = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_BLOCK, &all, &saved)
    defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
    let retained = Unmanaged.passRetained(self)
    let started = pthread_create(
      &thread, nil,
      { argument in
        Unmanaged<Worker>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
      }, retained.toOpaque())
    guard started == 0 else {
      retained.release()
      throw SoundProblem("cannot start a thread: \(Errno(rawValue: started))")
    }
  }

  deinit {
    close(resultsFD)
    close(wakeFD)
    pthread_cond_destroy(condition)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Ends the thread (the loop's thread, once): it destroys the context
  /// (libpulse's thread and connection go with it) and returns; the pipe
  /// and the lock go with the last reference. Waits for the thread unless
  /// it is inside libcanberra (a server that stopped answering): then it is
  /// left to end by itself, holding its own reference.
  func stop() {
    pthread_mutex_lock(mutex)
    stopping = true
    requests.removeAll()
    pthread_cond_signal(condition)
    let busy = inLibrary
    pthread_mutex_unlock(mutex)
    if busy {
      pthread_detach(thread)
    } else {
      pthread_join(thread, nil)
    }
  }

  /// Whether the thread is inside a libcanberra call (under the lock).
  private var inLibrary = false

  /// Hands a sound to the thread; with ``SoundPlayer/Limits/queued``
  /// already waiting, the oldest is left out.
  func enqueue(_ request: Request) {
    pthread_mutex_lock(mutex)
    if requests.count >= SoundPlayer.Limits.queued {
      let dropped = requests.removeFirst()
      post(dropped.id, .failed("left out: too many sounds waiting for the sound server"))
    }
    requests.append(request)
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Takes request `id` out of the queue; whether it was still there.
  func withdraw(_ id: UInt32) -> Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    guard let index = requests.firstIndex(where: { $0.id == id }) else { return false }
    requests.remove(at: index)
    return true
  }

  /// The results so far (the loop's thread).
  func takeResults() -> [(UInt32, SoundPlayer.Event)] {
    var drain = [UInt8](repeating: 0, count: 64)
    while read(resultsFD, &drain, drain.count) > 0 {}
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    let taken = results
    results.removeAll()
    return taken
  }

  /// Posts a result for the loop (the lock held).
  private func post(_ id: UInt32, _ event: SoundPlayer.Event) {
    results.append((id, event))
    var byte: UInt8 = 1
    _ = write(wakeFD, &byte, 1)
  }

  /// The thread: waits for a request (or for the last sound to finish,
  /// to let go of the context), sleeping in between.
  private func run() {
    pthread_mutex_lock(mutex)
    while true {
      while requests.isEmpty && !stopping && !(playing == 0 && context != nil) {
        pthread_cond_wait(condition, mutex)
      }
      guard !requests.isEmpty else {
        // Nothing plays (or the player stops): the connection and
        // libpulse's thread go.
        let idle = context
        context = nil
        inLibrary = idle != nil
        pthread_mutex_unlock(mutex)
        if let idle, case .success(let canberra)? = library { _ = canberra.contextDestroy(idle) }
        pthread_mutex_lock(mutex)
        inLibrary = false
        if stopping {
          pthread_mutex_unlock(mutex)
          return
        }
        continue
      }
      let request = requests.removeFirst()
      // Kept waiting by a slow server: left out, a late sound being worse than none.
      guard MonotonicTime.now - request.asked <= SoundPlayer.Limits.lateness else {
        post(request.id, .failed(Self.tooSlow))
        continue
      }
      inLibrary = true
      pthread_mutex_unlock(mutex)
      let outcome = start(request)
      pthread_mutex_lock(mutex)
      inLibrary = false
      switch outcome {
      case .success where endedEarly.remove(request.id) != nil:
        break
      case .success:
        startPosted.insert(request.id)
        post(request.id, .started)
      case .failure(let problem):
        post(request.id, .failed(problem.description))
      }
    }
  }

  /// Starts one sound; a failure to connect leaves no context behind.
  private func start(_ request: Request) -> Result<Void, SoundProblem> {
    if let problem = SoundPlayer.problem(with: request.sound) {
      return .failure(SoundProblem(problem))
    }
    let library = self.library ?? Canberra.open()
    self.library = library
    let canberra: Canberra
    switch library {
    case .success(let opened): canberra = opened
    case .failure(let problem): return .failure(problem)
    }
    if context == nil {
      var made: OpaquePointer?
      guard canberra.contextCreate(&made) == 0, let made else {
        return .failure(SoundProblem("cannot play sounds: libcanberra made no context"))
      }
      if let properties = canberra.proplist([("application.name", "wl-toast")]) {
        _ = canberra.changeProps(made, properties)
        _ = canberra.proplistDestroy(properties)
      }
      let opened = canberra.contextOpen(made)
      guard opened == 0 else {
        _ = canberra.contextDestroy(made)
        return .failure(
          SoundProblem(
            opened == Canberra.noDriver
              ? "no sound driver (is libcanberra-pulse installed?)"
              : Self.noServer(canberra.text(of: opened))))
      }
      context = made
    }
    // Connecting took the server long: too late now.
    guard MonotonicTime.now - request.asked <= SoundPlayer.Limits.connecting else {
      return .failure(SoundProblem(Self.tooSlow))
    }
    let isFile = request.sound.contains("/")
    guard
      let properties = canberra.proplist([
        (isFile ? "media.filename" : "event.id", request.sound),
        ("event.description", String(request.description.prefix(256))),
      ])
    else { return .failure(SoundProblem("cannot play sounds: out of memory")) }
    defer { _ = canberra.proplistDestroy(properties) }
    pthread_mutex_lock(mutex)
    playing += 1
    errorText = canberra.strerror
    pthread_mutex_unlock(mutex)
    let code = canberra.playFull(
      context, request.id, properties,
      { _, id, code, worker in
        Unmanaged<Worker>.fromOpaque(worker!).takeUnretainedValue().finished(id, code)
      }, Unmanaged.passUnretained(self).toOpaque())
    guard code == 0 else {
      pthread_mutex_lock(mutex)
      playing -= 1
      pthread_mutex_unlock(mutex)
      return .failure(SoundProblem(Self.problem(code, request.sound, canberra)))
    }
    return .success(())
  }

  /// libcanberra's callback, on libpulse's thread: the sound ended.
  private func finished(_ id: UInt32, _ code: Int32) {
    pthread_mutex_lock(mutex)
    playing -= 1
    let text = code == 0 ? nil : errorText?(code).map { String(cString: $0) }
    // Ended before the thread posted its start: the start first.
    if startPosted.remove(id) == nil {
      endedEarly.insert(id)
      post(id, .started)
    }
    post(id, code == 0 ? .finished : .failed("the sound stopped: \(text ?? "error \(code)")"))
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Why a sound kept waiting past ``SoundPlayer/Limits/lateness`` is left out.
  private static let tooSlow = "left out: the sound server was too slow to answer"

  /// Why a sound did not start, for the user.
  private static func problem(_ code: Int32, _ sound: String, _ canberra: Canberra) -> String {
    let isFile = sound.contains("/")
    switch code {
    case Canberra.notFound where isFile:
      return "sound file \(sound) not found"
    case Canberra.notFound:
      return "sound \(Toast.quoted(sound)) not found in the sound theme freedesktop (in "
        + soundDirectories().joined(separator: ", ") + ")"
    case Canberra.corrupt:
      return (isFile ? "sound file \(sound)" : "sound \(Toast.quoted(sound))")
        + " is not a sound libcanberra can play (WAV or Ogg Vorbis)"
    default:
      return "cannot play sound \(Toast.quoted(sound)): \(canberra.text(of: code))"
    }
  }

  /// The reason when no driver of libcanberra's reached a sound server:
  /// where libpulse looked (`PULSE_SERVER`, else the runtime directory's socket).
  private static func noServer(_ reason: String) -> String {
    let server =
      getenv("PULSE_SERVER").map { String(cString: $0) }
      ?? (getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "/run/user/\(getuid())")
      + "/pulse/native"
    return "no sound server at \(server) (\(reason))"
  }

  /// Where the sound theme's files are looked up: `$XDG_DATA_HOME/sounds`
  /// (`~/.local/share/sounds`), then each of `$XDG_DATA_DIRS`.
  private static func soundDirectories() -> [String] {
    func variable(_ name: String) -> String? {
      getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
    let home =
      variable("XDG_DATA_HOME") ?? (variable("HOME").map { $0 + "/.local/share" } ?? "")
    let data = (variable("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":")
    return ([home] + data.map(String.init)).filter { !$0.isEmpty }.map { $0 + "/sounds" }
  }
}
