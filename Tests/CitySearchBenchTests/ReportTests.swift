import CitySearchTestSupport
import Foundation
import FoundationXML
import Testing

@testable import CitySearchBench

/// The report writers, on one real (small) run.
@Suite(.timed) struct ReportTests {
  static let run = try! BenchFixtures.quickRun(extra: [BenchCandidate(type: DropsLastHitBackend.self)])

  @Test func resultsJSONMatchesTheSchemaAndReadsBack() throws {
    let data = try Self.run.results.jsonData()
    let schema = BenchFixtures.packageRoot.appendingPathComponent("docs/results.schema.json")
    let validator = try JSONSchemaValidator(schemaAt: schema)
    #expect(try validator.validate(data) == [])
    let directory = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
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
    defer { try? FileManager.default.removeItem(at: directory) }
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
    #expect(tables == 9)
    #expect(text.contains("| trie | "))
    #expect(text.contains("**diverges**"))
    #expect(text.contains("Debug build") || Self.run.results.metadata.buildConfiguration == "release")
  }

  /// A lead inside the run's A/A noise at p99, or inside the two intervals, is a tie and the
  /// headline says so; a lead beyond both names one backend and the next.
  @Test func aLeadInsideTheNoiseIsATie() throws {
    var results = Self.run.results
    results.noiseFloor?.p99 = Estimate(value: 1.3, lower: 1.2, upper: 1.4)
    let trie = try #require(results.backend(named: "trie"))
    func twin(_ factor: Double) -> BackendResults {
      var other = trie
      other.name = "trie-twin"
      let p99 = trie.latency!.p99
      other.latency!.p99 = Estimate(value: p99.value * factor, lower: p99.value * factor, upper: p99.value * factor)
      return other
    }
    var trieTight = trie
    trieTight.latency!.p99 = Estimate(
      value: trie.latency!.p99.value, lower: trie.latency!.p99.value, upper: trie.latency!.p99.value)
    results.backends = results.backends.map { $0.name == "trie" ? trieTight : $0 }
    var close = results
    close.backends.append(twin(1.2))
    let tied = Headline.sentences(close)
    #expect(tied[0].hasPrefix("Fastest conforming backends, tied within the run's noise"), "\(tied[0])")
    #expect(tied[1].hasPrefix("Tied with it: **trie-twin**"))
    var apart = results
    apart.backends.append(twin(3))
    let one = Headline.sentences(apart)
    #expect(one[0].hasPrefix("Fastest conforming backend (by p99 per keystroke, the lag a typist notices): **trie**"))
    #expect(one[1].hasPrefix("Next: trie-twin, p99 "))
  }

