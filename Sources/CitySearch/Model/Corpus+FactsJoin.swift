/// How the places of an imported list were joined to the facts of a known corpus
/// (``Corpus/joiningFacts(from:)``): which took a known place's prominence and aliases, and why
/// the others did not.
public struct FactsJoin: Sendable {
  /// Each joined place (an index of the imported corpus) with the known place it took its facts
  /// from (an index of the known corpus).
  public var joined: [(place: Int, known: Int)] = []
  /// Places no known place with facts is named like.
  public var unknown: [Int] = []
  /// Places that several known places are named like, with nothing to tell them apart; each
  /// with its candidates.
  public var ambiguous: [(place: Int, candidates: [Int])] = []

  /// `joined 7 of 7 places to the facts of towns; …`, naming at most five of the places left out.
  public func summary(imported: Corpus, known: Corpus) -> String {
    let total = joined.count + unknown.count + ambiguous.count
    var text = "joined \(joined.count) of \(total) places to the facts (prominence, aliases) of \(known.source)"
    func names(_ places: [Int]) -> String {
      let shown = places.prefix(5).map { imported.name(at: $0) }.joined(separator: ", ")
      return places.count > 5 ? shown + ", …" : shown
    }
    if !unknown.isEmpty { text += "; \(unknown.count) unknown there (\(names(unknown)))" }
    if !ambiguous.isEmpty {
      text += "; \(ambiguous.count) named like several places (\(names(ambiguous.map(\.place))))"
    }
    return text
  }
}

extension Corpus {
  /// This corpus with the facts of `known` — prominence and aliases (MatchSpec §5.4, §8) —
  /// given to each place that names a known place, so that an imported list ranks as the tiers
  /// do (`gz` is 广州 before 赣州, `沪` finds 上海). A place names a known place with facts when
  /// their names are equal or their short names are (广州 and 广州市), Traditional folded to
  /// Simplified (廣州); among several, the ones whose parent's short name is the place's
  /// parent's are kept, then the ones of the same level; a place still named like several, or
  /// like none, gets no facts and is listed in the ``FactsJoin``.
  ///
  /// - Complexity: O(*n* + *m*) for the two corpora's places, building one name table of `known`.
  public func joiningFacts(from known: Corpus) -> (corpus: Corpus, join: FactsJoin) {
    func key(_ text: String) -> String { tables.simplifying(text) }
    var byName: [String: [Int]] = [:]
    for k in 0..<known.count where known.prominence(at: k) > 0 || known.hasAliases(at: k) {
      let name = key(known.name(at: k))
      let short = key(known.shortName(at: k))
      byName[name, default: []].append(k)
      if short != name { byName[short, default: []].append(k) }
    }
    var join = FactsJoin()
    var entries: [PlaceID: PlaceFacts.Entry] = [:]
    for place in 0..<count {
      let name = key(names[place])
      var candidates = Array(Set((byName[name] ?? []) + (byName[key(shortName(at: place))] ?? []))).sorted()
      if candidates.count > 1, let parent = parentIndex(at: place) {
        let parentName = key(shortName(at: parent))
        let sameParent = candidates.filter {
          known.parentIndex(at: $0).map { key(known.shortName(at: $0)) } == parentName
        }
        if !sameParent.isEmpty { candidates = sameParent }
      }
      if candidates.count > 1 {
        let sameLevel = candidates.filter { known.level(at: $0) == level(at: place) }
        if !sameLevel.isEmpty { candidates = sameLevel }
      }
      // The place's own facts (the aliases its file gave) are kept, the known ones added.
      let own = tables.facts.entry(id: ids[place], name: names[place])
      if let own { entries[ids[place]] = own }
      switch candidates.count {
      case 0: join.unknown.append(place)
      case 1:
        let k = candidates[0]
        join.joined.append((place, k))
        let facts = known.tables.facts.entry(id: known.id(at: k), name: known.name(at: k))
        entries[ids[place]] = PlaceFacts.Entry(
          name: names[place], prominence: max(known.prominence(at: k), own?.prominence ?? 0),
          aliases: (own?.aliases ?? []) + (facts?.aliases ?? []))
      default: join.ambiguous.append((place, candidates))
      }
    }
    let joinedTables = ReadingTables(
      polyphones: tables.polyphones, simplified: tables.simplified, facts: PlaceFacts(entries: entries))
    let corpus = Corpus(
      source: source, tables: joinedTables, syllabary: syllabary, ids: ContiguousArray(ids),
      parents: ContiguousArray(parents), levels: ContiguousArray(levels), names: ContiguousArray(names),
      hot: ContiguousArray(hot.map { $0 != 0 }), shortLengths: ContiguousArray(shortLengths),
      unitStarts: ContiguousArray(unitStarts), units: ContiguousArray(units), tokens: ContiguousArray(readings.tokens),
      alternateStarts: ContiguousArray(readings.alternateStarts),
      alternateTokens: ContiguousArray(readings.alternateTokens), fileSections: fileSections)
    return (corpus, join)
  }
}
