import CitySearch
import CitySearchCatalog

/// The backends a command line names, from the catalog; an unknown name is a usage error that
/// lists the catalog and suggests the nearest name.
enum BackendSelection {
  /// The backends of a comma-separated `list`, in order (every backend when `nil`).
  static func select(_ list: String?) throws -> [any SearchBackend.Type] {
    do {
      return try BackendCatalog.select(list)
    } catch let error as BackendCatalog.UnknownBackend {
      throw UsageError(
        message: Suggestion.message(error.description, for: error.name, among: BackendCatalog.all.map { $0.name }))
    }
  }

  /// The one backend a single-backend command (`search`, `serve`) is given.
  static func one(_ name: String) throws -> any SearchBackend.Type {
    let types = try select(name)
    guard types.count == 1 else {
      throw UsageError(message: "this command answers with one backend; got '\(name)'")
    }
    return types[0]
  }
}
