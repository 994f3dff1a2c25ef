import CitySearch
import CitySearchBackends
import CitySearchICU
import CitySearchSQLite

/// The backends this package ships, by command-line name: the pure-Swift ones, the ICU ones
/// and the SQLite one. This module is what a tool links to offer all of them.
public enum BackendCatalog {
  /// Every shipped backend type; the first is the reference. The pure-Swift ones come from
  /// `SwiftBackends`, which an app links alone.
  public static let all: [any SearchBackend.Type] =
    SwiftBackends.all + [ICUBackend.self, ICUCachedBackend.self, SQLiteFTS5Backend.self]

  /// The backends named in a comma-separated `list` (all when `nil`).
  public static func select(_ list: String?) throws -> [any SearchBackend.Type] {
    guard let list else { return all }
    return try list.split(separator: ",").map { name in
      guard let type = backend(named: String(name)) else { throw UnknownBackend(name: String(name)) }
      return type
    }
  }

  /// A backend name that the catalog does not have.
  public struct UnknownBackend: Error, CustomStringConvertible {
    /// The name asked for.
    public let name: String
    /// The error for `name`.
    public init(name: String) { self.name = name }
    public var description: String {
      "unknown backend '\(name)' (available: \(BackendCatalog.all.map { $0.name }.joined(separator: ", ")))"
    }
  }

  /// The backend type named `name`, if any.
  public static func backend(named name: String) -> (any SearchBackend.Type)? {
    all.first { $0.name == name }
  }

  /// The name of the backend the library ships as its choice (`SwiftBackends.Fastest`), which
  /// the reports set beside a run's finding.
  public static var shipped: String { SwiftBackends.Fastest.name }

  /// Every backend option the catalog's backends accept, each once: the common ones, then each
  /// backend's own in catalog order.
  public static var options: [BackendOptionDeclaration] {
    var seen = Set<String>()
    let own = all.flatMap { type in type.descriptor.options }
    return (BackendOptionDeclaration.common + own).filter { seen.insert($0.name).inserted }
  }

  /// The gate's ratio allowance each backend declares (`BackendDescriptor.gateRatioAllowance`),
  /// by name.
  public static var gateAllowances: [String: Double] {
    Dictionary(
      uniqueKeysWithValues: all.compactMap { type in type.descriptor.gateRatioAllowance.map { (type.name, $0) } })
  }

  /// The pinyin of last resort for the names of a user's corpus file that no reviewed tier
  /// knows: ICU's `Han-Latin`, which this module links for the ICU backends.
  public static func fallbackPinyinSource() throws -> any PinyinSource { try ICUPinyinSource() }
}
