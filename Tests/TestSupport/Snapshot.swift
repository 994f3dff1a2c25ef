import Foundation
import Testing

/// Snapshot files: a text compared with the file at a path, recorded when the file is missing
/// or when `CITYBENCH_RECORD_SNAPSHOTS=1` asks for it (review the diff before committing).
public enum Snapshot {
  /// The environment variable that re-records every snapshot a test run compares.
  public static let recordVariable = "CITYBENCH_RECORD_SNAPSHOTS"

  /// Compares `actual` with the snapshot at `url`, recording it where it is missing or asked for.
  public static func expect(_ actual: String, matches url: URL, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let recording = ProcessInfo.processInfo.environment[recordVariable] == "1"
    if recording || !FileManager.default.fileExists(atPath: url.path) {
      try actual.write(to: url, atomically: true, encoding: .utf8)
      if !recording {
        Issue.record("recorded the missing snapshot \(url.lastPathComponent)", sourceLocation: sourceLocation)
      }
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
      actual == expected,
      "snapshot \(url.lastPathComponent) differs; rerun with \(recordVariable)=1 to record",
      sourceLocation: sourceLocation)
  }
}
