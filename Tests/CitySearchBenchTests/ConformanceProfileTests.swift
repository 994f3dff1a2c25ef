import CitySearch
import CitySearchBackends
import CitySearchBench
import CitySearchConformance
import CitySearchExecutor
import CitySearchTestSupport
import Foundation
import Testing

/// The conformance profile of an implementation that does not follow the contract: shares of
/// agreeing answers, compared on what it offers, and differences grouped by cause.
@Suite(.timed) struct ConformanceProfileTests {
  let corpus = BenchFixtures.cities
  var reference: LinearScanBackend { LinearScanBackend(corpus: corpus) }
  var texts: [String] { ExecutorProfiler.queries(corpus, count: 150, seed: 3) }

  /// An implementation answering the reference's places, reordered or emptied as asked, with
  /// the capabilities it declares.
  final class Rewriting: Executor {
    let name: String
    let capabilities: ExecutorCapabilities
    let reference: LinearScanBackend
    let rewrite: (SearchResult) -> SearchResult
    init(
      name: String, capabilities: ExecutorCapabilities, reference: LinearScanBackend,
      rewrite: @escaping (SearchResult) -> SearchResult
    ) {
      self.name = name
      self.capabilities = capabilities
      self.reference = reference
      self.rewrite = rewrite
    }
    func startSession() {}
    func answer(_ text: String) -> ExecutorAnswer { answerAlone(text) }
    func answerAlone(_ text: String) -> ExecutorAnswer {
      ExecutorAnswer(result: rewrite(reference.search(text, mode: .syllable, limit: 20)), nanoseconds: 1)
    }
  }

  @Test func theSuitesOwnBackendIsExactOnEveryCount() {
    let trie = TrieBackend(corpus: corpus)
    let profiler = ExecutorProfiler(reference: reference, corpusName: "cities", mode: .syllable, limit: 20)
    let (profile, failure) = profiler.profile(
      trie.executor(name: "trie", mode: .syllable, limit: 20, replay: .stateless), texts: texts)
    #expect(failure == nil)
    #expect(profile.queries == texts.count && profile.queries >= 150)
    #expect(profile.exact == profile.queries && profile.sameTotal == profile.queries)
    #expect(profile.setComparable > 0 && profile.sameSet == profile.setComparable)
    #expect(profile.rankComparable > 0 && profile.sameFirst == profile.rankComparable)
    #expect(profile.sameTop10 == profile.rankComparable)
    #expect(profile.causes.isEmpty)
  }

  @Test func aSetInAnotherOrderIsExactForASetAndARankingDifferenceForARanker() {
    let reversed = { (result: SearchResult) -> SearchResult in
      var r = result
      r.hits.reverse()
      return r
    }
    let profiler = ExecutorProfiler(reference: reference, corpusName: "cities", mode: .syllable, limit: 20)
    let set = Rewriting(
      name: "set", capabilities: ExecutorCapabilities(ranked: false, matchRanges: true), reference: reference,
      rewrite: reversed)
    let asSet = profiler.profile(set, texts: texts).profile
    #expect(!asSet.ranked && asSet.rankComparable == 0)
    #expect(asSet.sameSet == asSet.setComparable)
    // With more matches than the limit, the reversed twenty are still the reference's twenty.
    #expect(asSet.exact == asSet.queries, "\(asSet.lines)")

    let ranker = Rewriting(
      name: "ranker", capabilities: ExecutorCapabilities(), reference: reference, rewrite: reversed)
    let ranked = profiler.profile(ranker, texts: texts).profile
    #expect(ranked.sameSet == ranked.setComparable && ranked.sameTotal == ranked.queries)
    #expect(ranked.sameFirst < ranked.rankComparable)
    let cause = ranked.causes.first
    #expect(cause?.name.hasPrefix("ranks the same places otherwise · ") == true, "\(ranked.causes)")
    #expect(ranked.causes.map(\.count).reduce(0, +) == ranked.queries - ranked.exact)
  }

  @Test func anImplementationThatFindsNothingIsGroupedByQueryKind() {
    let nothing = Rewriting(name: "nothing", capabilities: ExecutorCapabilities(), reference: reference) { result in
      var r = result
      r.hits = []
      r.total = 0
      return r
    }
    let profiler = ExecutorProfiler(reference: reference, corpusName: "cities", mode: .syllable, limit: 20)
    let texts = ["bj", "北京", "北j", "bei'j", "bei3"]
    let profile = profiler.profile(nothing, texts: texts).profile
    #expect(profile.exact == 0 && profile.sameFirst == 0)
    #expect(profile.causes.allSatisfy { $0.name.hasPrefix("finds nothing where the contract finds places") })
    #expect(
      Set(profile.causes.map { String($0.name.split(separator: " · ").last!) }) == [
        "Latin letters", "Hanzi", "Hanzi and Latin mixed", "Latin with boundary marks", "Latin with tone digits",
      ])
    // How the contract found what the answer lacks: 北京 by its Hanzi, bj by initials.
    let hanzi = profile.causes.first { $0.name.hasSuffix("· Hanzi") }
    #expect(
      hanzi?.name
        == "finds nothing where the contract finds places, missing places matched by whole syllables or Hanzi · Hanzi")
    #expect(hanzi?.example.hasPrefix("'北京': 0 places, first nothing; the contract ") == true, "\(hanzi?.example ?? "")")
    let initials = profile.causes.first { $0.name.hasSuffix("· Latin letters") }
    #expect(initials?.name.contains(", missing places matched by initials or a syllable's prefix") == true)
  }

  @Test(arguments: [
    ("北京", "Hanzi"), ("北jing", "Hanzi and Latin mixed"), ("bei3jing1", "Latin with tone digits"),
    ("xi'an", "Latin with boundary marks"), ("bei jing", "Latin with boundary marks"), ("beijing", "Latin letters"),
    ("7", "other characters"), ("bj!", "other characters"), ("ｂｊ", "other characters"),
  ])
  func queriesAreKindedByWhatTheyHold(text: String, kind: String) {
    #expect(ConformanceProfile.kind(of: text) == kind)
  }

  @Test func committedProfilesShowWhatChanged() throws {
    var profile = ConformanceProfile(implementation: "peer", corpus: "cities", mode: .syllable, ranked: true, limit: 20)
    profile.queries = 10
    profile.exact = 4
    profile.sameTotal = 6
    var file = ExpectedProfiles()
    file.record(profile)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID().uuidString).tsv").path
    try file.text.write(toFile: path, atomically: true, encoding: .utf8)
    let read = try ExpectedProfiles(contentsOf: path)
    #expect(read == file)
    #expect(read.changes(profile) == [])
    profile.exact = 3
    #expect(read.changes(profile) == ["exact 4 → 3"])
    profile.queries = 11
    #expect(read.changes(profile) == nil, "another query count is another profile")
    try "peer\tcities\tsyllable\tten\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: ExpectedProfiles.FormatError.self) { try ExpectedProfiles(contentsOf: path) }
  }
}
