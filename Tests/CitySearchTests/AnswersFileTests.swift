import CitySearch
import CitySearchBackends
import CitySearchEngine
import CitySearchTestSupport
import Foundation
import Testing

/// The precomputed answers as a file: written, read back into a backend that answers as the
/// reference does, and refused, with the reason, when it is not whole, of another format,
/// contract or corpus.
@Suite(.timed) struct AnswersFileTests {
  static let trie = TrieBackend(corpus: Fixtures.cities)
  static var data: Data { trie.shortAnswers!.fileData(for: Fixtures.cities) }

  @Test func answersReadBackAnswerAsTheReference() throws {
    let answers = try ShortQueryAnswers(fileData: Self.data, corpus: Fixtures.cities)
    #expect(answers.longerCount == Self.trie.shortAnswers!.longerCount)
    #expect(answers.fileData(for: Fixtures.cities) == Self.data)  // the same tables, written alike
    let queries = ["b", "s", "zh", "bj", "x1", "xia", "shi", "县", "镇", "州", "xian", "zzz"]
    for backend in [
      TrieBackend(corpus: Fixtures.cities, shortAnswers: answers) as any SearchBackend,
      InvertedIndexBackend(corpus: Fixtures.cities, shortAnswers: answers),
    ] {
      func check<B: SearchBackend>(_ backend: B) {
        let checker = ConformanceChecker(backend, reference: Fixtures.citiesReference)
        for query in queries {
          for mode in MatchMode.allCases {
            checker.check(query, mode: mode)
            checker.checkTyping(query, mode: mode)
          }
        }
      }
      check(backend)
    }
    let loaded = TrieBackend(corpus: Fixtures.cities, shortAnswers: answers)
    #expect(loaded.statistics.notes["longer answers"] == Self.trie.statistics.notes["longer answers"])
  }

  @Test func aFileThatIsNotWholeOrNotForThisCorpusIsRefused() throws {
    let data = Self.data
    func refusal(_ bytes: Data, corpus: Corpus = Fixtures.cities) -> ArchiveError? {
      do {
        _ = try ShortQueryAnswers(fileData: bytes, corpus: corpus)
        return nil
      } catch {
        return error
      }
    }
    #expect(refusal(Data("bj\tbeijing\n".utf8)) == .notThisKind("a file of precomputed answers"))
    #expect(refusal(Data()) == .notThisKind("a file of precomputed answers"))
    #expect(refusal(data.prefix(30_000)) == .cut(found: 30_000, expected: data.count))
    #expect(refusal(data.prefix(12)) == .truncated("the header"))
    var flipped = data
    flipped[data.count / 3] ^= 0x40
    #expect(refusal(flipped) == .corrupted)
    #expect(refusal(data + Data([0])) == .corrupted)
    var format = data
    format[8] = 9
    #expect(refusal(format) == .format(found: 9, reads: ShortQueryAnswers.fileFormat))
    #expect(refusal(data, corpus: Fixtures.latinDigits) == .otherCorpus)
    #expect(ArchiveError.otherCorpus.description.contains("another corpus"))
    // A contract of another version (its text follows the 20-byte header and its length),
    // in a file whose checksum adds up: refused by the contract, not the checksum.
    let version = Array(MatchContract.version.utf8)
    var other = data
    other.replaceSubrange(24..<24 + version.count, with: Array("9.9".utf8).prefix(version.count))
    #expect(refusal(other) == .corrupted)
    other.resealChecksum()
    #expect(
      refusal(other) == .contract(found: String(decoding: Array("9.9".utf8).prefix(version.count), as: UTF8.self)))
  }

  @Test func theFingerprintFollowsWhatAnswersDependOn() throws {
    let cities = Fixtures.cities
    #expect(cities.fingerprint == Fixtures.cities.fingerprint)
    #expect(cities.fingerprint != Fixtures.latinDigits.fingerprint)
    // The same places without prominence and aliases rank otherwise: another fingerprint.
    let plain = ReadingTables(polyphones: Fixtures.tables.polyphones, simplified: Fixtures.tables.simplified)
    let withoutFacts = try CorpusLoader.load(path: TestTiers.directory.file(CorpusTier.cities.fileName), tables: plain)
    #expect(withoutFacts.count == cities.count && withoutFacts.fingerprint != cities.fingerprint)
  }

  /// The version the code states is the one docs/MatchSpec.md's title names.
  @Test func theContractVersionIsTheSpecsOwn() throws {
    let spec = try String(
      contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/MatchSpec.md"), encoding: .utf8)
    #expect(spec.hasPrefix("# The match contract — version \(MatchContract.version)\n"))
  }
}
