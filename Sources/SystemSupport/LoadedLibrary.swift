import Glibc

/// A shared library opened with dlopen when the feature that needs it is
/// first used (librsvg for the first SVG, gdk-pixbuf for the first JPEG,
/// libcanberra for the first sound, libpulse and libudev when their watch
/// starts), so that no other process of wl-toast loads it; it stays loaded.
/// Its functions are looked up by name as the pointer types the C modules or
/// the callers declare.
public struct LoadedLibrary: @unchecked Sendable {
  /// The file name it was opened by (`libudev.so.1`).
  public let name: String
  /// What a failure's line starts with (`watch backlight`).
  private let context: String
  private let handle: UnsafeMutableRawPointer

  /// Opens `name`; `package` names the Debian package that installs it, for
  /// the line a failure is.
  ///
  /// - Throws: One line, starting with `context`, when it cannot be opened:
  ///   `watch backlight: libudev.so.1: cannot open shared object file: No
  ///   such file or directory (Debian's package libudev1)`.
  public init(_ name: String, context: String, package: String) throws(LibraryError) {
    guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "cannot open \(name)"
      throw LibraryError("\(context): \(reason) (Debian's package \(package))")
    }
    self.name = name
    self.context = context
    self.handle = handle
  }

  /// The function `symbol`, as `type` (a C function pointer type).
  ///
  /// - Throws: One line when the library has no such function: `watch
  ///   backlight: libudev.so.1 lacks udev_new`.
  public func function<Function>(_ symbol: String, as type: Function.Type) throws(LibraryError)
    -> Function
  {
    guard let address = dlsym(handle, symbol) else {
      throw LibraryError("\(context): \(name) lacks \(symbol)")
    }
    return unsafeBitCast(address, to: type)
  }
}

/// Why a library cannot be used, in one line for the user.
public struct LibraryError: Error, Equatable, CustomStringConvertible {
  /// The line.
  public let description: String

  /// An error that says `description`.
  public init(_ description: String) { self.description = description }
}