  /// The budget verdict names every timed backend whose p99 is over the budget, the reference
  /// included, and says so when none is.
  @Test func theBudgetVerdictNamesTheBackendsOverIt() {
    var results = Self.run.results
    let ranked = Headline.conformingByP99(results)
    let slowest = results.backends.compactMap { $0.latency?.p99.value }.max()!
    let fastest = results.backends.compactMap { $0.latency?.p99.value }.min()!
    results.metadata.keystrokeBudgetNanoseconds = slowest * 2
    #expect(
      Headline.budgetSentence(results, ranked: ranked).hasSuffix(
        "; every timed backend's p99 is within it, the reference's included."))
    results.metadata.keystrokeBudgetNanoseconds = fastest / 2
    let over = Headline.budgetSentence(results, ranked: ranked)
    #expect(over.contains("(--budget-ms)"))
    for backend in results.backends where backend.latency != nil && backend.external == nil {
      #expect(over.contains("\(backend.name) ("), "\(backend.name) is over a budget of half the fastest p99")
    }
  }

  /// The headline sets the library's choice beside the run's: the same, tied, slower (with the
  /// reason the library keeps it), diverging or not timed.
  @Test func theHeadlineSaysWhetherTheRunAgreesWithTheLibrary() throws {
    var results = Self.run.results
    let ranked = Headline.conformingByP99(results)
    let best = try #require(ranked.first)
    results.metadata.shippedBackend = best.name
    #expect(Headline.shippedSentence(results, best: best, tied: [])?.hasSuffix(", this run's choice too.") == true)
    results.metadata.shippedBackend = "kd-tree"
    #expect(
      Headline.shippedSentence(results, best: best, tied: [])?.hasSuffix("**kd-tree**, not timed in this run.") == true)
    let diverging = try #require(results.backends.first { $0.conformance.divergences > 0 })
    results.metadata.shippedBackend = diverging.name
    #expect(Headline.shippedSentence(results, best: best, tied: [])?.contains("diverged from the reference") == true)
    if let second = ranked.dropFirst().first {
      results.metadata.shippedBackend = second.name
      let slower = try #require(Headline.shippedSentence(results, best: best, tied: []))
      #expect(slower.contains("\(best.name)'s; it was chosen on every tier together"))
      let tied = try #require(Headline.shippedSentence(results, best: best, tied: [second]))
      #expect(tied.contains("tied with \(best.name) in this run"))
    }
    results.metadata.shippedBackend = nil
    #expect(Headline.shippedSentence(results, best: best, tied: []) == nil)
  }

  /// The reports open with the finding: the fastest conforming backend (never a diverging
  /// one, however fast), the divergences, the noise.
  @Test func reportsOpenWithTheHeadline() throws {
    let results = Self.run.results
    #expect(Headline.fastestConforming(results)?.name == "trie")
    let sentences = Headline.sentences(results)
    #expect(
      sentences[0].hasPrefix(
        "Fastest conforming backend (by p99 per keystroke, the lag a typist notices): **trie**, p50 ")
        || sentences[0].hasPrefix("Fastest conforming backends, tied within the run's noise"))
    #expect(sentences.contains { $0.hasPrefix("Budget per keystroke 16.7 ms (one 60 Hz frame): trie's p99 fits ") })
    #expect(sentences.contains { $0.hasPrefix("**Divergences:** drops-last-hit differs on ") })
    #expect(sentences.contains { $0.hasPrefix("Noise: the reference timed against itself differs by ") })
    let markdown = MarkdownReport.text(results)
    let firstSection = try #require(markdown.components(separatedBy: "\n## ").first)
    #expect(firstSection.contains("- Fastest conforming backend"))
    let html = HTMLReport.text(results)
    #expect(
      html.contains(
        "<ul class=\"headline\">\n<li>Fastest conforming backend"))

    // With nothing that conforms but the reference, the headline says so.
    var none = results
    none.backends = results.backends.filter { $0.name == results.reference || $0.name == "drops-last-hit" }
    #expect(Headline.sentences(none)[0] == "No backend other than the reference both conforms and was timed.")
  }

  /// Every table of report.md is in report.html too: both are written from one definition.
  @Test func everyMarkdownTableIsInTheHTML() throws {
    let html = HTMLReport.text(Self.run.results)
    let markdown = MarkdownReport.text(Self.run.results)
    for table in ReportTable.sections(Self.run.results) {
      #expect(markdown.contains("## \(table.title)\n"))
      #expect(html.contains(">\(XMLText.escape(table.title))</h"), "\(table.title)")
      let header = "<tr>" + table.headers.map { "<th>\(XMLText.escape($0))</th>" }.joined() + "</tr>"
      #expect(html.contains(header), "\(table.title)")
      for row in table.rows { #expect(html.contains(">\(XMLText.escape(row[0]))</td>"), "\(table.title): \(row[0])") }
    }
  }

  /// One backend 1000× slower gets no line on the shared axis (it would flatten the others),
  /// and its legend entry says where it is; every series has a legend entry.
  @Test func aFarSlowerSeriesIsLeftOffTheScaleAndNamed() {
    let svg = SVGChart.categoryLines(
      title: "p50", categories: ["1", "2"],
      series: [
        (name: "fast", values: [1_000, 2_000]), (name: "quick", values: [3_000, 1_500]),
        (name: "slow", values: [3e8, 2e8]),
      ])
    #expect(svg.contains(">fast</text>") && svg.contains(">quick</text>"))
    #expect(svg.contains(">slow: off scale, 200.0 ms–300.0 ms</text>"))
    #expect(!svg.contains("<title>slow"))
    #expect(svg.contains(">10 µs</text>") && !svg.contains(">100 ms</text>"))
    let close = SVGChart.categoryLines(
      title: "p50", categories: ["1"], series: [(name: "a", values: [1_000]), (name: "b", values: [20_000])])
    #expect(!close.contains("off scale"))
  }

  @Test func htmlIsWellFormedAndSelfContained() throws {
    let html = HTMLReport.text(Self.run.results)
    let parser = XMLParser(data: Data(html.utf8))
    let collector = ElementCollector()
    parser.delegate = collector
    #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    #expect(collector.elements.filter { $0 == "svg" }.count == 6)
    #expect(collector.elements.contains("polyline"))
    #expect(!collector.elements.contains("script"))
    #expect(!html.contains("src="))
    #expect(!html.contains("href="))
    #expect(html.contains("drops-last-hit"))
  }

  /// Every timed backend is a point of the trade-off chart, labelled with its build time, its
  /// label on the side of the point with room.
  @Test func tradeOffChartPlacesEveryBackend() throws {
    let points = [
      SVGChart.TradeOffPoint(name: "linear", bytes: 2e5, p99: 500_000, buildSeconds: 0.01),
      SVGChart.TradeOffPoint(name: "trie", bytes: 4e7, p99: 100_000, buildSeconds: 2),
      SVGChart.TradeOffPoint(name: "broken", bytes: 0, p99: 1, buildSeconds: 1),
    ]
    let svg = SVGChart.tradeOff(points, memoryLabel: "heap kept after build")
    #expect(svg.contains("<title>linear: 500.0 µs, built in "))
    #expect(svg.contains("text-anchor=\"start\">linear ("))
    #expect(svg.contains("text-anchor=\"end\">trie ("))
    #expect(!svg.contains("broken"))
    #expect(svg.contains(">100 kB</text>") && svg.contains(">100 MB</text>"))
    #expect(svg.components(separatedBy: "<circle").count == 3)
    #expect(SVGChart.tradeOff([], memoryLabel: "m").isEmpty)
    // The heap a build kept is measured process-wide, and tests run in parallel: another test
    // freeing memory meanwhile can make it 0, and a point of 0 bytes has no place on a log
    // axis. The chart is what is checked here, so every backend gets a heap of its own.
    var results = Self.run.results
    for i in results.backends.indices { results.backends[i].build.heapBytes = 10_000 * (i + 1) }
    let html = HTMLReport.text(results)
    for backend in results.backends {
      let p99 = try #require(backend.latency?.p99.value)
      #expect(html.contains("<title>\(backend.name): \(Formatting.duration(nanoseconds: p99)), built in "))
    }
  }

  /// Two close points' labels do not overlap: the second moves a line away.
  @Test func tradeOffLabelsOfNearbyPointsDoNotOverlap() {
    let points = [
      SVGChart.TradeOffPoint(name: "trie", bytes: 1.7e6, p99: 86_000, buildSeconds: 0.1),
      SVGChart.TradeOffPoint(name: "inverted-index", bytes: 2.4e6, p99: 66_000, buildSeconds: 0.05),
      SVGChart.TradeOffPoint(name: "linear", bytes: 1e4, p99: 400_000, buildSeconds: 0.001),
    ]
    let placed = SVGChart.LabelBox.place(
      "inverted-index (0.050 s)", x: 400, baseline: 200, onRight: false,
      avoiding: [
        SVGChart.LabelBox.place(
          "trie (0.100 s)", x: 390, baseline: 204, onRight: false, avoiding: [], within: (30, 330))
      ],
      within: (30, 330))
    #expect(placed.baseline != 200)
    #expect(!SVGChart.tradeOff(points, memoryLabel: "heap").isEmpty)
  }

  /// A label beside the lowest point clears the memory axis's tick labels below the plot: on a
  /// decade (`1 MB`) it sat on its tick label, which `scripts/render-report.sh` refuses.
  @Test func tradeOffLabelsClearTheTickLabels() throws {
    let points = [
      SVGChart.TradeOffPoint(name: "trie", bytes: 1e5, p99: 90_000, buildSeconds: 2),
      SVGChart.TradeOffPoint(name: "inverted-index", bytes: 1e6, p99: 10_000, buildSeconds: 0.075),
      SVGChart.TradeOffPoint(name: "linear", bytes: 1e8, p99: 900_000, buildSeconds: 0.001),
    ]
    let svg = SVGChart.tradeOff(points, memoryLabel: "heap")
    #expect(svg.contains(">1 MB</text>"))
    // The plot's bottom is at y 330 and the tick labels' baseline at 348 (12 px type, a box from
    // 12 above the baseline to 3 below): the label's box must end above 336.
    let element = try #require(svg.split(separator: "\n").first { $0.contains(">inverted-index (") })
    let y = try #require(Double(element.split(separator: "y=\"")[1].prefix { $0 != "\"" }))
    #expect(y + 3 <= 336, "\(element)")
  }

  /// Every section table is in the page, where it belongs, whichever optional tables the run
  /// has (executors, instructions, allocations shift their order).
  @Test func everyTableIsInThePageWithTheOptionalOnes() throws {
    var results = Self.run.results
    let index = try #require(results.backends.firstIndex { $0.name == "trie" })
    results.backends[index].instructions = InstructionSummary(
      tool: "callgrind", keystrokes: 10, total: 100, sampled: [10], stride: 10)
    results.backends[index].allocations = AllocationSummary(counts: [1, 2, 3])
    let html = HTMLReport.text(results)
    for table in ReportTable.sections(results) {
      #expect(html.contains(">\(XMLText.escape(table.title))</h"), "\(table.title)")
    }
    let build = try #require(html.range(of: ">Build and memory</h3>"))
    let charts = try #require(html.range(of: "<h2>Build time and memory</h2>"))
    #expect(charts.lowerBound < build.lowerBound)
    // Cells carry their column's name for the stacked layout of a phone-width page.
    #expect(html.contains("<td data-label=\"p99\">"))
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

@Suite(.timed) struct AtomicFileTests {
  @Test func writesReplacesAndLeavesNoTemporaryFile() throws {
    let directory = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("sub/report.md").path
    try AtomicFile.write("first", to: path)
    try AtomicFile.write("second", to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("sub").path)
    #expect(names == ["report.md"])
  }

  @Test func aFailedWriteKeepsTheOldFileAndSaysWhy() throws {
    let directory = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("results.json")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    try "keep".write(to: target.appendingPathComponent("inside"), atomically: false, encoding: .utf8)
    let error = #expect(throws: FileSystemError.self) { try AtomicFile.write("new", to: target.path) }
    #expect(error?.description == "cannot write \(target.path): it is a directory")
    #expect(try String(contentsOf: target.appendingPathComponent("inside"), encoding: .utf8) == "keep")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["results.json"])
  }

  @Test func systemReasonsCarryTheErrnoName() {
    #expect(
      FileSystemError("write", "/x", code: ENOSPC).description == "cannot write /x: No space left on device (ENOSPC)")
    #expect(FileSystemError("create", "/y", code: EROFS).reason == "Read-only file system (EROFS)")
  }
}

@Suite(.timed) struct ReportDirectoryTests {
  let family: Set<String> = ["results.json", "report.md", "samples.csv"]

  func contents(_ url: URL) throws -> [String: String] {
    var result: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
      result[name] = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }
    return result
  }

  func siblings(of url: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
  }

  @Test func aNewSetReplacesTheOldOneAndKeepsForeignFiles() throws {
    let out = try BenchFixtures.temporaryDirectory().appendingPathComponent("report")
    defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
    let first = try ReportDirectory(out.path, family: family)
    try first.write("1", named: "results.json")
    try first.write("1", named: "report.md")
    try first.write("1", named: "samples.csv")
    #expect(try first.commit() == ["results.json", "report.md", "samples.csv"].map { "\(out.path)/\($0)" })
    try "mine".write(to: out.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)

    // A second run writes two of the three: the third, which described the first run, goes.
    let second = try ReportDirectory(out.path, family: family)
    try second.write("2", named: "results.json")
    try second.write("2", named: "report.md")
    #expect(try contents(out) == ["results.json": "1", "report.md": "1", "samples.csv": "1", "notes.txt": "mine"])
    try second.commit()
    #expect(try contents(out) == ["results.json": "2", "report.md": "2", "notes.txt": "mine"])
    #expect(try siblings(of: out) == ["report"])
  }

  @Test func anAbandonedSetLeavesTheOldOneWhole() throws {
    let out = try BenchFixtures.temporaryDirectory().appendingPathComponent("report")
    defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
    let first = try ReportDirectory(out.path, family: family)
    try first.write("1", named: "results.json")
    try first.commit()
    do {
      let second = try ReportDirectory(out.path, family: family)
      try second.write("2", named: "results.json")
      #expect(try siblings(of: out).count == 2)  // the staging directory beside it
    }
    #expect(try contents(out) == ["results.json": "1"])
    #expect(try siblings(of: out) == ["report"])
  }

  @Test func theTargetIsCheckedBeforeAnyWork() throws {
    let base = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: base) }
    let file = base.appendingPathComponent("plain")
    try "x".write(to: file, atomically: false, encoding: .utf8)
    let notADirectory = #expect(throws: FileSystemError.self) { try ReportDirectory(file.path, family: family) }
    #expect(notADirectory?.description == "cannot write reports to \(file.path): it is a file, not a directory")

    let nested = base.appendingPathComponent("nested")
    try FileManager.default.createDirectory(
      at: nested.appendingPathComponent("inner"), withIntermediateDirectories: true)
    let holdsDirectory = #expect(throws: FileSystemError.self) { try ReportDirectory(nested.path, family: family) }
    #expect(holdsDirectory?.reason.contains("it holds the directory 'inner'") == true)

    let below = #expect(throws: FileSystemError.self) {
      try ReportDirectory(file.appendingPathComponent("sub").path, family: family)
    }
    #expect(below?.reason == "Not a directory (ENOTDIR)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).sorted() == ["nested", "plain"])
  }

  @Test func leftoversOfKilledRunsAreFinishedOrRemoved() throws {
    let base = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: base) }
    let out = base.appendingPathComponent("report")
    // A process id that cannot be running (above the kernel's pid_max).
    let dead = 99_999_999
    func leftover(_ state: String, _ value: String) throws {
      let url = base.appendingPathComponent(".report.citybench-\(dead).\(state)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try value.write(to: url.appendingPathComponent("results.json"), atomically: false, encoding: .utf8)
    }
    // Killed between the two renames of the fallback move: no target, the old set aside and the
    // complete new one beside it. The new one is put in place.
    try leftover("old", "old")
    try leftover("complete", "new")
    _ = try ReportDirectory(out.path, family: family)
    #expect(try contents(out) == ["results.json": "new"])

    // A staging directory and a stray temporary file of dead runs are removed.
    try leftover("staging", "half")
    try "x".write(
      to: out.appendingPathComponent(".report.md.citybench-\(dead).tmp"), atomically: false, encoding: .utf8)
    let reports = try ReportDirectory(out.path, family: family)
    try reports.write("3", named: "results.json")
    try reports.commit()
    #expect(try contents(out) == ["results.json": "3"])
    #expect(try siblings(of: out) == ["report"])
  }
}
