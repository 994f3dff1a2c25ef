/// The whole written forms of the places a two-level query may name first (MatchSpec §9.2): for
/// every place of levels 1–3 with places under it, its name and short name in Hanzi (folded as
/// queries are, §2.6), the full pinyin of each of their reading sequences (§7, with ü also
/// typed `u`), their initials, and its aliases (§8) — each of at least two tokens, without
/// boundary marks. `北京`, `北京市`, `beijing`, `bj`, `peking` all name 北京市.
///
/// The forms are kept in a trie over query tokens, so the heads of a query are found in one
/// walk along it.
///
/// ```swift
/// let heads = PlaceHeads(corpus: corpus)
/// heads.heads(of: QueryNormalizer(tables: corpus.tables).normalize("bjcy"))
/// // [(tailStart: 2, ancestors: [北京市's index, …])]
/// ```
public struct PlaceHeads: Sendable {
  /// One head of a query: the tokens before `tailStart` (less a boundary mark right before it)
  /// are a whole form of each place of `ancestors` (corpus indices, ascending).
  public struct Head: Sendable, Hashable {
    /// Where the rest of the query begins.
    public var tailStart: Int
    /// The places the head names.
    public var ancestors: [Int32]
  }

  /// The trie's edges: `node << 32 | token` → child node. Node 0 is the root.
  private var edges: [UInt64: Int32] = [:]
  /// The places whose form ends at a node.
  private var ends: [Int32: [Int32]] = [:]
  private var nodeCount: Int32 = 1

  /// The number of places a head can name.
  public private(set) var placeCount = 0
  /// The number of distinct forms kept.
  public private(set) var formCount = 0

  /// The forms of `corpus`'s places of levels 1–3 that have places under them.
  ///
  /// - Complexity: O(*p* × *f*) for *p* such places of *f* forms each (at most 8 reading
  ///   sequences, twice each for the name and the short name).
  public init(corpus: Corpus) {
    let normalizer = QueryNormalizer(tables: corpus.tables)
    for index in 0..<corpus.count where corpus.level(at: index) <= .county && corpus.hasChildren(at: index) {
      placeCount += 1
      for form in Self.forms(of: index, in: corpus, normalizer: normalizer) where form.count >= 2 {
        insert(form, place: Int32(index))
      }
    }
  }

  /// The whole forms of the place at `index`, as tokens without boundary marks.
  static func forms(of index: Int, in corpus: Corpus, normalizer: QueryNormalizer) -> Set<[UInt32]> {
    var forms = Set<[UInt32]>()
    let unitCount = corpus.unitCount(at: index)
    let lengths = Set([unitCount, corpus.shortNameUnitCount(at: index)])
    let units = Array(corpus.units(at: index))
    for length in lengths {
      let name = String(String.UnicodeScalarView(units.prefix(length).compactMap(Unicode.Scalar.init)))
      forms.insert(normalizer.normalize(name).tokens.filter { $0 != NormalizedQuery.boundary })
    }
    var sequences = [Array(corpus.canonicalTokens(at: index))]
    for k in 0..<corpus.alternateCount(at: index) { sequences.append(Array(corpus.alternateTokens(at: index, k))) }
    let syllabary = corpus.syllabary
    for sequence in sequences {
      guard sequence.allSatisfy({ syllabary.kinds[Int($0)] != .opaque }) else { continue }
      for length in lengths {
        let spellings = sequence.prefix(length).map { syllabary.spellings[Int($0)] }
        let full = spellings.flatMap { $0 }.map(UInt32.init)
        forms.insert(full)
        forms.insert(full.map { $0 == UInt32(UInt8(ascii: "v")) ? UInt32(UInt8(ascii: "u")) : $0 })
        forms.insert(spellings.map { UInt32($0[0]) })
      }
    }
    for k in 0..<corpus.aliasCount(at: index) { forms.insert(Array(corpus.aliasTokens(at: index, k))) }
    return forms
  }

  private mutating func insert(_ form: [UInt32], place: Int32) {
    var node: Int32 = 0
    for token in form {
      let edge = UInt64(UInt32(node)) << 32 | UInt64(token)
      if let child = edges[edge] {
        node = child
      } else {
        edges[edge] = nodeCount
        node = nodeCount
        nodeCount += 1
      }
    }
    if ends[node, default: []].last != place {
      if ends[node] == nil { formCount += 1 }
      ends[node, default: []].append(place)
    }
  }

  /// The heads of `query`: each prefix of its tokens that is a whole form of some place and
  /// leaves a non-empty rest, shortest first. Boundary marks inside a head are skipped.
  ///
  /// - Complexity: O(*q*) hash lookups for a query of *q* tokens.
  public func heads(of query: NormalizedQuery) -> [Head] {
    let tokens = query.tokens
    var found: [Head] = []
    var node: Int32 = 0
    var i = 0
    while i < tokens.count {
      let token = tokens[i]
      i += 1
      if token == NormalizedQuery.boundary { continue }
      guard let child = edges[UInt64(UInt32(node)) << 32 | UInt64(token)] else { break }
      node = child
      guard let places = ends[node] else { continue }
      let tailStart = i < tokens.count && tokens[i] == NormalizedQuery.boundary ? i + 1 : i
      if tailStart < tokens.count { found.append(Head(tailStart: tailStart, ancestors: places)) }
    }
    return found
  }

  /// The bytes of the trie, counted from its element counts.
  public var countedBytes: Int { edges.count * 12 + ends.values.reduce(0) { $0 + 4 + $1.count * 4 } }
}
