// wl-toast-fuzz: one fuzz target (FUZZ_TARGET) under libFuzzer, as `make fuzz`
// builds it (-sanitize=fuzzer,address -DFUZZING); an ordinary build replays
// input files through the target instead.
//
//   FUZZ_TARGET=json wl-toast-fuzz [LIBFUZZER-OPTION...] [CORPUS-DIR...]   (make fuzz)
//   FUZZ_TARGET=json wl-toast-fuzz FILE...                                  (replay)
import FuzzTargets
import Glibc

/// The target that FUZZ_TARGET names.
enum Selected {
  static let target: FuzzTarget = {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      printError("set FUZZ_TARGET to one of \(names)")
      exit(64)
    }
    return target
  }()
}

/// Writes `wl-toast-fuzz: ` and the message to standard error.
func printError(_ message: String) {
  let bytes = Array("wl-toast-fuzz: \(message)\n".utf8)
  _ = write(2, bytes, bytes.count)
}

/// Runs one input; a broken invariant is a crash, which libFuzzer reports and saves.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  do {
    try Selected.target.run(Array(UnsafeBufferPointer(start: data, count: size)))
  } catch {
    fatalError("\(Selected.target.rawValue): \(error.description)")
  }
  return 0
}

#if FUZZING
  // SwiftPM links this file's top-level code as `main`, in place of libFuzzer's
  // own: hand the command line to libFuzzer's driver from here.
  @_silgen_name("LLVMFuzzerRunDriver")
  func runLibFuzzer(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
  ) -> CInt

  _ = Selected.target
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  exit(runLibFuzzer(&argc, &argv, fuzz))
#else
  _ = Selected.target
  var failed = false
  for path in CommandLine.arguments.dropFirst() {
    guard let file = fopen(path, "rb") else {
      printError("cannot read \(path)")
      exit(1)
    }
    var input: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while case let count = fread(&chunk, 1, chunk.count, file), count > 0 {
      input += chunk[..<count]
    }
    fclose(file)
    do {
      try Selected.target.run(input)
      print("\(path): ok")
    } catch {
      print("\(path): \(error.description)")
      failed = true
    }
  }
  exit(failed ? 1 : 0)
#endif
