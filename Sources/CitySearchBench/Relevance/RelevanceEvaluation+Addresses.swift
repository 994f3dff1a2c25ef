import CitySearch

extension RelevanceEvaluation {
  /// What typing a place as an address buys (MatchSpec §9.2), for one way of typing it.
  public struct AddressRow: Sendable, Hashable {
    /// `Hanzi`, `pinyin` or `initials`: how the parent's short name and the place's were typed.
    public var style: String
    /// The places typed so: every target with a parent in the corpus.
    public var targets: Int
    /// The share of them, weighted by prominence, first when only the place's own short name is
    /// typed in full (`朝阳`, `chaoyang`, `cy`).
    public var firstByName: Double
    /// The share first when the parent's short name and then the place's are typed in full,
    /// read as a two-level query (`北京朝阳`, `beijingchaoyang`, `bjcy`).
    public var firstByAddress: Double
    /// The weighted mean keystrokes typed after the parent's name until the place is first
    /// (a rest that never gets it there counts its length plus one).
    public var keystrokesAfterHead: Double
    /// The places first by their own name alone, and by the address, each counted once.
    public var placesFirstByName: Int
    /// The places first by the address, each counted once.
    public var placesFirstByAddress: Int
  }

  /// Types every target that has a parent as its parent's short name followed by its own, in
  /// Hanzi, full pinyin and initials, searched with two-level queries (`TwoLevelSearch` over
  /// the reference, in ``scope``): how often the place is first, against typing its own short
  /// name alone, and how many keystrokes after the parent's name it takes.
  ///
  /// - Complexity: per target and style, one search of its own name and one two-level search
  ///   per keystroke of its name after the parent's.
  public func runAddresses() -> [AddressRow] {
    let twoLevel = TwoLevelSearch(backend: reference)
    func isFirst(_ result: SearchResult, _ place: Int) -> Bool { result.hits.first?.index == place }
    var rows: [AddressRow] = []
    for style in ["Hanzi", "pinyin", "initials"] {
      var (count, weights, byName, byAddress, keystrokes) = (0, 0.0, 0.0, 0.0, 0.0)
      var (placesByName, placesByAddress) = (0, 0)
      for place in 0..<corpus.count {
        let weight = Double(facts.prominence(at: place))
        guard weight > 0, targetScope.contains(place), let parent = corpus.parentIndex(at: place) else { continue }
        let head = shortForm(parent, style: style)
        let name = shortForm(place, style: style)
        guard !head.isEmpty, !name.isEmpty else { continue }
        count += 1
        weights += weight
        let alone = reference.search(name, mode: .syllable, limit: 1, scope: scope)
        if isFirst(alone, place) {
          byName += weight
          placesByName += 1
        }
        var typed = head
        var after: Int?
        var firstWhenWhole = false
        for (k, character) in name.enumerated() {
          typed.append(character)
          firstWhenWhole = isFirst(twoLevel.search(typed, mode: .syllable, limit: 1, scope: scope), place)
          if after == nil && firstWhenWhole { after = k + 1 }
        }
        if firstWhenWhole {
          byAddress += weight
          placesByAddress += 1
        }
        keystrokes += weight * Double(after ?? name.count + 1)
      }
      guard weights > 0 else { continue }
      rows.append(
        AddressRow(
          style: style, targets: count, firstByName: byName / weights, firstByAddress: byAddress / weights,
          keystrokesAfterHead: keystrokes / weights, placesFirstByName: placesByName,
          placesFirstByAddress: placesByAddress))
    }
    return rows
  }

  /// The place's short name (MatchSpec §5.1) as typed in `style`.
  private func shortForm(_ place: Int, style: String) -> String {
    let units = corpus.shortNameUnitCount(at: place)
    switch style {
    case "Hanzi": return corpus.shortName(at: place)
    case "pinyin": return corpus.pinyin(at: place).prefix(units).joined()
    default: return String(decoding: corpus.unitInitials(at: place).prefix(units).compactMap { $0 }, as: UTF8.self)
    }
  }
}
