import CitySearch
import CitySearchBench
import Foundation

/// Counts allocation calls per keystroke for a bench run in a child process of this binary
/// (`citybench allocations --format json`) started with `SWIFT_DETERMINISTIC_HASHING=1`, so
/// that the counts repeat exactly from run to run (each process otherwise seeds Swift's
/// hashing anew, and a set may grow at another keystroke).
struct AllocationRun {
  /// The environment variable that fixes Swift's hash seed.
  static let deterministicHashing = "SWIFT_DETERMINISTIC_HASHING"

  var corpus: CorpusOptions
  var workload: Workload
  var backends: [String]
  var mode: String
  var limit: Int

  /// Each backend's summary, by name.
  func measure() throws -> [String: AllocationSummary] {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "citybench-allocations-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let workloadPath = scratch.appendingPathComponent("workload.tsv").path
    try AtomicFile.write(workload.fileText, to: workloadPath)
    var arguments = [
      "allocations", "--format", "json", "--backends", backends.joined(separator: ","), "--corpus", corpus.corpus,
      "--workload", workloadPath, "--mode", mode, "--limit", String(limit),
    ]
    if let directory = corpus.explicitDirectory { arguments += ["--corpus-dir", directory] }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CallgrindRun.executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment[Self.deterministicHashing] = "1"
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CommandError(
        message:
          "counting allocations failed (exit status \(process.terminationStatus)): \(String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))"
      )
    }
    do {
      return try JSONDecoder().decode([String: AllocationSummary].self, from: data)
    } catch {
      throw CommandError(message: "counting allocations wrote what is not a summary: \(error)")
    }
  }
}
