import CitySearch

/// The backends this package ships, by command-line name.
public enum BackendCatalog {
  /// Every shipped backend type; the first is the reference.
  public static let all: [any SearchBackend.Type] = [LinearScanBackend.self, TrieBackend.self, InvertedIndexBackend.self]

  /// The backend type named `name`, if any.
  public static func backend(named name: String) -> (any SearchBackend.Type)? {
    all.first { $0.name == name }
  }
}
