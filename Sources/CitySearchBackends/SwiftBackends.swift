import CitySearch

/// The backends of this module by name, and the one to ship: what an app picks from without
/// linking ICU or SQLite (`CitySearchCatalog` adds those backends for a tool).
///
///     let backend = SwiftBackends.fastest(corpus: try EmbeddedCorpus.cities())
///     let result = backend.search("bj")
public enum SwiftBackends {
  /// Every backend of this module; the first is the reference.
  public static let all: [any SearchBackend.Type] = [
    LinearScanBackend.self, TrieBackend.self, InvertedIndexBackend.self,
  ]

  /// The backend type named `name` (`trie`), if this module has it.
  public static func backend(named name: String) -> (any SearchBackend.Type)? {
    all.first { $0.name == name }
  }

  /// The backend to ship: the trie. Measured against the inverted index (docs/BenchmarkResults.md,
  /// `citybench bench --corpus cities,towns,villages`), it keeps a fraction of the memory and
  /// builds in less time on every tier at a p99 within a small factor of it, and is the faster
  /// of the two at p99 on the largest tier; both are one to three orders of magnitude faster
  /// than the reference.
  public typealias Fastest = TrieBackend

  /// Builds ``Fastest`` over `corpus`, with its default options.
  ///
  /// - Complexity: O(total length of the names' readings) to build.
  public static func fastest(corpus: Corpus) -> Fastest { Fastest(corpus: corpus) }
}
