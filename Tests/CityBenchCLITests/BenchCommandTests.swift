import CitySearchTestSupport
import Foundation
import Testing

/// `bench`, `gate` and `workload` end to end, on a tiny workload of the user's own format
/// (the debug build answers slowly; the real runs are release builds).
@Suite(.timed) struct BenchCommandTests {
  static let workload = """
    # citybench workload 1
    session\tplace\tstyle\ttypo\ttext
    one\t110000\tpinyin\t0\tb
    one\t110000\tpinyin\t0\tbe
    one\t110000\tpinyin\t0\tbei
    two\t\tinitials\t0\tc
    two\t\tinitials\t0\tcs
    three\t\thanzi\t1\t重
    three\t\thanzi\t1\t重x
    three\t\thanzi\t1\t重

    """

  /// A fresh directory holding the tiny workload; each test removes it when done.
  func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try Self.workload.write(to: url.appendingPathComponent("tiny.tsv"), atomically: true, encoding: .utf8)
    return url
  }

  func quick(_ dir: URL) -> [String] {
    [
      "--workload", dir.appendingPathComponent("tiny.tsv").path, "--backends", "inverted-index", "--rounds", "2",
      "--warm-up", "0", "--relevance", "off",
    ]
  }

  /// The relevance section, measured on a small corpus (on `cities` it replays every place,
  /// which a debug build takes minutes over; `citybench relevance` in CI covers that).
  @Test func benchReportsRelevance() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let plist = CLI.packageRoot.appendingPathComponent("Tests/CitySearchTests/Fixtures/Cities.plist").path
    let out = dir.appendingPathComponent("relevance")
    let r = try CLI.run([
      "bench", "--corpus", plist, "--backends", "trie", "--rounds", "1", "--warm-up", "0", "--relevance", "on",
      "--format", "md,json", "--out", out.path,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
    #expect(report.contains("## Relevance of the reference's ranking"))
    let json = try String(contentsOf: out.appendingPathComponent("results.json"), encoding: .utf8)
    #expect(json.contains("\"relevance\""))
  }

  /// `--keyboard` and `--confuse` replay sessions generated from the corpus (one per target),
  /// and refuse a workload file or each other.
  @Test func keyboardAndConfusedSessionsAreGenerated() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let plist = CLI.packageRoot.appendingPathComponent("Tests/CitySearchTests/Fixtures/Cities.plist").path
    let common = [
      "bench", "--corpus", plist, "--backends", "trie", "--rounds", "1", "--warm-up", "0", "--relevance", "off",
    ]
    let xiaohe = try CLI.run(common + ["--keyboard", "xiaohe", "--out", dir.appendingPathComponent("x").path])
    #expect(xiaohe.status == 0, "\(xiaohe.stderr)")
    #expect(xiaohe.stderr.contains("replaying sessions typed on xiaohe"), "\(xiaohe.stderr)")
    #expect(xiaohe.stderr.contains("workload Cities.plist typed on xiaohe (generated, seed 1): 6 sessions"))
    let confused = try CLI.run(
      common + ["--confuse", "all", "--fuzzy", "all", "--out", dir.appendingPathComponent("c").path])
    #expect(confused.status == 0, "\(confused.stderr)")
    #expect(confused.stderr.contains("typed confusing all (generated, seed 1): 6 sessions"), "\(confused.stderr)")
    let both = try CLI.run(common + ["--keyboard", "xiaohe", "--confuse", "zh-z"])
    #expect(both.status == 64 && both.stderr.contains("give one"), "\(both.stderr)")
    let file = try CLI.run(["bench", "--keyboard", "daqian"] + quick(dir))
    #expect(file.status == 64 && file.stderr.contains("a --workload file's texts are replayed as they are"))
  }

  @Test func benchCountsAllocationCallsExactlyWhenAsked() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    var counts: [Int] = []
    for run in 1...2 {
      let out = dir.appendingPathComponent("alloc\(run)")
      let r = try CLI.run(
        ["bench"] + quick(dir) + ["--allocations", "inverted-index", "--format", "json,md", "--out", out.path])
      #expect(r.status == 0, "\(r.stderr)")
      let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
      #expect(report.contains("## Allocation calls per keystroke"))
      let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results.json")))
      let backends = try #require((json as? [String: Any])?["backends"] as? [[String: Any]])
      let index = try #require(backends.first { $0["name"] as? String == "inverted-index" })
      let allocations = try #require(index["allocations"] as? [String: Any])
      #expect(allocations["keystrokes"] as? Int == 8)
      counts.append(try #require(allocations["total"] as? Int))
      #expect(backends.first { $0["name"] as? String == "linear" }?["allocations"] == nil)
    }
    #expect(counts[0] > 0 && counts[0] == counts[1], "deterministic hashing in the counting process")
    let untimed = try CLI.run(["bench"] + quick(dir) + ["--allocations", "trie"])
    #expect(untimed.status == 64)
    #expect(untimed.stderr.contains("--allocations names 'trie', which --backends does not time"))
  }

  /// A backend opened from an index file (`citybench index build`) instead of built: timed
  /// like the others, its results naming the file; refused for another corpus or a backend the
  /// run does not time.
  @Test func benchOpensABackendFromAnIndexFile() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let index = dir.appendingPathComponent("cities.trie").path
    #expect(try CLI.run(["index", "build", "--backend", "trie", "--out", index]).status == 0)
    let quickTrie = quick(dir).map { $0 == "inverted-index" ? "trie" : $0 }
    let out = dir.appendingPathComponent("opened")
    let r = try CLI.run(["bench"] + quickTrie + ["--index", index, "--format", "json", "--out", out.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect((r.stdout + r.stderr).contains("trie: opened from \(index) in "))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results.json")))
    let metadata = try #require((json as? [String: Any])?["metadata"] as? [String: Any])
    #expect((metadata["backendOptions"] as? String)?.contains("trie opened from \(index)") == true)
    let backends = try #require((json as? [String: Any])?["backends"] as? [[String: Any]])
    #expect(backends.contains { $0["name"] as? String == "trie" })

    let other = dir.appendingPathComponent("other.trie").path
    let digits = CLI.packageRoot.appendingPathComponent("Tests/CitySearchTests/Fixtures/latin-digits.tsv").path
    #expect(try CLI.run(["index", "build", "--corpus", digits, "--out", other]).status == 0)
    let refused = try CLI.run(["bench"] + quickTrie + ["--index", other])
    #expect(refused.status == 1 && refused.stderr.contains("holds the index of another corpus"), "\(refused.stderr)")
    let untimed = try CLI.run(["bench"] + quick(dir) + ["--index", index])
    #expect(untimed.status == 64 && untimed.stderr.contains("holds the trie index: add trie to --backends"))
  }

  @Test func benchWritesEveryReport() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("report")
    let r = try CLI.run(["bench"] + quick(dir) + ["--out", out.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("inverted-index"))
    #expect(r.stdout.contains("conformance: every answer matches the reference"))
    let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(files == ["report.html", "report.md", "results.json", "samples.csv"])
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results.json")))
    let object = try #require(json as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 1)
    let csv = try String(contentsOf: out.appendingPathComponent("samples.csv"), encoding: .utf8)
    // 8 keystrokes × 2 rounds × 3 series (linear, its A/A twin, inverted-index), plus the header.
    #expect(csv.split(separator: "\n").count == 8 * 2 * 3 + 1)
    #expect(r.stderr.contains("replaying") || r.stderr.contains("places"))
  }

  /// `bench --corpus A,B`: one bench per corpus, each tier's reports named after it, and the
  /// cost-growth pages; a later run of one corpus replaces the whole set.
  @Test func severalCorporaMakeOneRunWithTheCostGrowth() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fixtures = CLI.packageRoot.appendingPathComponent("Tests/CitySearchTests/Fixtures")
    let (plist, json) = (
      fixtures.appendingPathComponent("Cities.plist").path, fixtures.appendingPathComponent("places.json").path
    )
    let out = dir.appendingPathComponent("growth")
    let common = ["--backends", "trie", "--rounds", "1", "--warm-up", "0", "--relevance", "off", "--out", out.path]
    let r = try CLI.run(["bench", "--corpus", "\(plist),\(json)"] + common)
    #expect(r.status == 0, "\(r.stderr)")
    let tierFiles = ["report.html", "report.md", "results.json", "samples.csv"]
    let expected =
      (["Cities.plist", "places.json"].flatMap { tier in tierFiles.map { "\(tier).\($0)" } }
      + ["growth.json", "report.html", "report.md"]).sorted()
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == expected)
    let growth = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("growth.json")))
        as? [String: Any])
    let tiers = try #require(growth["tiers"] as? [[String: Any]])
    #expect(tiers.compactMap { $0["name"] as? String } == ["places.json", "Cities.plist"], "smallest first")
    #expect(r.stdout.contains("On the largest tier, Cities.plist"))
    let page = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
    #expect(page.contains("## Growth exponents") && page.contains("[places.json](places.json.report.md)"))

    let single = try CLI.run(["bench", "--corpus", json] + common)
    #expect(single.status == 0, "\(single.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == tierFiles)
  }

  @Test func aListOfCorporaRefusesWhatNeedsOne() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (extra, message) in [
      (
        ["--corpus", "cities,towns", "--workload", dir.appendingPathComponent("tiny.tsv").path],
        "--workload names one workload"
      ),
      (["--corpus", "cities,towns", "--shard", "1/2"], "--shard takes one corpus"),
      (["--corpus", "cities,cities"], "--corpus names 'cities' twice"),
      (["--corpus", "cities,,towns"], "empty name at position 2"),
    ] {
      let r = try CLI.run(["bench", "--backends", "trie", "--out", dir.appendingPathComponent("x").path] + extra)
      #expect(r.status == 64, "\(extra)")
      #expect(r.stderr.contains(message), "\(extra): \(r.stderr)")
    }
  }

  @Test func formatChoosesTheReports() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("md-only")
    let r = try CLI.run(["bench"] + quick(dir) + ["--out", out.path, "--format", "md"])
    #expect(r.status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["report.md"])
    let bad = try CLI.run(["bench"] + quick(dir) + ["--format", "pdf"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("unknown report format 'pdf'"))
  }

  @Test func badWorkloadNamesTheLine() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("bad.tsv")
    try "# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\na\t1\tpinyin\t0\n".write(
      to: path, atomically: true, encoding: .utf8)
    let r = try CLI.run(["bench", "--workload", path.path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("bad.tsv:3: expected 5 tab-separated fields, found 4"))
  }

  /// An empty measurement is refused, not reported as a run of the reference alone.
  @Test func noBackendIsAUsageError() throws {
    let r = try CLI.run(["bench", "--backends", ""])
    #expect(r.status == 64)
    #expect(r.stderr.contains("--backends '' names no backend"))
  }

  @Test func badSlowdownIsAUsageError() throws {
    let r = try CLI.run(["bench", "--inject-slowdown", "trie"])
    #expect(r.status == 64)
    #expect(r.stderr.contains("NAME=MICROSECONDS"))
    let unknown = try CLI.run(["bench", "--inject-slowdown", "nope=3"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("unknown backend 'nope'"))
  }

  @Test func gateRecordsABaselineCatchesASlowdownAndRefusesOtherWork() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let baseline = dir.appendingPathComponent("baseline.json").path
    let thresholds = CLI.packageRoot.appendingPathComponent("Benchmarks/thresholds.json").path
    let files = ["gate", "--baseline", baseline, "--thresholds", thresholds]
    let gate = files + quick(dir)

    let record = try CLI.run(gate + ["--update-baseline", "--out", dir.appendingPathComponent("g0").path])
    #expect(record.status == 0, "\(record.stderr)")
    #expect(record.stdout.contains("baseline written"))

    // The baseline gated against itself is never a regression. (On eight keystrokes the
    // intervals are wide, so some metrics may be inconclusive; the release-build proof that an
    // unchanged build passes is scripts/gate-selftest.sh.)
    let same = try CLI.run(files + ["--current", baseline, "--out", dir.appendingPathComponent("g1").path])
    #expect(same.status == 0 || same.status == 3, "\(same.stdout)")
    #expect(!same.stdout.contains("**regression**"))
    #expect(same.stdout.contains("| inverted-index | countedBytes |"))
    // With --current nothing is run, so an option for the run is refused, not ignored.
    let ignored = try CLI.run(gate + ["--current", baseline, "--out", dir.appendingPathComponent("g1").path])
    #expect(ignored.status == 64)
    #expect(ignored.stderr.contains("--current gates one already made"))

    // A setting that differs from the baseline's is refused before the run.
    let budget = try CLI.run(gate + ["--budget", "5", "--out", dir.appendingPathComponent("g1").path])
    #expect(budget.status == 64)
    #expect(budget.stderr.contains("--budget 5 s differs from the baseline's 20 s"))

    // 3 ms of work added to every answer: far beyond any threshold or noise. Under GitHub
    // Actions the verdict also goes to the job summary and as annotations, and to JUnit XML.
    let summary = dir.appendingPathComponent("step-summary.md")
    try "# earlier step\n".write(to: summary, atomically: true, encoding: .utf8)
    let junit = dir.appendingPathComponent("gate.xml")
    let slow = try CLI.run(
      gate + [
        "--inject-slowdown", "inverted-index=3000", "--out", dir.appendingPathComponent("g2").path, "--junit",
        junit.path,
      ], environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
    #expect(slow.status == 2, "\(slow.stdout)\n\(slow.stderr)")
    #expect(
      slow.stdout.split(separator: "\n").contains {
        $0.hasPrefix("::error title=citybench gate (regression)::inverted-index ratio.p50: regression;")
      })
    let appended = try String(contentsOf: summary, encoding: .utf8)
    #expect(appended.hasPrefix("# earlier step\n# Latency gate: regression\n"))
    let xml = try String(contentsOf: junit, encoding: .utf8)
    #expect(xml.contains(#"<testcase classname="gate.inverted-index" name="ratio.p50""#))
    #expect(xml.contains(#"<failure message="regression: slower by more than"#))
    #expect(slow.stdout.contains("| inverted-index | ratio.p50 |"))
    #expect(slow.stdout.contains("**regression**"))
    let verdict =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: dir.appendingPathComponent("g2/verdict.json"))) as? [String: Any]
    #expect(verdict?["verdict"] as? String == "regression")
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("g2/verdict.md").path))

    // Other work (a different workload) cannot be compared.
    let other = dir.appendingPathComponent("other.tsv")
    try Self.workload.replacingOccurrences(of: "\tbei\n", with: "\tbeij\n").write(
      to: other, atomically: true, encoding: .utf8)
    let mismatch = try CLI.run(
      [
        "gate", "--baseline", baseline, "--thresholds", thresholds, "--workload", other.path, "--out",
        dir.appendingPathComponent("g3").path,
      ])
    #expect(mismatch.status == 1)
    #expect(mismatch.stderr.contains("was not made with the baseline's settings (workload "))
  }

  /// docs/CI.md's job on a fresh runner: no baseline for the machine yet, then a baseline whose
  /// instructions were counted elsewhere, no valgrind on PATH and a job-summary file that
  /// cannot be written. The first run records the baseline; the next gates the ratios, says
  /// what it could not compare and still writes its verdict and JUnit.
  @Test func gateOnAFreshRunnerRecordsThenWarnsAndStillDecides() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let baseline = dir.appendingPathComponent("baseline-machine.json")
    let thresholds = CLI.packageRoot.appendingPathComponent("Benchmarks/thresholds.json").path
    let files = ["gate", "--baseline", baseline.path, "--thresholds", thresholds, "--machine-baseline"]
    let first = try CLI.run(files + quick(dir) + ["--out", dir.appendingPathComponent("g0").path])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("no baseline for this machine yet"))
    #expect(first.stdout.contains("baseline written"))

    // The baseline's instructions, as another machine's valgrind counted them.
    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: baseline)) as? [String: Any])
    var backends = try #require(json["backends"] as? [[String: Any]])
    let index = try #require(backends.firstIndex { $0["name"] as? String == "inverted-index" })
    backends[index]["instructions"] = [
      "tool": "callgrind (valgrind-3.19.0)", "keystrokes": 8, "total": 80_000, "mean": 10_000.0, "sampled": 8,
      "stride": 1, "p50": 10_000, "p90": 10_000, "p99": 10_000, "max": 10_000,
    ]
    json["backends"] = backends
    try JSONSerialization.data(withJSONObject: json).write(to: baseline)

    // PATH holds git and nothing else: no valgrind.
    let bin = dir.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("git"), withDestinationURL: URL(fileURLWithPath: "/usr/bin/git"))
    let junit = dir.appendingPathComponent("gate.xml")
    let gated = try CLI.run(
      files + quick(dir) + ["--out", dir.appendingPathComponent("g1").path, "--junit", junit.path],
      environment: [
        "PATH": bin.path, "GITHUB_ACTIONS": "true",
        "GITHUB_STEP_SUMMARY": dir.appendingPathComponent("no/such/summary.md").path,
      ])
    #expect(gated.status == 0 || gated.status == 3, "\(gated.stdout)\n\(gated.stderr)")
    #expect(gated.stderr.contains("warning: the baseline counts instructions, but counting instructions needs"))
    #expect(gated.stderr.contains("warning: cannot append to $GITHUB_STEP_SUMMARY"))
    #expect(gated.stdout.contains("## Not compared"))
    #expect(gated.stdout.contains("::warning title=citybench gate (not compared)::inverted-index instructions"))
    #expect(gated.stdout.contains("| inverted-index | ratio.p50 |"))
    #expect(try String(contentsOf: junit, encoding: .utf8).contains("not compared: counted in the baseline"))
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("g1/verdict.md").path))
  }

  @Test func workloadCheckComparesWithTheGenerator() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try CLI.run(["workload", "--check", dir.appendingPathComponent("tiny.tsv").path, "--places", "1"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("differs from what 'citybench workload --corpus cities --places 1' generates"))
  }
}
