import CitySearch
import CitySearchBackends
import CitySearchEngine
import CitySearchTestSupport
import Foundation
import Testing

/// A backend's whole index as a file (`IndexFile`): written, opened into a backend that
/// answers as the reference does over a corpus equal to the one it was built from, and refused,
/// with the reason, when it is cut, altered, of another format, contract or backend; no change
/// of a byte makes the open crash.
@Suite(.timed) struct IndexFileTests {
  static let trie = TrieBackend(corpus: Fixtures.cities)
  static let data = IndexFile.data(of: trie)

  static func open(_ data: Data) throws(ArchiveError) -> TrieBackend {
    try IndexFile.open(data, as: TrieBackend.self, tables: Fixtures.tables)
  }

  @Test func anOpenedIndexAnswersAsTheReferenceOverTheSameCorpus() throws {
    let opened = try Self.open(Self.data)
    let (corpus, original) = (opened.corpus, Fixtures.cities)
    #expect(corpus.count == original.count && corpus.fingerprint == original.fingerprint)
    #expect(corpus.source == original.source)
    for index in stride(from: 0, to: corpus.count, by: 7) {
      #expect(corpus.name(at: index) == original.name(at: index))
      #expect(corpus.index(of: original.id(at: index)) == index)
      #expect(corpus.place(at: index) == original.place(at: index))
      #expect(corpus.children(of: index) == original.children(of: index))
    }
    #expect(corpus.index(of: -1) == nil && corpus.index(of: 999_999_999_999) == nil)
    #expect(opened.statistics.countedBytes == Self.trie.statistics.countedBytes)
    #expect(IndexFile.data(of: opened) == Self.data)  // the same tables, written alike
    let checker = ConformanceChecker(opened, reference: Fixtures.citiesReference)
    for query in ["b", "bj", "beij", "北京", "xian", "shi", "镇", "gz", "canton", "hk", "chaoy", "zzz"] {
      for mode in MatchMode.allCases {
        checker.check(query, mode: mode)
        checker.checkTyping(query, mode: mode)
      }
    }
    let header = try IndexFile.header(of: Self.data)
    #expect(header.backend == "trie" && header.contract == MatchContract.version)
    #expect(header.corpusSource == original.source && header.places == original.count)
    #expect(header.fingerprint == original.fingerprint)
  }

