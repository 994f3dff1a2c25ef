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
    if isTerminal {
      let filled = Int(fraction * 30)
      let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
      standardErrorRaw("\r\(label) [\(bar)] \(done)/\(total)")
      drewBar = true
    } else {
      standardError(String(format: "%@: %d/%d (%.0f%%)", label, done, total, fraction * 100))
    }
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
