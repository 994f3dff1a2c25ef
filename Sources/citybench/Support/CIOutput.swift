import CitySearchBench
import Foundation

/// Where CI servers look: the GitHub Actions job summary and annotations, and JUnit XML.
enum CIOutput {
  /// The gate's verdict: as JUnit XML to `junit` when given, as annotations under GitHub
  /// Actions, and appended to `$GITHUB_STEP_SUMMARY` when it is set. A job summary that cannot
  /// be written is a warning: the verdict and the JUnit file do not depend on it.
  static func publish(_ report: GateReport, junit: String?) throws {
    if let junit { try AtomicFile.write(Data(report.junit.xml.utf8), to: junit) }
    if runsInGitHubActions { for line in report.workflowCommands { emit(line) } }
    if let problem = appendToStepSummary(report.markdown) {
      standardError("citybench gate: warning: \(problem); the verdict is in verdict.md")
    }
  }

  static var runsInGitHubActions: Bool { ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" }

  /// Appends `markdown` to the job summary file GitHub Actions names in `$GITHUB_STEP_SUMMARY`;
  /// returns what went wrong, if anything.
  static func appendToStepSummary(_ markdown: String) -> String? {
    guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return nil }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      return "cannot append to $GITHUB_STEP_SUMMARY (\(path)): no such writable file"
    }
    defer { try? handle.close() }
    do {
      try handle.seekToEnd()
      try handle.write(contentsOf: Data((markdown + "\n").utf8))
    } catch {
      return "cannot append to $GITHUB_STEP_SUMMARY (\(path)): \(error.localizedDescription)"
    }
    return nil
  }
}
