import CitySearchBench
import Foundation

/// Ctrl-C during a long run. The first one asks the run to stop at the next safe point: the
/// replay stops at the next session boundary, and a run whose measurements are done writes no
/// report (the earlier set in `--out` stays whole, see ``ReportDirectory``); either way the
/// process ends with status 130. A second Ctrl-C ends the process at once, which is safe too:
/// the reports change in one step or not at all.
final class Interruption: @unchecked Sendable {
  private let lock = NSLock()
  private var requested = false
  private var source: DispatchSourceSignal?

  /// The one watcher of the process, started by the first command that asks for it.
  static let shared: Interruption = {
    let interruption = Interruption()
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { [interruption] in
      interruption.lock.lock()
      interruption.requested = true
      interruption.lock.unlock()
      standardError("\ncitybench: stopping at the next safe point; no report is written (Ctrl-C again to quit at once)")
      signal(SIGINT, SIG_DFL)
    }
    source.resume()
    interruption.source = source
    return interruption
  }()

  var isRequested: Bool {
    lock.lock()
    defer { lock.unlock() }
    return requested
  }

  /// Puts a report set in place unless a stop was asked for (then throws
  /// ``BenchInterrupted`` and the earlier set stays): a Ctrl-C at any moment of a run is
  /// honoured.
  @discardableResult
  func commit(_ reports: ReportDirectory) throws -> [String] {
    if isRequested { throw BenchInterrupted() }
    return try reports.commit()
  }
}
