import Foundation

/// The committed conformance profiles of implementations that do not follow the contract
/// (`Conformance/expected-profiles.tsv`), so that a change in a peer's behaviour shows, the
/// way `expected-failures.tsv` does for the backends.
///
/// One row per implementation, corpus, mode and query count: the counts of a
/// ``ConformanceProfile``. A row is matched by all four keys; a profile with no row is new.
public struct ExpectedProfiles: Sendable, Equatable {
  /// The columns of a row, in order.
  public static let header = [
    "implementation", "corpus", "mode", "queries", "exact", "sameTotal", "sameSet", "setComparable", "sameFirst",
    "sameTop10", "rankComparable",
  ]

  /// The rows, each a profile's counts (its causes are not kept).
  public private(set) var rows: [[String]] = []

  /// No rows.
  public init() {}

  /// Reads the rows of `path`.
  ///
  /// - Throws: ``FormatError`` naming the file, or the line.
  public init(contentsOf path: String) throws {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw FormatError(message: "cannot read the profiles in \(path) as UTF-8 text")
    }
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if fields == Self.header { continue }
      guard fields.count == Self.header.count, fields[3...].allSatisfy({ Int($0) != nil }) else {
        throw FormatError(
          message: "\(path):\(number + 1): expected \(Self.header.count) tab-separated fields, counts from the 4th")
      }
      rows.append(fields)
    }
  }

  /// A profile's row.
  public static func row(_ profile: ConformanceProfile) -> [String] {
    [profile.implementation, profile.corpus, profile.mode]
      + [
        profile.queries, profile.exact, profile.sameTotal, profile.sameSet, profile.setComparable, profile.sameFirst,
        profile.sameTop10, profile.rankComparable,
      ].map(String.init)
  }

  /// Compares `profile` with its committed row: `nil` when there is none; an empty list when
  /// every count is the same; else one phrase per count that changed (`exact 812 → 790`).
  public func changes(_ profile: ConformanceProfile) -> [String]? {
    let measured = Self.row(profile)
    guard let committed = rows.first(where: { Array($0.prefix(4)) == Array(measured.prefix(4)) }) else { return nil }
    return (4..<Self.header.count).compactMap { i in
      committed[i] == measured[i] ? nil : "\(Self.header[i]) \(committed[i]) → \(measured[i])"
    }
  }

  /// Puts `profile`'s row in place of its committed one (or adds it).
  public mutating func record(_ profile: ConformanceProfile) {
    let row = Self.row(profile)
    rows.removeAll { Array($0.prefix(4)) == Array(row.prefix(4)) }
    rows.append(row)
    rows.sort { $0.lexicographicallyPrecedes($1) }
  }

  /// The file's text: a comment, the header and the rows.
  public var text: String {
    let comment = """
      # Conformance profiles of implementations run with 'citybench conform --executor' (docs/Executors.md):
      # the counts of answers that agree with the reference's. Written by --write-profiles.

      """
    return comment + ([Self.header] + rows).map { $0.joined(separator: "\t") }.joined(separator: "\n") + "\n"
  }

  /// A malformed row.
  public struct FormatError: Error, CustomStringConvertible {
    /// What is wrong and where.
    public let message: String
    public var description: String { message }
  }
}
