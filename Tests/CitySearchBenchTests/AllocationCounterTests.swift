import CitySearch
import CitySearchBackends
import CitySearchTestSupport
import Foundation
import Testing

@testable import CitySearchBench

/// The allocation count per keystroke: exact, and blind to nothing a keystroke allocates.
@Suite(.timed) struct AllocationCounterTests {
  /// A backend that answers nothing and allocates `extra` blocks per search (kept alive to the
  /// end of the call), so that the counter's difference between two of them is known.
  struct AllocatingBackend: SearchBackend {
    static let name = "allocating"
    static let summary = "answers nothing, allocating a known number of blocks (tests only)"
    let corpus: Corpus
    var extra = 0

    init(corpus: Corpus, options: BackendOptions) throws { self.corpus = corpus }

    init(corpus: Corpus, extra: Int) {
      self.corpus = corpus
      self.extra = extra
    }

    /// `extra` blocks from the C library's `malloc` itself, each freed at once (the tests build
    /// without optimization, which keeps every call).
    func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
      var made = 0
      for _ in 0..<extra {
        guard let block = malloc(64) else { continue }
        made += 1
        free(block)
      }
      return SearchResult(normalized: query, mode: mode, total: made, hits: [])
    }
  }

  let workload = BenchFixtures.smallWorkload

  @Test func countsEveryBlockAKeystrokeAllocates() throws {
    #expect(AllocationCounter.isAvailable)
    // Warmed up first: a process's first answers also pay for one-time caches.
    _ = AllocationCounter.counts(
      AllocatingBackend(corpus: BenchFixtures.cities, extra: 0), workload: workload, mode: .syllable, limit: 20)
    let plain = AllocationCounter.counts(
      AllocatingBackend(corpus: BenchFixtures.cities, extra: 0), workload: workload, mode: .syllable, limit: 20)
    let more = AllocationCounter.counts(
      AllocatingBackend(corpus: BenchFixtures.cities, extra: 5), workload: workload, mode: .syllable, limit: 20)
    #expect(plain.count == workload.keystrokeCount)
    #expect(zip(plain, more).allSatisfy { $1 - $0 == 5 }, "\(Array(zip(plain, more).prefix(5)))")
  }

  @Test func countsRepeatExactly() throws {
    let trie = TrieBackend(corpus: BenchFixtures.cities)
    // A process's first answers also pay for one-time caches (the trie's first scratch
    // buffers); from the second replay on, every keystroke allocates the same.
    _ = AllocationCounter.counts(trie, workload: workload, mode: .syllable, limit: 20)
    let first = AllocationCounter.counts(trie, workload: workload, mode: .syllable, limit: 20)
    let again = AllocationCounter.counts(trie, workload: workload, mode: .syllable, limit: 20)
    #expect(first == again)
    #expect(first.contains { $0 > 0 }, "a keystroke returns hits, which take memory")
    let summary = AllocationSummary(counts: first)
    #expect(summary.total == first.reduce(0, +) && summary.keystrokes == first.count)
    #expect(summary.p50 <= summary.p99 && summary.p99 <= summary.max)
  }
}
