import Glibc
import SystemSupport
import ToastModel
import ToastProtocol
import Watchers
import Wayland

/// `wl-toast watch TARGET…`: follows each source in one event loop and hands
/// its toasts to the display's owner (``OwnerFeed``), each with the looks of
/// its preset (``PresetFeed``), until a signal, or until sway or river goes
/// away. The sound server, media players and the backlight never end it.
///
/// Returns the exit status; errors are one line on standard error.
package func runWatch(_ request: WatchRequest) -> Int32 {
  // Every source first: one that cannot run at all starts no owner.
  var watchers: [(target: WatchTarget, watcher: any Watcher)] = []
  for target in request.targets {
    do throws(WatchError) {
      watchers.append((target, try makeWatcher(target)))
    } catch {
      printError("wl-toast: \(error)")
      return ExitCode.error
    }
  }
  let context = "watch " + request.targets.map(\.word).joined(separator: " ")
  // A watch of no compositor (audio, media, backlight) still ends with the
  // display: a Wayland connection of its own, which asks nothing, is lost
  // when the compositor goes.
  var display: Display?
  if !request.targets.contains(where: \.followsCompositor) {
    do {
      display = try Display()
    } catch {
      printError("wl-toast: \(error)")
      return ExitCode.error
    }
  }
  let loop: EventLoop
  let feed: OwnerFeed
  do {
    loop = try EventLoop()
    loop.onSignal = { _ in loop.stop() }
    feed = try OwnerFeed(loop: loop, context: context)
  } catch let error as CommandError {
    printError("wl-toast: \(error)")
    return ExitCode.error
  } catch {
    printError("wl-toast: \(context): \(error)")
    return ExitCode.error
  }
  var ending: WatchEnd?
  if let display { loop.add(display) }
  for (target, watcher) in watchers {
    let styled = PresetFeed(feed, settings: request.presets[target.presetName])
    watcher.start(in: loop, feed: styled) { end in
      if ending == nil { ending = end }
      loop.stop()
    }
  }
  do {
    // A source may end the watch while it starts, before the loop runs.
    try loop.run { ending != nil }
  } catch {
    // The compositor going away (river's status connection, or the
    // display's) ends the watch as it should; anything else is an error.
    if case .connectionLost = error.waylandError {
      ending = ending ?? .finished
    } else {
      ending = .failed("\(context): \(error)")
    }
  }
  for (_, watcher) in watchers { watcher.stop() }
  // The loop's handlers hold the feed and the loop: let go.
  feed.close()
  loop.onSignal = nil
  withExtendedLifetime(display) {}
  guard case .failed(let line) = ending else { return ExitCode.success }
  printError("wl-toast: \(line)")
  return ExitCode.error
}

/// The watcher of `target`.
private func makeWatcher(_ target: WatchTarget) throws(WatchError) -> any Watcher {
  switch target {
  case .sway(let options): try SwayWatch(options)
  case .river(let options): try RiverWatch(options)
  case .audio: try AudioWatch()
  case .media: try MediaWatch()
  case .backlight: try BacklightWatch()
  }
}

extension OwnerFeed: ToastFeed {}

extension WatchTarget {
  /// Whether the target is a compositor (sway, river), whose going away ends the watch.
  fileprivate var followsCompositor: Bool {
    switch self {
    case .sway, .river: true
    case .audio, .media, .backlight: false
    }
  }
}
