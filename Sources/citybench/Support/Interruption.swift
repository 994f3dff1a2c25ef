import CSystemShim
import CitySearchBench
import Foundation

/// Ctrl-C during a long run. The first one asks the run to stop at the next safe point: the
/// replay stops at the next session boundary, and a run whose measurements are done writes no
/// report (the earlier set in `--out` stays whole, see ``ReportDirectory``); either way the
/// process ends with status 130. A second Ctrl-C ends the process at once, which is safe too:
/// the reports change in one step or not at all.
///
/// The request is recorded by the signal handler itself (in `CSystemShim`), not by a block
/// queued for later: a Ctrl-C delivered before a check is always seen by it, however busy the
/// machine, so a run that is interrupted never ends with status 0.
final class Interruption: Sendable {
  /// The one watcher of the process, started by the first command that asks for it.
  static let shared: Interruption = {
    let message = "\ncitybench: stopping at the next safe point; no report is written (Ctrl-C again to quit at once)\n"
    if CSystemShim_watchInterrupts(message) != 0 {
      standardError(
        "citybench: cannot watch for Ctrl-C (\(String(cString: strerror(errno)))); Ctrl-C will end the run at once")
    }
    return Interruption()
  }()

  private init() {}

  var isRequested: Bool { CSystemShim_interruptRequested() != 0 }

  /// Puts a report set in place unless a stop was asked for (then throws
  /// ``BenchInterrupted`` and the earlier set stays): a Ctrl-C at any moment of a run is
  /// honoured.
  @discardableResult
  func commit(_ reports: ReportDirectory) throws -> [String] {
    if isRequested { throw BenchInterrupted() }
    return try reports.commit()
  }
}
