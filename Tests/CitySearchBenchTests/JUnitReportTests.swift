import CitySearchTestSupport
import Foundation
import Testing

@testable import CitySearchBench

/// JUnit XML and GitHub Actions workflow commands, from a gate verdict.
@Suite(.timed) struct JUnitReportTests {
  func metric(_ backend: String, _ name: String, _ verdict: GateVerdict, note: String) -> GateMetric {
    GateMetric(
      backend: backend, metric: name, baseline: Estimate(value: 1000, lower: 1000, upper: 1000),
      current: Estimate(value: 1100, lower: 1100, upper: 1100),
      change: Estimate(value: 1.1, lower: 1.1, upper: 1.1), threshold: 0.02, allowed: 0.02, verdict: verdict,
      note: note)
  }

  var report: GateReport {
    let info = GateReport.RunInfo(path: "b.json", gitCommit: "abc", startedAt: "2026", cpuModel: "cpu")
    return GateReport(
      schemaVersion: 1, verdict: .regression, baseline: info, current: info,
      metrics: [
        metric("trie", "instructions.total", .regression, note: "more instructions by more than 1%"),
        metric("icu <cached>", "ratio.p50", .inconclusive, note: "the interval of change straddles +30%"),
        metric("trie", "conformance", .pass, note: "ok"),
      ])
  }

  @Test func everyMetricIsATestCase() {
    let xml = report.junit.xml
    #expect(
      xml.hasPrefix(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"citybench gate\" tests=\"3\" failures=\"1\" skipped=\"1\">"
      ))
    #expect(
      xml.contains(
        #"<testcase classname="gate.trie" name="instructions.total" time="0.000">"# + "\n"
          + #"      <failure message="regression: more instructions by more than 1%">trie instructions.total: regression; baseline 1,000, current 1,100; change 1.1000×; allowed +2%; more instructions by more than 1%</failure>"#
      ))
    #expect(
      xml.contains(
        #"<testcase classname="gate.icu &lt;cached&gt;" name="ratio.p50" time="0.000">"# + "\n"
          + #"      <skipped message="inconclusive: the interval of change straddles +30%"/>"#))
    #expect(xml.contains(#"<testcase classname="gate.trie" name="conformance" time="0.000"/>"#))
    #expect(xml.hasSuffix("  </testsuite>\n</testsuites>\n"))
  }

  @Test func textIsEscapedForXML() {
    #expect(XMLText.escape(#"a<b>&"c"'d"#) == "a&lt;b&gt;&amp;&quot;c&quot;&apos;d")
    #expect(XMLText.escape("tab\tnew\nline\u{1}bell\u{7}") == "tab\tnew\nline\u{FFFD}bell\u{FFFD}")
    #expect(XMLText.escape("北京 ✓") == "北京 ✓")
  }

  @Test func regressionsAreErrorsAndInconclusiveMetricsWarnings() {
    let commands = report.workflowCommands
    #expect(commands.count == 2)
    #expect(
      commands[0]
        == "::error title=citybench gate (regression)::trie instructions.total: regression; baseline 1,000, current 1,100; change 1.1000×; allowed +2%25; more instructions by more than 1%25"
    )
    #expect(
      commands[1].hasPrefix("::warning title=citybench gate (inconclusive)::icu <cached> ratio.p50: inconclusive;"))
    #expect(!commands.contains { $0.contains("\n") })
  }
}
