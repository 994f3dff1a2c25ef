/// The whole written forms of the places a two-level query may name first (MatchSpec §9.2): for
/// every place of levels 1–3 with places under it, its name and short name in Hanzi (folded as
/// queries are, §2.6), the full pinyin of each of their reading sequences (§7, with ü also
/// typed `u`), their initials, and its aliases (§8) — each of at least two tokens, without
/// boundary marks. `北京`, `北京市`, `beijing`, `bj`, `peking` all name 北京市.
///
/// The forms are kept in a trie over query tokens, each node's edges sorted, so the heads of a
/// query are found in one walk along it.
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

  /// Per node, where its edges begin in ``edgeTokens`` (one more entry than nodes). Node 0 is
  /// the root; a node's edges are sorted by token.
  private var edgeStarts: [Int32] = [0, 0]
  /// Each edge's token and the node it leads to.
  private var edgeTokens: [UInt32] = []
  private var edgeChildren: [Int32] = []
  /// Per node, the index in ``endLists`` of the places whose form ends there; -1 for none.
  private var endSlots: [Int32] = [-1]
  /// The places whose form ends at a node, ascending.
  private var endLists: [[Int32]] = []

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
    // Built with hashed edges (`node << 32 | token` → child), then laid out sorted per node.
    var edges: [UInt64: Int32] = [:]
    var ends: [Int32: [Int32]] = [:]
    var nodeCount: Int32 = 1
    for index in 0..<corpus.count where corpus.level(at: index) <= .county && corpus.hasChildren(at: index) {
      placeCount += 1
      for form in Self.forms(of: index, in: corpus, normalizer: normalizer) where form.count >= 2 {
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
        if ends[node]?.last != Int32(index) {
          if ends[node] == nil { formCount += 1 }
          ends[node, default: []].append(Int32(index))
        }
      }
    }
    let sorted = edges.sorted { $0.key < $1.key }
    edgeStarts = [Int32](repeating: 0, count: Int(nodeCount) + 1)
    for (edge, _) in sorted { edgeStarts[Int(edge >> 32) + 1] += 1 }
    for node in 0..<Int(nodeCount) { edgeStarts[node + 1] += edgeStarts[node] }
    edgeTokens = sorted.map { UInt32(truncatingIfNeeded: $0.key) }
    edgeChildren = sorted.map(\.value)
    endSlots = [Int32](repeating: -1, count: Int(nodeCount))
    for (node, places) in ends.sorted(by: { $0.key < $1.key }) {
      endSlots[Int(node)] = Int32(endLists.count)
      endLists.append(places)
    }
  }

  /// The child of `node` along `token`, if any: a binary search of its sorted edges.
  @inline(__always)
  private func child(of node: Int32, _ token: UInt32) -> Int32? {
    var low = Int(edgeStarts[Int(node)])
    var high = Int(edgeStarts[Int(node) + 1])
    while low < high {
      let middle = (low + high) / 2
      if edgeTokens[middle] < token { low = middle + 1 } else { high = middle }
    }
    return low < Int(edgeStarts[Int(node) + 1]) && edgeTokens[low] == token ? edgeChildren[low] : nil
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

  /// The heads of `query`: each prefix of its tokens that is a whole form of some place and
  /// leaves a non-empty rest, shortest first. Boundary marks inside a head are skipped.
  ///
  /// - Complexity: O(*q* log *e*) for a query of *q* tokens and nodes of at most *e* edges.
  public func heads(of query: NormalizedQuery) -> [Head] {
    let tokens = query.tokens
    var found: [Head] = []
    var node: Int32 = 0
    var i = 0
    while i < tokens.count {
      let token = tokens[i]
      i += 1
      if token == NormalizedQuery.boundary { continue }
      guard let next = child(of: node, token) else { break }
      node = next
      let slot = endSlots[Int(node)]
      guard slot >= 0 else { continue }
      let places = endLists[Int(slot)]
      let tailStart = i < tokens.count && tokens[i] == NormalizedQuery.boundary ? i + 1 : i
      if tailStart < tokens.count { found.append(Head(tailStart: tailStart, ancestors: places)) }
    }
    return found
  }

  /// The bytes of the trie, counted from its element counts.
  public var countedBytes: Int {
    edgeStarts.count * 4 + edgeTokens.count * 8 + endSlots.count * 4 + endLists.reduce(0) { $0 + $1.count * 4 }
  }
}
