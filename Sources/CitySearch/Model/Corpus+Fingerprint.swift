extension Corpus {
  /// A 64-bit digest of everything a precomputed answer depends on: each place's id, parent,
  /// level, short name, units, readings and alternates, the reading tokens' spellings, the rank
  /// bases (prominence) and the aliases. Two corpora with the same fingerprint answer every
  /// query alike; a file of answers records the fingerprint of the corpus it was computed for.
  ///
  /// - Complexity: O(*n*) in the size of the corpus's arrays, a word at a time (a few
  ///   milliseconds for `villages`).
  public var fingerprint: UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ word: UInt64) { hash = (hash ^ word) &* 0x0000_0100_0000_01B3 ^ (hash >> 29) }
    func add<T: FixedWidthInteger>(_ values: some Collection<T>) {
      mix(UInt64(values.count))
      for value in values { mix(UInt64(truncatingIfNeeded: value)) }
    }
    add(ids)
    add(parents)
    add(levels)
    add(shortLengths)
    add(unitStarts)
    add(units)
    add(readings.tokens)
    add(readings.alternateStarts)
    add(readings.alternateTokens)
    add(rankBases)
    add(aliasStarts)
    add(aliasEnds)
    add(aliasUnits)
    for spelling in syllabary.spellings { add(spelling) }
    return hash
  }
}
