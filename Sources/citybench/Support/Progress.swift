import Foundation

/// Progress of a long step on stderr: a redrawn bar on a terminal, a plain line every ten
/// seconds otherwise (CI logs). Thread-safe; updates come from worker threads.
final class Progress: @unchecked Sendable {
  private let label: String
  private let lock = NSLock()
  private let isTerminal = isatty(FileHandle.standardError.fileDescriptor) != 0
  private let started = DispatchTime.now().uptimeNanoseconds
  private var lastDrawn: UInt64 = 0
  private var drewBar = false

  init(label: String) { self.label = label }

  func update(_ done: Int, _ total: Int) {
    let now = DispatchTime.now().uptimeNanoseconds
    lock.lock()
    defer { lock.unlock() }
    let interval: UInt64 = isTerminal ? 200_000_000 : 10_000_000_000
    guard now - lastDrawn >= interval || (now - started >= interval && done == total) else { return }
    if lastDrawn == 0 && now - started < interval { return }
    lastDrawn = now
    let fraction = total == 0 ? 1 : Double(done) / Double(total)
    let left = Self.timeLeft(elapsed: Double(now - started) / 1e9, fraction: fraction).map { ", \($0) left" } ?? ""
    if isTerminal {
      let filled = Int(fraction * 30)
      let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
      standardErrorRaw("\r\(label) [\(bar)] \(done)/\(total)\(left)\u{1B}[K")
      drewBar = true
    } else {
      standardError(String(format: "%@: %d/%d (%.0f%%%@)", label, done, total, fraction * 100, left))
    }
  }

  /// The time a step still needs at its pace so far (`about 2 min 10 s`), once it has run 10 s
  /// or done 5%; `nil` before, and when done.
  static func timeLeft(elapsed: Double, fraction: Double) -> String? {
    guard fraction > 0, fraction < 1, elapsed >= 10 || fraction >= 0.05 else { return nil }
    let seconds = Int((elapsed / fraction - elapsed).rounded())
    if seconds < 60 { return "about \(max(seconds, 1)) s" }
    if seconds < 3600 { return "about \(seconds / 60) min \(seconds % 60) s" }
    return "about \(seconds / 3600) h \(seconds % 3600 / 60) min"
  }

  /// Clears the bar.
  func finish() {
    lock.lock()
    defer { lock.unlock() }
    if drewBar { standardErrorRaw("\r\u{1B}[K") }
  }
}

func standardErrorRaw(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}
