import CitySearchTestSupport
import Foundation
import Testing

/// What one run of the binary produced.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

enum CLI {
  static let packageRoot = TestPaths.packageRoot

  /// The directory that holds the built products (and the test bundle).
  static let productsDirectory: URL = {
    var url = Bundle.main.bundleURL
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("citybench").path) && url.path != "/" {
      url = url.deletingLastPathComponent()
    }
    return url
  }()

  static var binary: URL { productsDirectory.appendingPathComponent("citybench") }

  /// Runs `citybench arguments…` with `input` on standard input.
  static func run(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:], directory: URL? = nil,
    executable: URL? = nil
  ) throws -> RunResult {
    let process = Process()
    process.executableURL = executable ?? binary
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "CITYBENCH_CORPUS_DIR")
    for (k, v) in environment { env[k] = v }
    process.environment = env
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inPipe.fileHandleForWriting.close()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  /// Compares `actual` with `Snapshots/NAME.txt` (``Snapshot``: recorded when missing or with
  /// `CITYBENCH_RECORD_SNAPSHOTS=1`).
  static func assertSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    try Snapshot.expect(
      actual, matches: packageRoot.appendingPathComponent("Tests/CityBenchCLITests/Snapshots/\(name).txt"),
      sourceLocation: sourceLocation)
  }

}
