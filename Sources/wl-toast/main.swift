// wl-toast: show a toast on a Wayland compositor.
//
// Exit status: 0 the toast expired or was hidden, 2 the user dismissed it,
// 1 an error (one line on standard error), 64 a usage error.
import Glibc
import ToastCommand
import ToastKit

func printError(_ message: String) {
  let bytes = Array((message + "\n").utf8)
  _ = write(2, bytes, bytes.count)
}

switch parseArguments(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
  printError("\(error)")
  printError("Try 'wl-toast --help' for more information.")
  exit(ExitCode.usage)
case .success(.help):
  print(usageText)
case .success(.version):
  print(versionText)
case .success(.show(let toast)):
  if toast.isMarkup, let problem = TextBlock.markupError(toast.text) {
    printError("wl-toast: --markup: the message is not valid Pango markup: \(problem)")
    exit(ExitCode.usage)
  }
  do {
    let presenter = try ToastPresenter()
    presenter.show(toast)
    let outcome = try presenter.runUntilHidden()
    exit(outcome == .dismissed ? ExitCode.dismissed : ExitCode.success)
  } catch {
    printError("wl-toast: \(error)")
    exit(ExitCode.error)
  }
}
