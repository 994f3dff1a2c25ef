import CitySearch
import CitySearchBackends
import CitySearchExecutor
import CitySearchTestSupport
import Foundation
import Testing

/// `citybench serve`: a backend out of process answers exactly what it answers in process,
/// sessions and stateless alike.
@Suite(.timed) struct ServeCommandTests {
  static let corpusPath = CLI.packageRoot.appendingPathComponent("Corpus/cities.tsv").path
  let texts = ["b", "bj", "bji", "北", "北京", "hang", "hangz", "xi'an", "zz9", "", "chongq"]

  func served(_ backend: String, mode: MatchMode, replay: String = "sessions") throws -> ProcessExecutor {
    let corpus = try CorpusDirectory(path: CLI.packageRoot.appendingPathComponent("Corpus").path).load(.cities)
    return try ProcessExecutor(
      name: "\(backend) (served)", command: "'\(CLI.binary.path)' serve --backend \(backend) --replay \(replay)",
      corpus: corpus, corpusPath: Self.corpusPath, corpusFormat: "tsv", mode: mode, limit: 20, startTimeout: 120)
  }

  @Test(arguments: [MatchMode.syllable, .seed])
  func aServedTrieAnswersAsTheTrieInProcess(mode: MatchMode) throws {
    let executor = try served("trie", mode: mode)
    defer { executor.stop() }
    #expect(executor.handshake?.name == "trie")
    #expect(executor.capabilities == ExecutorCapabilities())
    #expect((executor.handshake?.buildNanoseconds ?? 0) > 0)
    let trie = TrieBackend(corpus: executor.corpus)
    var session = trie.makeSession(mode: mode, limit: 20)
    try executor.startSession()
    for text in texts {
      let answer = try executor.answer(text)
      #expect(answer.result == session.update(text), "\(text)")
      #expect(answer.nanoseconds > 0 && answer.nanoseconds <= answer.roundTripNanoseconds ?? 0, "\(text)")
      #expect(try executor.answerAlone(text).result == trie.search(text, mode: mode, limit: 20), "\(text)")
    }
  }

  /// The handshake's fuzzy rules reach the served backend: its session reads every keystroke
  /// with them, as in process.
  @Test func aServedTrieReadsTheHandshakesFuzzyRules() throws {
    let corpus = try CorpusDirectory(path: CLI.packageRoot.appendingPathComponent("Corpus").path).load(.cities)
    let executor = try ProcessExecutor(
      name: "trie (served)", command: "'\(CLI.binary.path)' serve --backend trie", corpus: corpus,
      corpusPath: Self.corpusPath, corpusFormat: "tsv", mode: .syllable, limit: 20, fuzzy: [.zhZ, .nL],
      startTimeout: 120)
    defer { executor.stop() }
    let trie = TrieBackend(corpus: corpus)
    var session = trie.makeSession(mode: .syllable, limit: 20, scope: .everything, fuzzy: [.zhZ, .nL])
    try executor.startSession()
    for text in ["l", "la", "lan", "lanz", "lanzou"] {
      let answer = try executor.answer(text).result
      #expect(answer == session.update(text), "\(text)")
    }
    #expect(try executor.answer("lanzou").result.hits.first?.match.fuzzyClass == 1)
  }

  @Test func aStatelessServedIndexKeepsNoSession() throws {
    let executor = try served("inverted-index", mode: .syllable, replay: "stateless")
    defer { executor.stop() }
    #expect(!executor.capabilities.sessions)
    let index = InvertedIndexBackend(corpus: executor.corpus)
    for text in texts {
      #expect(try executor.answer(text).result == index.search(text, mode: .syllable, limit: 20), "\(text)")
    }
  }

