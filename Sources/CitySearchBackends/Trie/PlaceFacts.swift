import CitySearch

/// What a walk reads of a place for each posting it offers, packed in one word per place: a
/// broad query offers millions of postings of places all over the corpus, and reading these
/// from the corpus's own tables cost a cache miss per table (the unit starts, the short names'
/// lengths, the pinyin starts, the unit ends, the tokens).
///
/// Derived from the corpus when the backend is made (built or opened from a file): one pass over
/// its places and units.
struct PlaceFacts: Sendable {
  /// Per place: the unit start (bits 0–31), the joined pinyin's length (32–39), the short name's
  /// joined pinyin's length (40–47), the units (48–53), the short name's units (54–59), and
  /// whether every unit has an initial (60).
  private let words: IntegerTable<UInt64>

  /// Per token, whether it has an initial (`MatchRules.initial(firstByte:kind:)`): an opaque
  /// unit has none and is left out of the initials (MatchSpec §4.3).
  let hasInitial: ContiguousArray<Bool>

  /// The facts of every place of `corpus`, in parts on every core when `concurrently` and the
  /// corpus is large.
  ///
  /// - Complexity: O(places + units).
  init(corpus: Corpus, concurrently: Bool = true) {
    let syllabary = corpus.syllabary
    let hasInitial = ContiguousArray(
      zip(syllabary.spellings, syllabary.kinds).map { spelling, kind in
        MatchRules.initial(firstByte: spelling.first ?? 0, kind: kind) != nil
      })
    self.hasInitial = hasInitial
    let count = corpus.count
    let parts = concurrently && count >= 100_000 ? 8 : 1
    words = IntegerTable(count: count) { buffer in
      nonisolated(unsafe) let words = buffer
      _ = ConcurrentResults.map(count: parts, concurrently: parts > 1) { part in
        for place in count * part / parts..<count * (part + 1) / parts {
          words[place] = Self.word(corpus: corpus, place: place, hasInitial: hasInitial)
        }
      }
    }
  }

  /// The facts of the place at `place` as one word.
  @inline(__always)
  private static func word(corpus: Corpus, place: Int, hasInitial: ContiguousArray<Bool>) -> UInt64 {
    // A name has under 64 units (a posting's start has 6 bits) and a joined pinyin under 256
    // letters (its unit ends are bytes), so each fits its field.
    let units = corpus.unitCount(at: place)
    let short = corpus.shortNameUnitCount(at: place)
    let start = corpus.unitStart(at: place)
    var every = true
    for u in 0..<units where !hasInitial[Int(corpus.canonicalToken(at: place, unit: u))] {
      every = false
      break
    }
    let shortPinyin = short > 0 ? corpus.pinyinUnitEnd(atPosition: start + short - 1) : 0
    return UInt64(start) | UInt64(corpus.joinedPinyinCount(at: place)) << 32 | UInt64(shortPinyin) << 40
      | UInt64(units) << 48 | UInt64(short) << 54 | (every ? 1 << 60 : 0)
  }

  /// The facts of the place at `place`, which must be one of the corpus's (a walk's come from
  /// its trie's postings, checked against the corpus): read without a bounds check.
  @inline(__always)
  subscript(place: Int) -> Place { Place(word: words[unchecked: place]) }

  /// The bytes of the table.
  var byteCount: Int { words.count * 8 }

  /// One place's facts.
  struct Place {
    let word: UInt64

    /// ``Corpus/unitStart(at:)``.
    var unitStart: Int { Int(truncatingIfNeeded: word & 0xFFFF_FFFF) }
    /// ``Corpus/joinedPinyinCount(at:)``.
    var joinedPinyinCount: Int { Int(truncatingIfNeeded: word >> 32 & 0xFF) }
    /// The length of the short name's joined pinyin (MatchSpec §5.1).
    var shortPinyinCount: Int { Int(truncatingIfNeeded: word >> 40 & 0xFF) }
    /// ``Corpus/unitCount(at:)``.
    var unitCount: Int { Int(truncatingIfNeeded: word >> 48 & 63) }
    /// ``Corpus/shortNameUnitCount(at:)``.
    var shortUnitCount: Int { Int(truncatingIfNeeded: word >> 54 & 63) }
    /// Whether every unit has an initial, so that a unit's place in the initials is its place in
    /// the name.
    var everyUnitHasInitial: Bool { word >> 60 & 1 != 0 }
  }
}
