import Foundation

/// Ctrl-C during a long run: the first one asks the run to stop at the next session boundary
/// (no report is half-written: reports are only written at the end, each atomically); a
/// second one ends the process at once.
final class Interruption: @unchecked Sendable {
  private let lock = NSLock()
  private var requested = false
  private var source: DispatchSourceSignal?

  /// Starts watching SIGINT.
  static func watch() -> Interruption {
    let interruption = Interruption()
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { [interruption] in
      interruption.lock.lock()
      interruption.requested = true
      interruption.lock.unlock()
      standardError("\ncitybench: stopping after the current session (Ctrl-C again to quit at once)")
      signal(SIGINT, SIG_DFL)
    }
    source.resume()
    interruption.source = source
    return interruption
  }

  var isRequested: Bool {
    lock.lock()
    defer { lock.unlock() }
    return requested
  }
}
