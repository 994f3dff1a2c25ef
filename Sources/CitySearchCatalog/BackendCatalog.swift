import CitySearch
import CitySearchBackends
import CitySearchICU
import CitySearchSQLite

/// The backends this package ships, by command-line name: the pure-Swift ones, the ICU ones
/// and the SQLite one. This module is what a tool links to offer all of them.
public enum BackendCatalog {
  /// Every shipped backend type; the first is the reference.
  public static let all: [any SearchBackend.Type] = [
    LinearScanBackend.self, TrieBackend.self, InvertedIndexBackend.self, ICUBackend.self, ICUCachedBackend.self,
    SQLiteFTS5Backend.self,
  ]

  /// The backend type named `name`, if any.
  public static func backend(named name: String) -> (any SearchBackend.Type)? {
    all.first { $0.name == name }
  }
}
