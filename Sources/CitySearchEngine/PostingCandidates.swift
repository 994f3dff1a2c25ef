import CitySearch

/// Where an indexed backend looks for a query's matches: the places common to some posting
/// lists (every place when there are none), and apart from them a few places that the lists
/// may lack (those with an alias that begins with the query), each verified once with the
/// shared matcher.
///
/// A backend that keeps posting lists offers them (``MatchSource/postingCandidates(_:mode:)``),
/// so that the precomputed answers verify many queries' candidates one block of places at a
/// time (``ShortQueryAnswers``) and its own search verifies them whole, by one definition.
public struct PostingCandidates: Sendable {
  /// The lists' common places (every place for no list); unused when ``someListIsEmpty``.
  @usableFromInline let common: PostingIntersection
  /// Places verified before the others, ascending, and skipped among them; `nil` for none.
  @usableFromInline let apart: ContiguousArray<Int32>?
  /// Whether some list holds no place: only the places apart can match.
  @usableFromInline let someListIsEmpty: Bool
  /// Whether the lists' common places are exactly the places whose name matches the query
  /// (MatchSpec §3 and §4), not merely a superset of them: each of them matches, so they are
  /// counted without the matcher, and only the places apart and the best-ranked few need it
  /// (``ShortQueryAnswers`` answers such a query so).
  public let isExact: Bool

  /// The candidates in `lists` (`nil` when some list is empty or unknown, so none of them
  /// matches; empty for every place) and `apart` (ascending), over `placeCount` places;
  /// `isExact` when every common place of `lists` is known to match by its name.
  @inlinable
  public init(lists: [PostingList]?, apart: ContiguousArray<Int32>?, placeCount: Int, isExact: Bool = false) {
    self.isExact = isExact
    if let lists, !lists.contains(where: \.isEmpty) {
      (someListIsEmpty, common) = (false, PostingIntersection(lists, placeCount: placeCount))
    } else {
      (someListIsEmpty, common) = (true, PostingIntersection([], placeCount: placeCount))
    }
    self.apart = apart.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// A range that holds every candidate: from the first to the last place of the shortest
  /// sorted list, and the places apart.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var span: Range<Int> {
    let common = someListIsEmpty ? 0..<0 : self.common.span
    guard let apart, let first = apart.first, let last = apart.last else { return common }
    return common.isEmpty
      ? Int(first)..<Int(last) + 1 : min(common.lowerBound, Int(first))..<max(common.upperBound, Int(last) + 1)
  }

  /// Calls `body` with every candidate that matches and its match, each place once; only with
  /// the places in `range` when it is given.
  ///
  /// - Complexity: ``PostingIntersection/forEachPlace(in:_:)`` plus one matcher call per
  ///   candidate and O(log a) per candidate for a places apart.
  @inlinable
  public func forEachMatch(
    _ query: PlaceMatcher.PreparedQuery, mode: MatchMode, places: PlaceMatcher.Places, in range: Range<Int>? = nil,
    _ body: (Int, Match) -> Void
  ) {
    forEachApartMatch(query, mode: mode, places: places, in: range, body)
    forEachCandidate(in: range) { place in
      if let match = places.match(query, mode: mode, at: place) { body(place, match) }
    }
  }

  /// Calls `body` with every place apart that matches and its match, ascending; only with the
  /// places in `range` when it is given. The first half of
  /// ``forEachMatch(_:mode:places:in:_:)``, for a caller that takes the common places otherwise
  /// (an exact list counted, ``isExact``).
  ///
  /// - Complexity: one matcher call per place apart.
  @inlinable
  public func forEachApartMatch(
    _ query: PlaceMatcher.PreparedQuery, mode: MatchMode, places: PlaceMatcher.Places, in range: Range<Int>? = nil,
    _ body: (Int, Match) -> Void
  ) {
    guard let apart else { return }
    for place in apart where range.map({ $0.contains(Int(place)) }) ?? true {
      if let match = places.match(query, mode: mode, at: Int(place)) { body(Int(place), match) }
    }
  }

  /// Calls `body` with every common place of the lists that is not apart, ascending, without
  /// verifying it; only with the places in `range` when it is given.
  ///
  /// - Complexity: ``PostingIntersection/forEachPlace(in:_:)``, plus O(log a) per place for a
  ///   places apart.
  @inlinable
  public func forEachCandidate(in range: Range<Int>? = nil, _ body: (Int) -> Void) {
    guard !someListIsEmpty else { return }
    common.forEachPlace(in: range) { place in
      if let apart, apart.contains(place: place) { return }
      body(place)
    }
  }
}

extension ContiguousArray where Element == Int32 {
  /// Whether the ascending array holds `place`: a binary search.
  @inlinable
  func contains(place: Int) -> Bool {
    let low = firstPosition(notBelow: Int32(clamping: place), in: self)
    return low < count && Int(self[low]) == place
  }
}
