import CitySearchTestSupport
import Foundation
import Testing

/// A report set under signals at each named step of its write (`CITYBENCH_PAUSE_AT` stops the
/// process there, so the signal lands at that exact step rather than at a moment chosen by
/// timing), and under outputs that cannot be written: the directory always holds the whole old
/// set or the whole new one.
@Suite(.timed) struct ReportSetFaultTests {
  static let plist = CLI.packageRoot.appendingPathComponent("Tests/CitySearchTests/Fixtures/Cities.plist").path
  static let reportFiles = ["report.html", "report.md", "results.json", "samples.csv"]

  func bench(_ out: URL) -> [String] {
    [
      "bench", "--corpus", Self.plist, "--backends", "trie", "--rounds", "1", "--warm-up", "0", "--relevance", "off",
      "--out", out.path,
    ]
  }

  func snapshot(_ directory: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      result[name] = try Data(contentsOf: directory.appendingPathComponent(name))
    }
    return result
  }

  /// Runs the binary until it pauses at `point`, delivers `signal`, and returns how it ended.
  func run(_ arguments: [String], pausingAt point: String, deliver signal: Int32) throws -> (
    reason: Process.TerminationReason, status: Int32, stderr: String
  ) {
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["CITYBENCH_PAUSE_AT"] = point
    process.environment = environment
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    var stderr = Data()
    while !String(decoding: stderr, as: UTF8.self).contains("paused at \(point)") {
      let chunk = err.fileHandleForReading.availableData
      if chunk.isEmpty { break }  // it ended without reaching the point
      stderr.append(chunk)
    }
    // The message comes just before the stop: wait until the process is stopped, or a signal
    // could land before it and the stop would then last for ever.
    let pid = process.processIdentifier
    while process.isRunning && !Self.isStopped(pid) { usleep(10_000) }
    kill(pid, signal)
    kill(pid, SIGCONT)
    stderr.append(err.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    return (process.terminationReason, process.terminationStatus, String(decoding: stderr, as: UTF8.self))
  }

  /// Whether the process is stopped (state `T` in /proc/PID/stat).
  static func isStopped(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[close...].dropFirst(2).first == "T"
  }

  @Test func signalsAtEveryStepLeaveOneWholeSet() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-faults-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: base) }
    let out = base.appendingPathComponent("report")
    let first = try CLI.run(bench(out))
    #expect(first.status == 0, "\(first.stderr)")
    let old = try snapshot(out)
    #expect(old.keys.sorted() == Self.reportFiles)

    // Before the exchange: whatever the signal, the old set stays, byte for byte.
    for (point, signal) in [
      ("staged:results.json", SIGKILL), ("staged:report.md", SIGTERM), ("staged:samples.csv", SIGINT),
      ("complete", SIGKILL),
    ] {
      let ended = try run(bench(out), pausingAt: point, deliver: signal)
      #expect(ended.stderr.contains("paused at \(point)"), "\(ended.stderr)")
      if signal == SIGINT {
        #expect(ended.reason == .exit && ended.status == 130, "\(ended.stderr)")
        #expect(ended.stderr.contains("no report was written (an earlier report set is untouched)"))
      } else {
        #expect(
          ended.reason == .uncaughtSignal && ended.status == signal,
          "\(ended.reason.rawValue) \(ended.status) \(ended.stderr)")
      }
      #expect(try snapshot(out) == old, "after \(signal) at \(point)")
    }

    // Killed right after the exchange: the new set is in place, whole.
    let ended = try run(bench(out), pausingAt: "exchanged", deliver: SIGKILL)
    #expect(ended.reason == .uncaughtSignal)
    let new = try snapshot(out)
    #expect(new.keys.sorted() == Self.reportFiles)
    #expect(new["results.json"] != old["results.json"])

    // The next run removes every leftover of the killed ones.
    #expect(try CLI.run(bench(out)).status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: base.path) == ["report"])
  }

  @Test func anOutputThatCannotBeWrittenFailsBeforeTheRun() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-faults-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: base) }
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    let file = base.appendingPathComponent("a-file")
    try "x".write(to: file, atomically: false, encoding: .utf8)
    for (out, message) in [
      (file.path, "cannot write reports to \(file.path): it is a file, not a directory"),
      (file.path + "/sub", "Not a directory (ENOTDIR)"),
      ("/proc/citybench-report", "/proc"),
    ] {
      let r = try CLI.run(bench(URL(fileURLWithPath: out)))
      #expect(r.status == 1)
      #expect(r.stderr.contains(message), "\(r.stderr)")
      #expect(!r.stderr.contains("replaying"), "checked before the run: \(r.stderr)")
    }
  }
}
