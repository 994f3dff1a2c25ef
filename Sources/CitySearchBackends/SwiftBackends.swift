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

  /// The backend to ship: the trie. Beside the inverted index in two runs of
  /// `citybench bench --corpus cities,towns,villages` it kept less heap on every tier (1.9
  /// against 2.4 MB, 5.8 against 10.6 MB, 52 against 135 MB) and was the faster of the two at
  /// p99 on the largest tier (7.8 against 8.3 and 8.9 ms); the inverted index was faster at
  /// p99 on the two smaller ones, by 1.1–1.3×. Both answer two to three orders of magnitude
  /// faster than the reference at p50 (README, "The backends, measured").
  public typealias Fastest = TrieBackend

  /// Builds ``Fastest`` over `corpus`, with its default options.
  ///
  /// - Complexity: O(total length of the names' readings) to build.
  public static func fastest(corpus: Corpus) -> Fastest { Fastest(corpus: corpus) }
}
