import CitySearch

/// A prefix trie of every place's aliases (MatchSpec §8): one path from the root per alias,
/// labelled by its tokens (Hanzi or letters). Postings are in depth-first order, so the aliases
/// that begin with a walked prefix are one contiguous range below the node where it ends.
struct AliasTrie: Sendable {
  /// `edgeStarts[v]..<edgeStarts[v + 1]` are node v's edges, sorted by unit.
  private let edgeStarts: ContiguousArray<Int32>
  private let edgeUnits: ContiguousArray<UInt32>
  private let edgeTargets: ContiguousArray<Int32>
  /// `postings[subtreeStarts[v]..<subtreeEnds[v]]`: the aliases whose path passes through v.
  private let subtreeStarts: ContiguousArray<Int32>
  private let subtreeEnds: ContiguousArray<Int32>
  /// A posting: `place << 8 | alias length`.
  private let postings: ContiguousArray<UInt32>

  var byteCount: Int {
    (edgeStarts.count + edgeUnits.count + edgeTargets.count + subtreeStarts.count + subtreeEnds.count
      + postings.count) * 4
  }

  /// Builds the trie from the aliases sorted by tokens: node ids then follow depth-first order,
  /// and so do the postings.
  ///
  /// - Complexity: O(A log A) for A aliases, plus their total length.
  init(corpus: Corpus) {
    var aliases: [(tokens: Slice<IntegerTable<UInt32>>, place: Int)] = []
    for place in 0..<corpus.count where corpus.hasAliases(at: place) {
      for k in 0..<corpus.aliasCount(at: place) { aliases.append((corpus.aliasTokens(at: place, k), place)) }
    }
    aliases.sort {
      $0.tokens.lexicographicallyPrecedes($1.tokens) || $0.tokens.elementsEqual($1.tokens) && $0.place < $1.place
    }
    // Children per node as (unit, child), in creation order, which is sorted order here.
    var children: [[(unit: UInt32, child: Int32)]] = [[]]
    var starts: [Int32] = [0]
    var ends: [Int32] = [0]
    var postings = ContiguousArray<UInt32>()
    for (index, alias) in aliases.enumerated() {
      var v = 0
      for unit in alias.tokens {
        if let last = children[v].last, last.unit == unit {
          v = Int(last.child)
        } else {
          children.append([])
          starts.append(Int32(index))
          ends.append(Int32(index))
          children[v].append((unit, Int32(children.count - 1)))
          v = children.count - 1
        }
      }
      postings.append(UInt32(alias.place) << 8 | UInt32(min(alias.tokens.count, 255)))
    }
    // Every alias sorted at `index` passes through the nodes of its path: a node's subtree is
    // the range from its first alias to one past its last.
    for (index, alias) in aliases.enumerated() {
      var v = 0
      ends[0] = Int32(index + 1)
      for unit in alias.tokens {
        v = Int(children[v].last { $0.unit == unit }!.child)
        ends[v] = Int32(index + 1)
      }
    }
    var edgeStarts = ContiguousArray<Int32>([0])
    var edgeUnits = ContiguousArray<UInt32>()
    var edgeTargets = ContiguousArray<Int32>()
    for node in children {
      for (unit, child) in node {
        edgeUnits.append(unit)
        edgeTargets.append(child)
      }
      edgeStarts.append(Int32(edgeUnits.count))
    }
    (self.edgeStarts, self.edgeUnits, self.edgeTargets) = (edgeStarts, edgeUnits, edgeTargets)
    (subtreeStarts, subtreeEnds, self.postings) = (ContiguousArray(starts), ContiguousArray(ends), postings)
  }

  /// Writes every array (``init(reading:corpus:)`` reads them back).
  func archive(into writer: inout ArchiveWriter) {
    writer.table(edgeStarts)
    writer.table(edgeUnits)
    writer.table(edgeTargets)
    writer.table(subtreeStarts)
    writer.table(subtreeEnds)
    writer.table(postings)
  }

  /// The trie ``archive(into:)`` wrote for `corpus`, checked so that no walk can read outside
  /// an array or report a place the corpus does not have.
  ///
  /// - Complexity: O(n) in the size of the arrays.
  init(reading reader: inout ArchiveReader, corpus: Corpus) throws(ArchiveError) {
    edgeStarts = try reader.table("the alias trie's edges")
    edgeUnits = try reader.table("the alias trie's edges")
    edgeTargets = try reader.table("the alias trie's edges")
    subtreeStarts = try reader.table("the alias trie's subtrees")
    subtreeEnds = try reader.table("the alias trie's subtrees")
    postings = try reader.table("the alias trie's postings")
    let nodes = edgeStarts.count - 1
    try reader.require(
      nodes >= 1 && edgeStarts.areOffsets(count: nodes + 1, total: edgeUnits.count)
        && edgeTargets.count == edgeUnits.count && edgeTargets.allLie(in: 1..<nodes), "the alias trie's edges")
    try reader.require(
      subtreeStarts.count == nodes && subtreeStarts.areRanges(to: subtreeEnds, within: postings.count),
      "the alias trie's subtrees")
    try reader.require(postings.allSatisfy { Int($0 >> 8) < corpus.count }, "the alias trie's postings")
  }

  /// Calls `body(place, whole)` for every alias that begins with `needle`; `whole` when it is
  /// the alias itself.
  ///
  /// - Complexity: O(m log f) for a needle of m tokens and nodes of at most f children, plus the
  ///   aliases reported.
  func forEachAlias(startingWith needle: [UInt32], _ body: (Int, Bool) -> Void) {
    guard !needle.isEmpty else { return }
    var v = 0
    for unit in needle {
      var low = Int(edgeStarts[v])
      var high = Int(edgeStarts[v + 1])
      while low < high {
        let mid = (low + high) / 2
        if edgeUnits[mid] < unit { low = mid + 1 } else { high = mid }
      }
      guard low < Int(edgeStarts[v + 1]), edgeUnits[low] == unit else { return }
      v = Int(edgeTargets[low])
    }
    for i in Int(subtreeStarts[v])..<Int(subtreeEnds[v]) {
      body(Int(postings[i] >> 8), Int(postings[i] & 255) == needle.count)
    }
  }
}
