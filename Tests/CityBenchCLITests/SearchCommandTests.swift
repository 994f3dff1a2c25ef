import CitySearch
import CitySearchTestSupport
import Foundation
import Testing

@Suite(.timed) struct SearchCommandTests {
  @Test func changsha() throws {
    let r = try CLI.run(["search", "changsha"])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    try CLI.assertSnapshot(r.stdout, named: "search-changsha")
  }

  @Test func jsonIsTheStableInterface() throws {
    let r = try CLI.run(["search", "--corpus", "towns", "--format", "json", "xi'an"])
    #expect(r.status == 0)
    #expect(
      r.stdout.hasPrefix(#"{"backend":"linear","mode":"syllable","normalized":"xi'an","query":"xi'an","results":"#))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let results = try #require(object["results"] as? [[String: Any]])
    #expect(object["total"] as? Int == results.count)
    let first = try #require(results.first)
    #expect(first["name"] as? String == "西安市")
    #expect(first["path"] as? [String] == ["陕西省", "西安市"])
    #expect(first["range"] as? [Int] == [0, 2])
    #expect(first["rank"] as? Int == 1)
    #expect(first["matchClass"] as? Int == 0)
    #expect(first["readingClass"] as? Int == 0)
    #expect(first["spellingClass"] as? Int == 0)  // xi + an, whole syllables
    #expect(Set(first.keys) == ["rank", "id", "name", "path", "range", "matchClass", "readingClass", "spellingClass"])
  }

  /// `--cities`, `--level` and `--under` (MatchSpec §9.1), and the errors that name what is wrong.
  @Test func scopeOptions() throws {
    func ids(_ arguments: [String]) throws -> [String] {
      let r = try CLI.run(["search", "--format", "tsv"] + arguments)
      #expect(r.status == 0, "\(arguments): \(r.stderr)")
      return r.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: "\t")[1]) }
    }
    #expect(try ids(["heb"]).first == "130000")  // 河北省
    #expect(try ids(["--cities", "heb"]) == ["230100", "410600"])  // 哈尔滨, 鹤壁
    #expect(try ids(["--level", "1", "--limit", "3", "sh"]) == ["310000", "370000", "610000"])
    #expect(try ids(["--under", "北京市", "cy"]) == ["110105"])
    #expect(try ids(["--under", "110000", "beijing"]).isEmpty)  // descendants only
    #expect(try ids(["--cities", "--under", "四川省", "m"]) == ["510700", "511400"])
    #expect(try ids(["--level", "2-3", "--under", "吉林省/长春市", "cy"]) == ["220104"])

    let ambiguous = try CLI.run(["search", "--under", "朝阳区", "x"])
    #expect(ambiguous.status == 1)
    #expect(ambiguous.stderr.contains("'朝阳区' names 2 places (110105 北京市/朝阳区; 220104 吉林省/长春市/朝阳区)"))
    let missing = try CLI.run(["search", "--under", "不存在", "x"])
    #expect(missing.status == 1 && missing.stderr.contains("no place is named '不存在'"))
    let level = try CLI.run(["search", "--level", "0", "x"])
    #expect(level.status == 64 && level.stderr.contains("level '0' is not a level from 1"))
  }

  @Test func tsvAndLimit() throws {
    let r = try CLI.run(["search", "--format", "tsv", "--limit", "2", "bj"])
    #expect(r.status == 0)
    #expect(
      r.stdout
        == "rank\tid\tname\tpath\tstart\tend\tmatchClass\treadingClass\tspellingClass\n"
        + "1\t110000\t北京市\t北京市\t0\t2\t0\t0\t1\n2\t610300\t宝鸡市\t陕西省 › 宝鸡市\t0\t2\t0\t0\t1\n"
    )
  }

  @Test func seedMode() throws {
    let r = try CLI.run(["search", "--mode", "seed", "--format", "json", "eijing"])
    #expect(r.status == 0)
    #expect(r.stdout.contains(#""mode":"seed""#))
    #expect(r.stdout.contains(#""name":"北京市""#))
  }

  @Test func queriesFromStandardInputOneJSONLineEach() throws {
    let r = try CLI.run(["search", "--queries", "-", "--limit", "1"], input: "bj\n長沙\n\nzhongqing")
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix(#"{"backend":"linear","mode":"syllable","normalized":"bj","query":"bj""#))
    #expect(lines[1].contains(#""normalized":"长沙""#))
    #expect(lines[2].contains(#""total":0"#))
    #expect(lines[3].contains(#""readingClass":1"#))
  }

  @Test func everyBackendAnswersTheSameWithTiming() throws {
    var answers: Set<String> = []
    for backend in ["linear", "trie", "inverted-index", "sqlite-fts5", "icu-cached"] {
      let r = try CLI.run(
        ["search", "--backend", backend, "--queries", "-", "--timing", "--limit", "3"], input: "cs\nxi'an\n")
      #expect(r.status == 0)
      let lines = r.stdout.split(separator: "\n")
      #expect(lines.count == 2)
      for line in lines {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect((object["nanoseconds"] as? Int ?? -1) > 0)
      }
      answers.insert(
        r.stdout.replacingOccurrences(of: #""nanoseconds":\d+,"#, with: "", options: .regularExpression)
          .replacingOccurrences(of: "\"backend\":\"\(backend)\"", with: ""))
    }
    #expect(answers.count == 1)
    let misuse = try CLI.run(["search", "--timing", "bj"])
    #expect(misuse.status == 64)
  }

  @Test func queriesFromAFile() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-queries-\(getpid()).txt")
    try "beijing\nxi'an\n".write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let r = try CLI.run(["search", "--queries", file.path])
    #expect(r.status == 0)
    #expect(r.stdout.split(separator: "\n").count == 2)
  }

  /// Used to trap (SIGILL) in Foundation's non-throwing read.
  @Test func queriesFromADirectoryIsAnError() throws {
    let r = try CLI.run(["search", "--queries", FileManager.default.temporaryDirectory.path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("is a directory, not a queries file"), "\(r.stderr)")
  }

  @Test func emptyQueryHasZeroResults() throws {
    let r = try CLI.run(["search", "!!!"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("0 results"))
  }

  @Test func userCorpusPropertyList() throws {
    let plist = CLI.packageRoot.appendingPathComponent("Tests/CitySearchTests/Fixtures/Cities.plist").path
    let r = try CLI.run(["search", "--corpus", plist, "--format", "tsv", "zhongqing"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("重庆\t重庆"))
  }

  @Test func findsCorpusFromAnotherWorkingDirectory() throws {
    let r = try CLI.run(["search", "bj"], directory: URL(fileURLWithPath: "/"))
    #expect(r.status == 0)
    #expect(r.stdout.contains("9 results"))
  }

  /// A copy of the binary far from the package still has the embedded cities tier, and says
  /// what to do for the others.
  @Test func embeddedCitiesWithoutACorpusDirectory() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-alone-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let copy = directory.appendingPathComponent("citybench")
    try FileManager.default.copyItem(at: CLI.binary, to: copy)
    let cities = try CLI.run(["search", "bj"], directory: directory, executable: copy)
    #expect(cities.status == 0)
    #expect(cities.stdout.contains("9 results"))
    let towns = try CLI.run(["search", "--corpus", "towns", "bj"], directory: directory, executable: copy)
    #expect(towns.status == 1)
    #expect(towns.stderr.contains("cannot find the Corpus/ directory for the 'towns' tier"))
  }

  @Test func corpusDirectoryFromEnvironment() throws {
    let r = try CLI.run(["search", "bj"], environment: ["CITYBENCH_CORPUS_DIR": "/nonexistent"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("/nonexistent/polyphones.tsv: cannot read: no such file"))
  }

  @Test(arguments: [
    (["search"], "missing QUERY"),
    (["search", "--limit", "x", "bj"], "option '--limit' expects a whole number"),
    (["search", "--mode", "fuzzy", "bj"], "option '--mode' expects syllable|seed, got 'fuzzy'"),
    (["search", "--backend", "nope", "bj"], "unknown backend 'nope'"),
    (
      ["search", "--backends", "tri", "bj"],
      "unknown backend 'tri' (available: linear, trie, inverted-index, icu, icu-cached, sqlite-fts5); did you mean 'trie'?"
    ),
    (["search", "--backends", "trie,linear", "bj"], "this command answers with one backend; got 'trie,linear'"),
    (["bench", "--backends", "inverted-indx"], "did you mean 'inverted-index'?"),
    (["search", "--limt", "3", "bj"], "unknown option '--limt'; did you mean '--limit'?"),
    (["search", "--keyboard", "xiaoh", "bj"], "unknown keyboard 'xiaoh' (quanpin, xiaohe, ziranma"),
    (["instructions", "--options", "fuzzy-list=true"], "--options: unknown backend option 'fuzzy-list'"),
    (["search", "--mode", "seeds", "bj"], "option '--mode' expects syllable|seed, got 'seeds'; did you mean 'seed'?"),
    (["search", "--format", "xml", "bj"], "option '--format' expects text|tsv|json"),
    (["search", "--frobnicate", "bj"], "unknown option '--frobnicate'"),
    (["search", "a", "b"], "unexpected argument 'b'"),
    (["search", "--limit"], "option '--limit' needs a value"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["search", "--queries", "-", "--format", "text"], "--queries prints JSON lines"),
    (["search", "--queries", "-", "bj"], "give either QUERY or --queries, not both"),
    (["browse", "--level", "2", "黑龙江省"], "give one of PLACE, --level and --cities"),
    (["browse", "--cities", "--level", "2"], "give one of PLACE, --level and --cities"),
    (["browse", "--level", "9"], "option '--level' expects a whole number from 1 to 5"),
    (["gate", "--current", "results.json", "--mode", "seed"], "option '--mode' sets up a benchmark run"),
    (["gate", "--rounds", "0"], "option '--rounds' expects a whole number"),
    (["gate", "--relevance", "on"], "the gate compares latency only"),
    (["conform", "--tier", "cities"], "unknown option '--tier'"),
    (["relevance", "--sweep", "--executor", "x=y"], "--executor measures an implementation's own ranking"),
    (["relevance", "--weights", "1,2,3"], "--weights takes strict, zero, contract or five numbers"),
    (["help", "nope"], "unknown command 'nope'"),
    (["conform", "--two-level", "--executor", "x=y"], "drop --two-level"),
    (["bench", "--two-level", "--instructions", "trie"], "the --instructions replay does not read two-level queries"),
    (["try", "--two-level", "--executor", "x=y"], "an executor is not asked for two-level queries"),
  ])
  func usageErrorsAreTwoLinesAndExit64(_ arguments: [String], _ message: String) throws {
    let r = try CLI.run(arguments)
    #expect(r.status == 64)
    #expect(r.stderr.contains(message), "\(r.stderr)")
    // The error, then where to read more: never the whole usage pushing the error away.
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(r.stderr)")
    #expect(lines.last?.hasPrefix("Run 'citybench ") == true && lines.last?.contains("help") == true)
    #expect(r.stdout.isEmpty)
  }

  @Test func everyCommandHasHelpBothWays() throws {
    let general = try CLI.run(["help"])
    #expect(general.status == 0)
    let names = general.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop {
      !$0.hasPrefix("Commands:")
    }.dropFirst()
      .prefix { !$0.isEmpty }.map { String($0.split(separator: " ")[0]) }
    #expect(names.count == 21, "\(general.stdout)")
    for name in names {
      let asFlag = try CLI.run([name, "--help"])
      let asTopic = try CLI.run(["help", name])
      #expect(asFlag.status == 0 && asTopic.status == 0, "\(name)")
      #expect(asFlag.stdout.hasPrefix("Usage: citybench"), "\(name)")
      #expect(asFlag.stdout == asTopic.stdout, "\(name)")
    }
  }

  /// `--fuzzy RULES`: `lanzou` finds 兰州 through zh-z, marked `fuzzyClass` 1 in JSON; an unknown
  /// rule is refused with the rules' names.
  @Test func fuzzyRulesFindWhatTheTypistMeant() throws {
    let plain = try CLI.run(["search", "lanzou"])
    #expect(plain.status == 0 && plain.stdout.hasPrefix("0 results"), "\(plain.stdout)")
    let fuzzy = try CLI.run(["search", "--fuzzy", "zh-z", "--format", "json", "lanzou"])
    #expect(fuzzy.status == 0, "\(fuzzy.stderr)")
    #expect(fuzzy.stdout.contains("\"fuzzyClass\":1") && fuzzy.stdout.contains("兰州市"), "\(fuzzy.stdout)")
    let wrong = try CLI.run(["search", "--fuzzy", "zh-x", "bj"])
    #expect(wrong.status == 64 && wrong.stderr.contains("unknown fuzzy rule 'zh-x'"), "\(wrong.stderr)")
  }

  /// `--two-level` (MatchSpec §9.2): `bjcy` finds 北京's 朝阳区, through every backend, named
  /// `via` 北京市 in JSON and in text; without the option it finds nothing.
  @Test func twoLevelQueriesFindThePlaceUnderItsAncestor() throws {
    let plain = try CLI.run(["search", "bjcy"])
    #expect(plain.status == 0 && plain.stdout.hasPrefix("0 results"), "\(plain.stdout)")
    for backend in ["linear", "trie"] {
      let json = try CLI.run(["search", "--two-level", "--backend", backend, "--format", "json", "bjcy"])
      #expect(json.status == 0, "\(json.stderr)")
      let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let first = try #require((object["results"] as? [[String: Any]])?.first)
      #expect(first["id"] as? Int == 110105 && first["via"] as? Int == 110000, "\(json.stdout)")
    }
    let text = try CLI.run(["search", "--two-level", "北京朝阳"])
    #expect(text.stdout.hasPrefix("1. [朝阳]区  chao yang qu  北京市 › 朝阳区  #110105  (via 北京市)"), "\(text.stdout)")
  }

  @Test func versionNamesThePackageAndCommit() throws {
    let r = try CLI.run(["--version"])
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix("citybench 2.0.0 (match contract \(MatchContract.version); commit "), "\(r.stdout)")
  }

  @Test func malformedCorpusExitsOneNamingFileAndLine() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-bad-\(getpid()).tsv")
    try "id\tparent\tlevel\tname\tpinyin\tshort\thot\n1\t0\t1\t北京市\tbei jing shi\t\t\n1\t0\t1\t天津市\ttian jin shi\t\t\n"
      .write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let r = try CLI.run(["search", "--corpus", file.path, "bj"])
    #expect(r.status == 1)
    #expect(r.stderr == "citybench search: \(file.path):3: duplicate id 1 (first at \(file.path):2)\n")
  }

  @Test(arguments: [
    ["--help"], ["help"], ["help", "search"], ["search", "--help"], ["browse", "-h"], ["corpus", "--help"],
    ["backends"], ["conform", "--help"], ["backends", "--help"], ["suite", "--help"], ["bench", "--help"],
    ["gate", "--help"], ["workload", "--help"], ["overview", "--help"], ["--out", "unused", "--help"],
  ])
  func helpExitsZero(_ arguments: [String]) throws {
    let r = try CLI.run(arguments)
    #expect(r.status == 0)
    #expect(!r.stdout.isEmpty)
    #expect(r.stderr.isEmpty)
  }
}

@Suite(.timed) struct BrowseCommandTests {
  @Test func heilongjiang() throws {
    let r = try CLI.run(["browse", "黑龙江省"])
    #expect(r.status == 0)
    try CLI.assertSnapshot(r.stdout, named: "browse-heilongjiang")
  }

  @Test func provincesWithFilter() throws {
    let r = try CLI.run(["browse", "--filter", "shan"])
    #expect(r.status == 0)
    try CLI.assertSnapshot(r.stdout, named: "browse-provinces-filter-shan")
  }

  @Test func ambiguousPlaceListsCandidates() throws {
    let r = try CLI.run(["browse", "朝阳区"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("'朝阳区' names 2 places"))
    #expect(r.stderr.contains("110105  北京市/朝阳区"))
  }

  @Test func placeWhoseChildrenAreInTheNextTierSaysSo() throws {
    let r = try CLI.run(["browse", "吉林省/长春市/朝阳区"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("0 places\n"))
    #expect(r.stdout.contains("they are in 'towns': citybench browse --corpus towns 吉林省/长春市/朝阳区"))
  }

  @Test func placeOfTheNextTierSaysSo() throws {
    let r = try CLI.run(["browse", "北京市/海淀区/海淀街道"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("it is in the 'towns' tier: citybench browse --corpus towns 北京市/海淀区/海淀街道"))
  }

  @Test func unknownPlace() throws {
    let r = try CLI.run(["browse", "亚特兰蒂斯"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("no place named '亚特兰蒂斯'"))
  }
}

@Suite(.timed) struct OverviewTests {
  @Test func overviewShowsEachBackendOnExampleQueries() throws {
    let r = try CLI.run(["overview"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("corpus 'cities': 3211 places"))
    #expect(r.stdout.contains("linear: "))
    #expect(r.stdout.contains("zhongqing  syllable     1 result   重庆市"))
    // A wide character takes two columns: 長沙 is padded as four.
    #expect(r.stdout.contains("  長沙       syllable"))
  }
}

@Suite(.timed) struct CorpusCommandTests {
  @Test func citiesCounts() throws {
    let r = try CLI.run(["corpus"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("places\t3211\n"))
    #expect(r.stdout.contains("level 3 (county)\t2845\n"))
    #expect(r.stdout.contains("hot\t38\n"))
  }
}

/// The city picker's list and the seed apps' property lists, end to end through the binary.
@Suite(.timed) struct CityListAndSeedFileTests {
  static func seed(_ name: String) -> String {
    CLI.packageRoot.appendingPathComponent("Tests/CitySearchTests/Fixtures/Seeds/\(name)").path
  }

  @Test func citiesListHasTheMunicipalitiesAndEveryPrefecture() throws {
    let r = try CLI.run(["browse", "--cities"])
    #expect(r.status == 0)
    for city in ["北京市  bei jing shi  #110000", "重庆市  chong qing shi  #500000", "香港特别行政区", "延边朝鲜族自治州", "济源市"] {
      #expect(r.stdout.contains(city), "\(city)")
    }
    #expect(!r.stdout.contains("河北省") && !r.stdout.contains("朝阳区"))
    // 333 prefecture-level divisions, 4 municipalities, 2 SARs, 21 province-administered cities.
    #expect(r.stdout.hasSuffix("360 places\n"))
    #expect(r.stdout.hasPrefix("热门\n"))
  }

  @Test(arguments: [
    ("GroupBuying-Cities.plist", "seed-group-buying"), ("ProvincePicker-cities.plist", "seed-province-picker"),
    ("IndexedTable-sortednames.plist", "seed-indexed-table"),
    ("TreeNavigation-provinces_cities.plist", "seed-tree-navigation"),
  ])
  func seedFileBrowsesAndSearches(_ file: String, _ snapshot: String) throws {
    let browse = try CLI.run(["browse", "--corpus", Self.seed(file)])
    #expect(browse.status == 0)
    let search = try CLI.run(["search", "--corpus", Self.seed(file), "--format", "tsv", "c"])
    #expect(search.status == 0)
    try CLI.assertSnapshot(browse.stdout + "---- search c\n" + search.stdout, named: snapshot)
  }

  @Test func aShapeItCannotReadIsNamed() throws {
    let bad = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-mixed-\(getpid()).plist")
    try
      #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>A</key><array/><key>广东</key><array/></dict></plist>"#
      .write(to: bad, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: bad) }
    let r = try CLI.run(["browse", "--corpus", bad.path])
    #expect(r.status != 0)
    #expect(r.stderr.contains("key 'A' is a section heading but '广东' is not"))
  }
}
