import CitySearch
import CitySearchBackends
import CitySearchExecutor
import CitySearchTestSupport
import Foundation
import Testing

/// The executor seat: the suite's backends in it answer as they do directly, and the wire
/// types carry an answer across a process boundary without losing or inventing anything.
@Suite(.timed) struct ExecutorTests {
  let corpus = BenchFixtures.cities
  let texts = ["b", "bj", "bji", "北", "北京", "hang", "hangz", "xi'an", "zz9"]

  @Test func aSessionExecutorAnswersAsTheBackendsSession() throws {
    let trie = TrieBackend(corpus: corpus)
    let executor = InProcessExecutor(backend: trie, name: "trie", mode: .syllable, limit: 20)
    #expect(executor.capabilities.sessions)
    var session = trie.makeSession(mode: .syllable, limit: 20)
    executor.startSession()
    for text in texts {
      let answer = executor.answer(text)
      #expect(answer.result == session.update(text), "\(text)")
      #expect(answer.nanoseconds > 0)
    }
  }

  @Test func aStatelessExecutorAnswersAsTheIndexAndKeepsNoSession() throws {
    let index = InvertedIndexBackend(corpus: corpus)
    let executor: any Executor = index.executor(name: "ii", mode: .seed, limit: 5, replay: .stateless)
    #expect(!executor.capabilities.sessions)
    try executor.startSession()
    for text in texts {
      #expect(try executor.answer(text).result == index.search(text, mode: .seed, limit: 5), "\(text)")
      #expect(try executor.answerAlone(text).result == index.search(text, mode: .seed, limit: 5), "\(text)")
    }
  }

  @Test func anAnswerCrossesTheWireUnchanged() throws {
    let reference = LinearScanBackend(corpus: corpus)
    let executor = InProcessExecutor(backend: reference, name: "linear", mode: .syllable, limit: 20)
    let normalizer = QueryNormalizer(tables: corpus.tables)
    for (id, text) in texts.enumerated() {
      let answer = executor.answerAlone(text)
      let line = try JSONEncoder().encode(WireAnswer(id: id, answer: answer))
      #expect(!line.contains(UInt8(ascii: "\n")), "one answer, one line")
      let received = try JSONDecoder().decode(WireAnswer.self, from: line)
      #expect(received.id == id)
      #expect(received.nanoseconds == answer.nanoseconds)
      let result = try received.result(query: normalizer.normalize(text), mode: .syllable, corpus: corpus)
      #expect(result == answer.result, "\(text)")
    }
  }

  @Test func wrongAnswersAreRefusedWithTheirReason() throws {
    let query = QueryNormalizer(tables: corpus.tables).normalize("bj")
    let unknown = WireAnswer(id: 1, ids: [-7], total: 1, matches: nil, nanoseconds: 10)
    #expect(throws: WireError(kind: .unknownPlace, message: "id -7 names no place of \(corpus.source)")) {
      try unknown.result(query: query, mode: .syllable, corpus: corpus)
    }
    let id = corpus.id(at: 0)
    let lopsided = WireAnswer(
      id: 2, ids: [id, id], total: 2, matches: [WireMatch(Match(start: 0, end: 1, matchClass: 1, readingClass: 0))],
      nanoseconds: 10)
    #expect(throws: WireError(kind: .malformed, message: "1 matches for 2 ids")) {
      try lopsided.result(query: query, mode: .syllable, corpus: corpus)
    }
    let failed = WireAnswer(
      id: 3, ids: [], total: 0, matches: nil, nanoseconds: 0, error: WireError(kind: .failed, message: "no index"))
    #expect(throws: WireError(kind: .failed, message: "no index")) {
      try failed.result(query: query, mode: .syllable, corpus: corpus)
    }
  }

  /// The field names are the protocol: a line written by hand, as another language's executor
  /// writes it, decodes.
  @Test func handshakeAndQueryLinesDecodeFromTheirDocumentedFields() throws {
    let reply = try JSONDecoder().decode(
      WireHandshake.Reply.self,
      from: Data(
        """
        {"version": 1, "name": "pinin", "implementationVersion": "1.2", "buildNanoseconds": 5000,
         "memoryBytes": 0, "capabilities": {"ranked": false, "matchRanges": false, "exactTotals": true,
         "sessions": false, "modes": ["syllable"]}}
        """.utf8))
    #expect(reply.version == WireProtocol.version)
    #expect(
      reply.capabilities
        == ExecutorCapabilities(
          ranked: false, matchRanges: false, sessions: false, modes: ["syllable"], fuzzyRules: nil))
    #expect(reply.capabilities.missingRules(.nL) == ["n-l"] && reply.capabilities.missingRules([]).isEmpty)
    let query = WireQuery(id: 4, text: "北j", newSession: true)
    #expect(try JSONDecoder().decode(WireQuery.self, from: JSONEncoder().encode(query)) == query)
    let request = WireHandshake.Request(corpusPath: "Corpus/cities.tsv", corpusFormat: "tsv", mode: "seed", limit: 20)
    #expect(
      try JSONDecoder().decode(WireHandshake.Request.self, from: JSONEncoder().encode(request)) == request)
    #expect(!String(decoding: try JSONEncoder().encode(request), as: UTF8.self).contains("fuzzy"))
    let fuzzy = WireHandshake.Request(
      corpusPath: "Corpus/cities.tsv", corpusFormat: "tsv", mode: "syllable", limit: 20, fuzzy: "zh-z,n-l")
    #expect(try JSONDecoder().decode(WireHandshake.Request.self, from: JSONEncoder().encode(fuzzy)) == fuzzy)
  }
}
