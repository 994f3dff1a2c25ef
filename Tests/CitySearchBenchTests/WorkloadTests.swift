import CitySearch
import CitySearchBackends
import CitySearchConformance
import CitySearchCorpus
import CitySearchTestSupport
import Foundation
import Testing

@testable import CitySearchBench

@Suite(.timed) struct WorkloadFileTests {
  let sample = """
    # citybench workload 1
    # tier: cities
    session\tplace\tstyle\ttypo\ttext
    a\t110000\tpinyin\t0\tb
    a\t110000\tpinyin\t0\tbe
    b\t\tmine\t1\t北
    b\t\tmine\t1\t北x
    b\t\tmine\t1\t北

    """

  @Test func parsesSessionsAndProperties() throws {
    let workload = try Workload(parsing: sample)
    #expect(workload.sessions.count == 2)
    #expect(workload.sessions[0].keystrokes == ["b", "be"])
    #expect(workload.sessions[1].place == "")
    #expect(workload.sessions[1].hasTypo)
    #expect(workload.keystrokeCount == 5)
    #expect(workload.styles == ["pinyin", "mine"])
    #expect(workload.property("tier") == "cities")
  }

  @Test func roundTripsThroughItsFileText() throws {
    let workload = try Workload(parsing: sample)
    let again = try Workload(parsing: workload.fileText)
    #expect(again == workload)
    #expect(again.checksum == workload.checksum)
  }

  @Test func checksumIgnoresCommentsButNotKeystrokes() throws {
    let a = try Workload(parsing: sample)
    let b = try Workload(parsing: sample.replacingOccurrences(of: "# tier: cities", with: "# tier: other"))
    let c = try Workload(parsing: sample.replacingOccurrences(of: "\tbe\n", with: "\tbei\n"))
    #expect(a.checksum == b.checksum)
    #expect(a.checksum != c.checksum)
    #expect(a.checksum.hasPrefix("fnv1a64:") && a.checksum.count == 24)
  }

  /// CRLF line ends read as LF ones (a Swift `split(separator: "\n")` would see one line: CRLF
  /// is a single Character).
  @Test func crlfFilesReadAsLFFiles() throws {
    let lf = "# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\na\t1\tpinyin\t0\tb\na\t1\tpinyin\t0\tbe\n"
    let crlf = try Workload(parsing: lf.replacingOccurrences(of: "\n", with: "\r\n"))
    #expect(crlf.checksum == (try Workload(parsing: lf)).checksum)
    #expect(crlf.keystrokeCount == 2)
  }

  @Test(arguments: [
    ("session\tplace\tstyle\ttypo\ttext\n", 1, "the first line must be"),
    ("# citybench workload 1\nfoo\n", 2, "expected the column header"),
    (
      "# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\na\t1\tpinyin\t0\n", 3,
      "expected 5 tab-separated fields, found 4"
    ),
    ("# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\na\t1\tpinyin\tyes\tb\n", 3, "typo must be 0 or 1"),
    ("# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\na\t1\t\t0\tb\n", 3, "empty style"),
    (
      "# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\na\t1\tpinyin\t0\tb\nb\t1\tpinyin\t0\tb\na\t1\tpinyin\t0\tbe\n",
      5, "appears again"
    ),
    (
      "# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\na\t1\tpinyin\t0\tb\na\t2\tpinyin\t0\tbe\n", 4,
      "changes its place"
    ),
    ("# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\n", 0, "no sessions"),
    ("# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\ra\t1\tpinyin\t0\tb\n", 2, "ends in a CR alone"),
  ])
  func rejectsBadFilesNamingTheLine(text: String, line: Int, message: String) {
    #expect {
      try Workload(parsing: text, path: "w.tsv")
    } throws: { error in
      guard let error = error as? WorkloadError else { return false }
      return error.line == line && error.message.contains(message) && error.description.hasPrefix("w.tsv")
    }
  }

  @Test func missingFileIsAnError() {
    #expect(throws: WorkloadError.self) { try Workload(contentsOf: "/nonexistent/w.tsv") }
  }
}

@Suite(.timed) struct WorkloadGeneratorTests {
  let corpus = BenchFixtures.cities

  @Test func sameSeedSameWorkload() {
    let a = WorkloadGenerator(corpus: corpus, configuration: .init(places: 50, seed: 9)).generate()
    let b = WorkloadGenerator(corpus: corpus, configuration: .init(places: 50, seed: 9)).generate()
    #expect(a == b)
    // Another seed draws other targets (generating it whole would take as long again).
    var nine = SplitMix64(seed: 9)
    var ten = SplitMix64(seed: 10)
    let generator = WorkloadGenerator(corpus: corpus, configuration: .init(places: 400, seed: 9))
    #expect(generator.targets(random: &nine) != generator.targets(random: &ten))
  }

  @Test func targetsAreEveryProvinceAndPrefectureThenASample() {
    let generator = WorkloadGenerator(corpus: corpus, configuration: .init(places: 500, seed: 1))
    var random = SplitMix64(seed: 1)
    let targets = generator.targets(random: &random)
    let top = (0..<corpus.count).filter { corpus.level(at: $0) <= .prefecture }
    #expect(targets.count == 500)
    #expect(Set(targets).count == 500)
    #expect(targets == targets.sorted())
    #expect(Set(top).isSubset(of: Set(targets)))
    #expect(top.count > 300 && top.count < 500)
  }

