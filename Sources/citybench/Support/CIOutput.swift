import CitySearchBench
import Foundation

/// Where CI servers look: the GitHub Actions job summary and annotations, and JUnit XML.
enum CIOutput {
  /// The gate's verdict: appended to `$GITHUB_STEP_SUMMARY` when it is set, as annotations
  /// under GitHub Actions, and as JUnit XML to `junit` when given.
  static func publish(_ report: GateReport, junit: String?) throws {
    try appendToStepSummary(report.markdown)
    if runsInGitHubActions { for line in report.workflowCommands { emit(line) } }
    if let junit { try AtomicFile.write(Data(report.junit.xml.utf8), to: junit) }
  }

  static var runsInGitHubActions: Bool { ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" }

  /// Appends `markdown` to the job summary file GitHub Actions names in `$GITHUB_STEP_SUMMARY`.
  static func appendToStepSummary(_ markdown: String) throws {
    guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw CommandError(message: "cannot append to $GITHUB_STEP_SUMMARY (\(path)): no such writable file")
    }
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((markdown + "\n").utf8))
  }
}
