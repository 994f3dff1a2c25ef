/// The places a search may answer: every place, or those that pass each condition given — a
/// city picker's list (``Corpus/cityIndices``), some administrative levels, the places under one
/// place. A scoped search answers exactly what the unscoped search answers with the places out
/// of scope left out: the same order, the same matches, and a total that counts only places in
/// scope (MatchSpec §9).
///
/// A scope is resolved once, for one corpus, into one bit per place, so that a backend tests a
/// place in O(1) on its search path; build it once per picker, not per keystroke.
///
/// ```swift
/// let guangdong = corpus.lookup("广东省")[0]
/// let scope = PlaceScope(corpus: corpus, levels: [.county], under: guangdong)
/// backend.search("nh", scope: scope)  // 南海区 …, no place outside 广东省
/// ```
public struct PlaceScope: Sendable, Equatable, CustomStringConvertible {
  /// Only the places of ``Corpus/cityIndices``.
  public let citiesOnly: Bool
  /// Only places of these levels; `nil` for every level.
  public let levels: Set<PlaceLevel>?
  /// Only the places under this one (its descendants, not the place itself); `nil` for all.
  public let ancestor: PlaceID?
  /// One bit per place of the corpus the scope was resolved for; `nil` for every place.
  @usableFromInline let members: ContiguousArray<UInt64>?
  /// The corpus indices of the places in scope, ascending; empty for every place.
  public let indices: ContiguousArray<Int32>
  /// The number of places in scope; 0 for ``everything``, which is resolved for no corpus.
  public var placeCount: Int { indices.count }
  /// The number of places of the corpus it was resolved for, checked by ``admits(_:)``.
  let corpusCount: Int
  /// How the scope reads in a report: `cities, level 3, under 广东省`, or `every place`.
  public let description: String

  /// Every place: the unscoped search.
  @inlinable public static var everything: PlaceScope { PlaceScope() }

  @usableFromInline init() {
    self.init(
      citiesOnly: false, levels: nil, ancestor: nil, members: nil, indices: [], corpusCount: 0,
      description: "every place")
  }

  private init(
    citiesOnly: Bool, levels: Set<PlaceLevel>?, ancestor: PlaceID?, members: ContiguousArray<UInt64>?,
    indices: ContiguousArray<Int32>, corpusCount: Int, description: String
  ) {
    self.citiesOnly = citiesOnly
    self.levels = levels
    self.ancestor = ancestor
    self.members = members
    self.indices = indices
    self.corpusCount = corpusCount
    self.description = description
  }

  /// The places of `corpus` that pass every condition given; with none given, ``everything``.
  ///
  /// - Parameters:
  ///   - corpus: the corpus whose places the scope holds; use the scope with its backends only.
  ///   - citiesOnly: keep only ``Corpus/cityIndices``, the places a city picker lists.
  ///   - levels: keep only places of these levels (`nil` for all; an empty set keeps none).
  ///   - ancestor: keep only the descendants of the place at this corpus index.
  /// - Complexity: O(*n*) in the number of places of `corpus`, once.
  public init(corpus: Corpus, citiesOnly: Bool = false, levels: Set<PlaceLevel>? = nil, under ancestor: Int? = nil) {
    guard citiesOnly || levels != nil || ancestor != nil else {
      self.init()
      return
    }
    var members = ContiguousArray<UInt64>(repeating: 0, count: (corpus.count + 63) / 64)
    func set(_ index: Int) { members[index >> 6] |= 1 << UInt64(index & 63) }
    var candidates: [Int]
    if let ancestor {
      var descendants: [Int] = []
      var pending = corpus.children(of: ancestor)
      while let next = pending.popLast() {
        descendants.append(next)
        pending += corpus.children(of: next)
      }
      candidates = descendants
    } else {
      candidates = citiesOnly ? corpus.cityIndices : Array(0..<corpus.count)
    }
    if citiesOnly && ancestor != nil {
      let cities = Set(corpus.cityIndices)
      candidates = candidates.filter(cities.contains)
    }
    if let levels { candidates = candidates.filter { levels.contains(corpus.level(at: $0)) } }
    candidates.forEach(set)

    var parts: [String] = []
    if citiesOnly { parts.append("cities") }
    if let levels {
      let numbers = levels.sorted().map { String($0.rawValue) }
      parts.append((numbers.count == 1 ? "level " : "levels ") + numbers.joined(separator: ","))
    }
    if let ancestor { parts.append("under \(corpus.name(at: ancestor))") }
    self.init(
      citiesOnly: citiesOnly, levels: levels, ancestor: ancestor.map { corpus.id(at: $0) }, members: members,
      indices: ContiguousArray(candidates.sorted().map(Int32.init)), corpusCount: corpus.count,
      description: parts.joined(separator: ", "))
  }

  /// The places of this scope that are under the place at corpus index `ancestor` (its
  /// descendants): what a two-level query's rest is answered with (MatchSpec §9.2).
  ///
  /// - Complexity: O(*n* / 64 + *d*) for a corpus of *n* places and *d* descendants.
  public func restricted(under ancestor: Int, in corpus: Corpus) -> PlaceScope {
    var members = ContiguousArray<UInt64>(repeating: 0, count: (corpus.count + 63) / 64)
    var kept: [Int32] = []
    var pending = [ancestor]
    while let next = pending.popLast() {
      for child in corpus.children(of: next) {
        pending.append(child)
        guard contains(child) else { continue }
        members[child >> 6] |= 1 << UInt64(child & 63)
        kept.append(Int32(child))
      }
    }
    kept.sort()
    let under = "under \(corpus.name(at: ancestor))"
    return PlaceScope(
      citiesOnly: citiesOnly, levels: levels, ancestor: corpus.id(at: ancestor), members: members,
      indices: ContiguousArray(kept), corpusCount: corpus.count,
      description: isEverything ? under : "\(description), \(under)")
  }

  /// Whether this is the unscoped search.
  @inlinable public var isEverything: Bool { members == nil }

  /// Whether the place at corpus index `index` is in scope.
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  public func contains(_ index: Int) -> Bool {
    guard let members else { return true }
    return members[index >> 6] & (1 << UInt64(index & 63)) != 0
  }

  /// Whether the scope can be used with `corpus`: it is ``everything`` or was resolved for a
  /// corpus of the same size. A backend checks this before its search (a scope resolved for
  /// another corpus would test the wrong places).
  public func admits(_ corpus: Corpus) -> Bool { isEverything || corpusCount == corpus.count }

  public static func == (lhs: PlaceScope, rhs: PlaceScope) -> Bool {
    lhs.members == rhs.members && lhs.description == rhs.description
  }
}