  @Test func everyTargetInEveryStyle() {
    let sessionsByPlace = Dictionary(grouping: BenchFixtures.smallWorkload.sessions, by: \.place)
    #expect(sessionsByPlace.count == 12)
    for sessions in sessionsByPlace.values {
      #expect(sessions.map(\.style).sorted() == InputStyle.allCases.map(\.rawValue).sorted())
    }
  }

  @Test func sessionsStopOnceThePlaceIsVisible() throws {
    let configuration = WorkloadGenerator.Configuration(places: 40, seed: 3)
    let workload = BenchFixtures.generatedSessions(places: 40, seed: 3)
    let reference = LinearScanBackend(corpus: corpus)
    var typos = 0
    for session in workload.sessions {
      let index = try #require(corpus.index(of: PlaceID(session.place)!))
      let visible = { (text: String) in
        reference.search(text, mode: .syllable, limit: configuration.visibleRows).hits.contains { $0.index == index }
      }
      var clean = session.keystrokes
      if session.hasTypo {
        typos += 1
        // A typo is one extra character, then the text before it again.
        let at = try #require(typoPosition(clean))
        clean.removeSubrange(at...(at + 1))
      }
      // Each keystroke adds one character, and only the last may show the place.
      for (a, b) in zip(clean, clean.dropFirst()) { #expect(b.count == a.count + 1 && b.hasPrefix(a)) }
      for text in clean.dropLast() { #expect(!visible(text), "\(session.label) went on after \(text)") }
      if session.style == InputStyle.hanzi.rawValue {
        #expect(visible(clean.last!) || clean.last! == corpus.name(at: index))
      }
    }
    #expect(typos > 0 && typos < workload.sessions.count / 4)
  }

  /// Typed on a keyboard, each target gets one session of the layout's name, whose texts are the
  /// layout's readings of its keys so far, stopping once the reference shows the place.
  @Test(arguments: ["xiaohe", "daqian"])
  func keyboardSessionsAreTheLayoutsReadings(_ name: String) throws {
    let layout = try #require(try EmbeddedCorpus.keyboard(named: name))
    var configuration = WorkloadGenerator.Configuration(places: 30, seed: 5)
    configuration.keyboard = layout
    configuration.typosPerThousand = 0
    let workload = WorkloadGenerator(corpus: corpus, configuration: configuration).generate()
    #expect(workload.property("keyboard") == name)
    #expect(workload.sessions.count == Int(workload.property("targets") ?? ""))
    let reference = LinearScanBackend(corpus: corpus)
    for session in workload.sessions {
      #expect(session.style == name)
      let index = try #require(corpus.index(of: PlaceID(session.place)!))
      let keys = try #require(layout.type(corpus.pinyin(at: index)))
      let prefixes = (1...keys.count).map { String(keys.prefix($0)).self }.map(layout.read)
      #expect(session.keystrokes == Array(prefixes.prefix(session.keystrokes.count)), "\(session.label)")
      let visible = { (text: String) in
        reference.search(text, mode: .syllable, limit: configuration.visibleRows).hits.contains { $0.index == index }
      }
      for text in session.keystrokes.dropLast() { #expect(!visible(text), "\(session.label) went on after \(text)") }
      #expect(visible(session.keystrokes.last!) || session.keystrokes.count == keys.count)
    }
  }

  /// A confuser's sessions: one per target whose spelling the rules change, typed letter by
  /// letter as `confused` spells it, each stopping once the reference searched with the rules
  /// shows the place.
  @Test func confusersTypeTheirSpellingUntilTheRulesFindThePlace() throws {
    let rules = try FuzzyRules(parsing: "zh-z,n-l")
    #expect(WorkloadGenerator.confused(["lan", "zhou"], rules: rules) == ["nan", "zou"])
    #expect(WorkloadGenerator.confused(["bei", "jing"], rules: rules) == ["bei", "jing"])
    var configuration = WorkloadGenerator.Configuration(places: 30, seed: 5)
    configuration.confusion = rules
    configuration.typosPerThousand = 0
    let workload = WorkloadGenerator(corpus: corpus, configuration: configuration).generate()
    #expect(workload.property("confusion") == "zh-z,n-l")
    let reference = LinearScanBackend(corpus: corpus)
    #expect(!workload.sessions.isEmpty)
    for session in workload.sessions {
      #expect(session.style == "fuzzy")
      let index = try #require(corpus.index(of: PlaceID(session.place)!))
      let spelled = WorkloadGenerator.confused(corpus.pinyin(at: index), rules: rules).joined()
      #expect(spelled != corpus.pinyin(at: index).joined())
      #expect(session.keystrokes == (1...session.keystrokes.count).map { String(spelled.prefix($0)) })
      let visible = { (text: String) in
        reference.search(text, mode: .syllable, limit: configuration.visibleRows, fuzzy: rules).hits.contains {
          $0.index == index
        }
      }
      for text in session.keystrokes.dropLast() { #expect(!visible(text), "\(session.label) went on after \(text)") }
      #expect(visible(session.keystrokes.last!) || session.keystrokes.last! == spelled)
    }
  }

  /// The position of the wrong character: one more character than before, then deleted.
  func typoPosition(_ texts: [String]) -> Int? {
    for i in 1..<(texts.count - 1) {
      let longer: Bool = texts[i].count == texts[i - 1].count + 1
      let deleted: Bool = texts[i + 1] == texts[i - 1]
      if longer && deleted { return i }
    }
    return nil
  }

  // That Benchmarks/cities.workload.tsv is what the generator makes is checked by `.ci/run`
  // in a release build (`citybench workload --check`): in a debug build the 15,000 reference
  // searches take minutes.
}
