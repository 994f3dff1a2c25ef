import CitySearch
import Foundation

/// The answers of the broadest queries, precomputed at build: every query of one or two
/// letters or digits, in both modes, with its exact total and its best ``depth`` hits.
///
/// These are the first keystrokes of almost every typing session and the queries with the
/// most matches (`s` matches most of `villages`): counting them exactly at every keystroke
/// costs more than every other query. Precomputing them bounds the worst case; a query with a
/// larger `limit` is answered by the backend as usual.
package struct ShortQueryAnswers: Sendable {
  /// How many hits each answer keeps.
  package static let depth = 64
  /// Keys are ``LetterKey`` values of one or two characters (below 37²).
  private static let keyCount = 37 * 37
  private let totals: ContiguousArray<Int32>
  /// `depth` slots per (mode, key): place index and packed match, `-1` when unused.
  private let places: ContiguousArray<Int32>
  private let matches: ContiguousArray<UInt32>

  /// Computes every answer with `source`'s own enumeration, on all cores, or on the calling
  /// thread alone when `concurrently` is false (the answers are the same).
  package init(source: some MatchSource, concurrently: Bool = true) {
    let modes = MatchMode.allCases
    let letters = Array(0x61...0x7A as ClosedRange<UInt32>) + Array(0x30...0x39 as ClosedRange<UInt32>)
    let queries = letters.map { [$0] } + letters.flatMap { a in letters.map { [a, $0] } }
    let jobs = modes.flatMap { mode in queries.map { (mode, $0) } }
    let answers = ConcurrentResults<(total: Int, entries: [(index: Int32, match: PackedMatch)])>(count: jobs.count)
    let answer: @Sendable (Int) -> Void = { j in
      let (mode, tokens) = jobs[j]
      var top = TopK(limit: Self.depth)
      source.forEachMatch(source.matcher.prepare(NormalizedQuery(tokens: tokens)), mode: mode) { index, match in
        top.insert(key: source.ranking.key(match, place: index), index: index, match: match)
      }
      answers.set(j, (top.total, top.sortedEntries()))
    }
    if concurrently {
      DispatchQueue.concurrentPerform(iterations: jobs.count, execute: answer)
    } else {
      for j in jobs.indices { answer(j) }
    }
    var totals = ContiguousArray<Int32>(repeating: 0, count: modes.count * Self.keyCount)
    var places = ContiguousArray<Int32>(repeating: -1, count: modes.count * Self.keyCount * Self.depth)
    var matches = ContiguousArray<UInt32>(repeating: 0, count: places.count)
    for (j, (mode, tokens)) in jobs.enumerated() {
      let answer = answers.values[j]!
      let slot = (mode == .syllable ? 0 : 1) * Self.keyCount + Int(LetterKey.of(tokens))
      totals[slot] = Int32(answer.total)
      for (i, entry) in answer.entries.enumerated() {
        places[slot * Self.depth + i] = entry.index
        matches[slot * Self.depth + i] = entry.match.bits
      }
    }
    self.totals = totals
    self.places = places
    self.matches = matches
  }

  /// The answer, when `query` is one or two letters or digits and `limit` is at most ``depth``.
  package func answer(_ query: NormalizedQuery, mode: MatchMode, limit: Int, corpus: Corpus) -> SearchResult? {
    let tokens = query.tokens
    guard (1...2).contains(tokens.count), tokens.allSatisfy(Hanzi.isLatin), limit <= Self.depth else { return nil }
    let slot = (mode == .syllable ? 0 : 1) * Self.keyCount + Int(LetterKey.of(tokens))
    let total = Int(totals[slot])
    let hits = (0..<min(max(limit, 0), total)).map { i -> SearchHit in
      let index = Int(places[slot * Self.depth + i])
      return SearchHit(
        index: index, id: corpus.id(at: index), match: PackedMatch(bits: matches[slot * Self.depth + i]).match)
    }
    return SearchResult(normalized: query, mode: mode, total: total, hits: hits)
  }

  /// The bytes of the tables.
  package var byteCount: Int { totals.count * 4 + places.count * 4 + matches.count * 4 }
}

/// Results written by concurrent workers, one slot each, under a lock.
final class ConcurrentResults<Value>: @unchecked Sendable {
  private(set) var values: [Value?]
  private let lock = NSLock()

  init(count: Int) { values = [Value?](repeating: nil, count: count) }

  func set(_ i: Int, _ value: Value) {
    lock.lock()
    values[i] = value
    lock.unlock()
  }
}