  /// Opened from a path (mapped, each large table's pages given back once copied): the same
  /// backend as from the bytes; a missing path, a directory and a cut file are refused.
  @Test func anIndexOpenedFromItsPathIsTheSameAsFromItsBytes() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("index-file-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("cities.trie").path
    try Self.data.write(to: URL(fileURLWithPath: path))
    let opened = try IndexFile.open(contentsOf: path, as: TrieBackend.self, tables: Fixtures.tables)
    #expect(IndexFile.data(of: opened) == Self.data)
    let any = try IndexFile.open(
      contentsOf: path, among: [LinearScanBackend.self, TrieBackend.self], tables: Fixtures.tables)
    #expect(type(of: any).name == "trie")
    for query in ["b", "beijing", "镇"] {
      #expect(opened.search(query, mode: .syllable, limit: 20) == Self.trie.search(query, mode: .syllable, limit: 20))
    }
    func refusal(_ path: String) -> ArchiveError? {
      do {
        _ = try IndexFile.open(contentsOf: path, as: TrieBackend.self, tables: Fixtures.tables)
        return nil
      } catch {
        return error
      }
    }
    #expect(
      refusal(dir.appendingPathComponent("missing").path)
        == .unreadable("\(dir.path)/missing: No such file or directory"))
    #expect(refusal(dir.path) == .unreadable("\(dir.path): not a regular file"))
    try Self.data.prefix(5000).write(to: URL(fileURLWithPath: path))
    #expect(refusal(path) == .cut(found: 5000, expected: Self.data.count))
  }

  @Test func theFuzzyAnswersAndAFileOfAnotherCorpusRoundTrip() throws {
    let fuzzy = TrieBackend(corpus: Fixtures.latinDigits, options: BackendOptions().setting(.fuzzyAnswers, to: true))
    let opened = try Self.open(IndexFile.data(of: fuzzy))
    #expect(opened.fuzzyAnswers?.fuzzy == .all && opened.shortAnswers != nil)
    #expect(opened.corpus.fingerprint == Fixtures.latinDigits.fingerprint)
    let plain = TrieBackend(corpus: Fixtures.latinDigits, options: BackendOptions().setting(.shortAnswers, to: false))
    #expect(try Self.open(IndexFile.data(of: plain)).shortAnswers == nil)
  }

  /// The inverted index with every optional table (fuzzy lists and answers, long keys):
  /// opened, it answers as the reference, and a changed byte, sealed again, crashes nothing.
  @Test func anOpenedInvertedIndexAnswersAsTheReference() throws {
    let options = BackendOptions().setting(.fuzzyLists, to: true).setting(.fuzzyAnswers, to: true)
    let built = InvertedIndexBackend(corpus: Fixtures.cities, options: options)
    let data = IndexFile.data(of: built)
    let opened = try IndexFile.open(data, as: InvertedIndexBackend.self, tables: Fixtures.tables)
    #expect(IndexFile.data(of: opened) == data)
    #expect(opened.statistics.countedBytes == built.statistics.countedBytes)
    #expect(throws: ArchiveError.otherBackend("inverted-index")) {
      try IndexFile.open(data, as: TrieBackend.self, tables: Fixtures.tables)
    }
    let checker = ConformanceChecker(opened, reference: Fixtures.citiesReference)
    for query in ["b", "bj", "beij", "jiang", "北京", "xian", "镇", "canton", "hk", "zhongguancun"] {
      for mode in MatchMode.allCases {
        checker.check(query, mode: mode)
        checker.checkTyping(query, mode: mode)
      }
    }
    for position in stride(from: 20, to: data.count - 8, by: data.count / 40) {
      var damaged = data
      damaged[position] ^= 0xFF
      damaged.resealChecksum()
      guard let damagedIndex = try? IndexFile.open(damaged, as: InvertedIndexBackend.self, tables: Fixtures.tables)
      else { continue }
      for query in ["b", "jiang", "北京", "zhongguancun"] { _ = damagedIndex.search(query, mode: .syllable, limit: 20) }
    }
  }

  @Test func aFileThatIsNotWholeOrNotThisKindIsRefused() throws {
    let data = Self.data
    func refusal(_ bytes: Data) -> ArchiveError? {
      do {
        _ = try Self.open(bytes)
        return nil
      } catch {
        return error
      }
    }
    #expect(refusal(Data("bj\tbeijing\n".utf8)) == .notThisKind("an index file"))
    #expect(refusal(Data()) == .notThisKind("an index file"))
    let answers = Self.trie.shortAnswers!.fileData(for: Fixtures.cities)
    #expect(refusal(answers) == .notThisKind("an index file"))
    #expect(refusal(data.prefix(12)) == .truncated("the header"))
    for cut in stride(from: 30, to: data.count, by: data.count / 40) {
      #expect(refusal(data.prefix(cut)) == .cut(found: cut, expected: data.count))
    }
    #expect(refusal(data + Data([0])) == .corrupted)
    for position in stride(from: 20, to: data.count, by: data.count / 40) {
      var flipped = data
      flipped[position] ^= 0x10
      #expect(refusal(flipped) == .corrupted, "a bit flipped at byte \(position)")
    }
    var format = data
    format[8] = 9
    #expect(refusal(format) == .format(found: 9, reads: IndexFile.format))
    #expect(throws: ArchiveError.otherBackend("trie")) {
      try IndexFile.open(data, among: [LinearScanBackend.self], tables: Fixtures.tables)
    }
    // Sealed again after a change: the checks behind the checksum name the problem.
    let version = Array(MatchContract.version.utf8)
    var contract = data
    contract.replaceSubrange(24..<24 + version.count, with: Array("9.9".utf8).prefix(version.count))
    contract.resealChecksum()
    #expect(
      refusal(contract) == .contract(found: String(decoding: Array("9.9".utf8).prefix(version.count), as: UTF8.self)))
    var backend = data
    backend.replaceSubrange(24 + version.count + 4..<24 + version.count + 8, with: Array("eirt".utf8))
    backend.resealChecksum()
    #expect(refusal(backend) == .otherBackend("eirt"))
  }

  /// Any byte changed and the checksum sealed again: the open either refuses the file with a
  /// reason or gives a backend that answers without reading outside its arrays.
  @Test func noChangedByteMakesTheOpenOrASearchCrash() throws {
    let data = Self.data
    var refused = 0
    for position in stride(from: 20, to: data.count - 8, by: max(1, data.count / 80)) {
      for change: UInt8 in [0x01, 0xFF] {
        var damaged = data
        damaged[position] ^= change
        damaged.resealChecksum()
        guard let opened = try? Self.open(damaged) else {
          refused += 1
          continue
        }
        for query in ["b", "bj", "xian", "北京", "zhongguancun"] {
          _ = opened.search(query, mode: .syllable, limit: 20)
          _ = opened.search(query, mode: .seed, limit: 20)
        }
      }
    }
    #expect(refused > 0)
  }
}