  @Test func aFirstLineThatIsNoHandshakeEndsWithAMessage() throws {
    let result = try CLI.run(["serve", "--backend", "trie"], input: "hello\n")
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("citybench serve: the first line is not a handshake request"))
    #expect(result.stdout.isEmpty)
  }

  @Test func benchRunsExecutorsBesideTheBackendsAndGoesOnWithoutABrokenOne() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-serve-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let workload = dir.appendingPathComponent("tiny.tsv")
    try
      "# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\none\t110000\tpinyin\t0\tb\none\t110000\tpinyin\t0\tbj\n"
      .write(to: workload, atomically: true, encoding: .utf8)
    let r = try CLI.run([
      "bench", "--workload", workload.path, "--backends", "trie", "--rounds", "2", "--warm-up", "0", "--relevance",
      "off", "--corpus-dir", CLI.packageRoot.appendingPathComponent("Corpus").path, "--format", "json,md", "--out",
      dir.appendingPathComponent("out").path,
      "--executor", "served='\(CLI.binary.path)' serve --backend trie", "--executor", "broken=read h; exit 9",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("broken: did not start: executor 'broken', handshake: exited"), "\(r.stderr)")
    #expect(r.stdout.contains("served (ext)"), "\(r.stdout)")
    let report = try String(contentsOf: dir.appendingPathComponent("out/report.md"), encoding: .utf8)
    #expect(report.contains("## External implementations"))
    #expect(report.contains("| served |"))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/results.json")))
    let backends = try #require((json as? [String: Any])?["backends"] as? [[String: Any]])
    let served = try #require(backends.first { $0["name"] as? String == "served" })
    let conformance = try #require(served["conformance"] as? [String: Any])
    #expect(conformance["checked"] as? Int == 4 && conformance["divergences"] as? Int == 0)
    let external = try #require(served["external"] as? [String: Any])
    #expect(external["roundTrip"] != nil && external["failure"] == nil)
    let broken = try #require(backends.first { $0["name"] as? String == "broken" })
    #expect(((broken["external"] as? [String: Any])?["failure"] as? String)?.contains("exit status 9") == true)
  }

  @Test func anExecutorWithoutACommandIsAUsageError() throws {
    let r = try CLI.run(["bench", "--executor", "mine"])
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("citybench bench: --executor: 'mine' is not NAME=COMMAND"))
    // bench, conform and try read --executor alike: a name given twice is refused by each.
    for command in ["bench", "conform", "try"] {
      let twice = try CLI.run([command, "--executor", "a=true", "--executor", "a=false"])
      #expect(twice.status == 64, "\(command)")
      #expect(twice.stderr.hasPrefix("citybench \(command): --executor names 'a' twice"), "\(twice.stderr)")
    }
  }

  @Test func conformProfilesAnExecutorAndShowsWhenItsProfileChanges() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-profile-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let profiles = dir.appendingPathComponent("profiles.tsv").path
    let empty = dir.appendingPathComponent("none.tsv").path
    try "".write(toFile: empty, atomically: true, encoding: .utf8)
    let common = [
      "conform", "--mode", "syllable", "--sample", "60", "--corpus-dir",
      CLI.packageRoot.appendingPathComponent("Corpus").path, "--executor",
      "served='\(CLI.binary.path)' serve --backend trie --replay stateless",
    ]
    let first = try CLI.run(common + ["--profiles", empty, "--write-profiles", profiles])
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    #expect(first.stdout.contains("served on cities, syllable: "), "\(first.stdout)")
    #expect(first.stdout.contains("exact 100.0%, same total 100.0%"), "\(first.stdout)")
    #expect(first.stdout.contains("no committed profile"))
    let again = try CLI.run(common + ["--profiles", profiles])
    #expect(again.status == 0 && again.stdout.contains("profile unchanged"), "\(again.stdout)")
    // A committed profile that no longer holds fails the run and says what moved.
    let text = try String(contentsOfFile: profiles, encoding: .utf8)
    let row = try #require(text.split(separator: "\n").last { $0.hasPrefix("served\t") })
    var fields = row.split(separator: "\t").map(String.init)
    fields[4] = "1"
    try text.replacingOccurrences(of: row, with: fields.joined(separator: "\t")).write(
      toFile: profiles, atomically: true, encoding: .utf8)
    let changed = try CLI.run(common + ["--profiles", profiles])
    #expect(changed.status == 1)
    #expect(changed.stdout.contains("PROFILE CHANGED: exact 1 → "), "\(changed.stdout)")
  }

  @Test func conformWithABrokenExecutorFailsAndNamesIt() throws {
    let r = try CLI.run(["conform", "--mode", "seed", "--sample", "5", "--executor", "mute=read h; exit 0"])
    #expect(r.status == 1)
    #expect(r.stdout.contains("mute, seed: did not start: executor 'mute', handshake: exited"), "\(r.stdout)")
  }

  @Test func theTransliterationExecutorAnswersWithFoundationsReadings() throws {
    let corpus = try CorpusDirectory(path: CLI.packageRoot.appendingPathComponent("Corpus").path).load(.cities)
    let binary = CLI.productsDirectory.appendingPathComponent("citybench-transliteration").path
    let executor = try ProcessExecutor(
      name: "transliteration", command: "'\(binary)'", corpus: corpus, corpusPath: Self.corpusPath,
      corpusFormat: "tsv", mode: .syllable, limit: 20, startTimeout: 120)
    defer { executor.stop() }
    #expect(executor.handshake?.implementationVersion == "Foundation StringTransform.mandarinToLatin")
    #expect(try executor.answerAlone("chongqing").result.hits.map(\.id) == [500000])
    #expect(try executor.answerAlone("bj").result.hits.first?.id == 110000)
    #expect(try executor.answerAlone("北京").result.total == 1)
  }
}
