/// One of `count` deterministic slices of a run, for a CI matrix: shard `index` (1-based) takes
/// the items whose position `p` has `p % count == index - 1`. The slices of one list are
/// disjoint and together hold every item; merging the shards' results gives the whole run's.
///
/// ```swift
/// let shard = try Shard(parsing: "2/3")
/// shard.slice(["a", "b", "c", "d", "e"])  // ["b", "e"]
/// ```
public struct Shard: Codable, Sendable, Hashable, CustomStringConvertible {
  /// 1...count.
  public let index: Int
  /// How many shards the run is split into.
  public let count: Int

  /// The whole run: one shard.
  public static let whole = Shard(uncheckedIndex: 1, count: 1)

  /// The largest shard count accepted.
  public static let maximumCount = 10_000

  /// A malformed `K/N`.
  public struct ParseError: Error, CustomStringConvertible {
    /// The text that was given.
    public let text: String
    public var description: String {
      "--shard takes K/N with 1 ≤ K ≤ N ≤ \(Shard.maximumCount) (for example 2/8), not '\(text)'"
    }
  }

  /// Shard `index` of `count`; throws ``ParseError`` unless 1 ≤ index ≤ count ≤ ``maximumCount``.
  public init(index: Int, count: Int) throws {
    guard (1...Self.maximumCount).contains(count), (1...count).contains(index) else {
      throw ParseError(text: "\(index)/\(count)")
    }
    self.init(uncheckedIndex: index, count: count)
  }

  private init(uncheckedIndex index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    try self.init(index: container.decode(Int.self, forKey: .index), count: container.decode(Int.self, forKey: .count))
  }

  /// Reads `K/N`.
  public init(parsing text: String) throws {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { throw ParseError(text: text) }
    do { try self.init(index: k, count: n) } catch { throw ParseError(text: text) }
  }

  /// Whether the item at `position` of a list belongs to this shard.
  public func contains(_ position: Int) -> Bool { position % count == index - 1 }

  /// This shard's items of `items`, in order.
  public func slice<T>(_ items: [T]) -> [T] {
    count == 1 ? items : stride(from: index - 1, to: items.count, by: count).map { items[$0] }
  }

  /// Whether this is the whole run (one shard).
  public var isWhole: Bool { count == 1 }

  /// `2/8`.
  public var description: String { "\(index)/\(count)" }
}
