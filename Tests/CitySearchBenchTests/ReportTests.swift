import Foundation
import FoundationXML
import Testing

@testable import CitySearchBench

/// The report writers, on one real (small) run.
@Suite struct ReportTests {
  static let run = try! BenchFixtures.quickRun(extra: [BenchCandidate(type: DropsLastHitBackend.self)])

  @Test func resultsJSONMatchesTheSchemaAndReadsBack() throws {
    let data = try Self.run.results.jsonData()
    let schema = BenchFixtures.packageRoot.appendingPathComponent("docs/results.schema.json")
    let validator = try JSONSchemaValidator(schemaAt: schema)
    #expect(try validator.validate(data) == [])
    let directory = try BenchFixtures.temporaryDirectory()
    let path = directory.appendingPathComponent("results.json").path
    try AtomicFile.write(data, to: path)
    let again = try BenchResults(contentsOf: path)
    #expect(try again.jsonData() == data)
  }

  @Test func theSchemaCheckCanFail() throws {
    let schema = BenchFixtures.packageRoot.appendingPathComponent("docs/results.schema.json")
    let validator = try JSONSchemaValidator(schemaAt: schema)
    var object = try JSONSerialization.jsonObject(with: Self.run.results.jsonData()) as! [String: Any]
    object.removeValue(forKey: "reference")
    object["extra"] = 1
    var metadata = object["metadata"] as! [String: Any]
    metadata["rounds"] = "three"
    object["metadata"] = metadata
    let problems = try validator.validate(JSONSerialization.data(withJSONObject: object))
    #expect(problems.contains("$: missing required 'reference'"))
    #expect(problems.contains("$: unexpected 'extra'"))
    #expect(problems.contains("$.metadata.rounds: expected integer, found string"))
  }

  @Test func unknownSchemaVersionIsRefused() throws {
    let directory = try BenchFixtures.temporaryDirectory()
    let path = directory.appendingPathComponent("old.json").path
    try AtomicFile.write("{\"schemaVersion\": 99}", to: path)
    #expect {
      try BenchResults(contentsOf: path)
    } throws: { error in
      "\(error)".contains("schema version 99")
    }
    try AtomicFile.write("{\"schemaVersion\": 1}", to: path)
    #expect {
      try BenchResults(contentsOf: path)
    } throws: { error in
      "\(error)".contains("missing")
    }
  }

  @Test func markdownTablesAreRectangular() {
    let text = MarkdownReport.text(Self.run.results)
    var tables = 0
    var columns: Int?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("|") else {
        columns = nil
        continue
      }
      // Cells are separated by unescaped bars.
      let cells = line.replacingOccurrences(of: "\\|", with: "").split(separator: "|", omittingEmptySubsequences: false)
      if let columns {
        #expect(cells.count == columns, "ragged row: \(line)")
      } else {
        columns = cells.count
        tables += 1
      }
    }
    #expect(tables == 7)
    #expect(text.contains("| trie | "))
    #expect(text.contains("**diverges**"))
    #expect(text.contains("Debug build") || Self.run.results.metadata.buildConfiguration == "release")
  }

  @Test func htmlIsWellFormedAndSelfContained() throws {
    let html = HTMLReport.text(Self.run.results)
    let parser = XMLParser(data: Data(html.utf8))
    let collector = ElementCollector()
    parser.delegate = collector
    #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    #expect(collector.elements.filter { $0 == "svg" }.count == 5)
    #expect(collector.elements.contains("polyline"))
    #expect(!collector.elements.contains("script"))
    #expect(!html.contains("src="))
    #expect(!html.contains("href="))
    #expect(html.contains("drops-last-hit"))
  }

  @Test func samplesCSVHasOneRowPerSample() {
    let (_, raw) = Self.run
    let text = SamplesCSV.text(raw: raw, workload: BenchFixtures.smallWorkload)
    let lines = text.split(separator: "\n")
    let samples = raw.series.reduce(0) { $0 + $1.samples.compactMap { $0 }.count }
    #expect(lines.count == samples + 1)
    #expect(lines[0] == Substring(SamplesCSV.header))
    #expect(SamplesCSV.quote("a,b") == "\"a,b\"")
    #expect(SamplesCSV.quote("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(SamplesCSV.quote("北京") == "北京")
  }

  @Test func formatting() {
    #expect(Formatting.duration(nanoseconds: 850) == "850 ns")
    #expect(Formatting.duration(nanoseconds: 1_850) == "1.85 µs")
    #expect(Formatting.duration(nanoseconds: 61_300) == "61.3 µs")
    #expect(Formatting.duration(nanoseconds: 4_560_000) == "4.56 ms")
    #expect(Formatting.duration(nanoseconds: 1_200_000_000) == "1.20 s")
    #expect(Formatting.count(15_464) == "15,464")
    #expect(Formatting.ratio(0.031) == "0.031×")
    #expect(SVGChart.tickLabel(100) == "100 ns")
    #expect(SVGChart.tickLabel(1_000) == "1 µs")
    #expect(SVGChart.tickLabel(10_000_000) == "10 ms")
  }
}

final class ElementCollector: NSObject, XMLParserDelegate {
  var elements: [String] = []
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    elements.append(elementName)
  }
}

@Suite struct AtomicFileTests {
  @Test func writesReplacesAndLeavesNoTemporaryFile() throws {
    let directory = try BenchFixtures.temporaryDirectory()
    let path = directory.appendingPathComponent("sub/report.md").path
    try AtomicFile.write("first", to: path)
    try AtomicFile.write("second", to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("sub").path)
    #expect(names == ["report.md"])
  }

  @Test func aFailedWriteKeepsTheOldFile() throws {
    let directory = try BenchFixtures.temporaryDirectory()
    // The target is a non-empty directory, so the rename fails.
    let target = directory.appendingPathComponent("results.json")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    try "keep".write(to: target.appendingPathComponent("inside"), atomically: false, encoding: .utf8)
    #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write("new", to: target.path) }
    #expect(try String(contentsOf: target.appendingPathComponent("inside"), encoding: .utf8) == "keep")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(names == ["results.json"])
  }
}
