import Glibc

/// A shared library a watcher opens with dlopen when its watch starts
/// (libpulse for `watch audio`, libudev for `watch backlight`), so that no
/// other process of wl-toast loads it; it stays loaded. Its functions are
/// looked up by name as the pointer types the C modules declare.
struct LoadedLibrary {
  /// The file name it was opened by (`libudev.so.1`).
  let name: String
  /// What a failure's line starts with (`watch backlight`).
  private let context: String
  private let handle: UnsafeMutableRawPointer

  /// Opens `name`; `package` names the Debian package that installs it,
  /// for the line a failure is.
  ///
  /// - Throws: One line, starting with `context`, when it cannot be opened.
  init(_ name: String, context: String, package: String) throws(WatchError) {
    guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "cannot open \(name)"
      throw WatchError("\(context): \(reason) (Debian's package \(package))")
    }
    self.name = name
    self.context = context
    self.handle = handle
  }

  /// The function `symbol`, as `type` (a pointer type of the C module).
  ///
  /// - Throws: One line when the library has no such function.
  func function<Function>(_ symbol: String, as type: Function.Type) throws(WatchError)
    -> Function
  {
    guard let address = dlsym(handle, symbol) else {
      throw WatchError("\(context): \(name) lacks \(symbol)")
    }
    return unsafeBitCast(address, to: type)
  }
}
