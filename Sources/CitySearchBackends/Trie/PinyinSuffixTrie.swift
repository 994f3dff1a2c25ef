import CitySearch
import CitySearchEngine

/// A suffix trie over the reading sequences of every name: each suffix of each place's
/// canonical sequence, and each suffix of an alternate sequence that differs from the canonical
/// one, is a path from the root. An edge is labelled by a (unit, reading token) pair, so one
/// walk can test Hanzi against units and letters against readings; or, in a trie of
/// ``Labels/readings``, by the reading token alone, so that the Hanzi read alike share one edge
/// and a query of letters branches over syllables instead of characters.
///
/// Stored flat: nodes, edges and postings are integer arrays. Labels are numbered in
/// (spelling, unit) order, so a node's children (sorted by label) that can start with a given
/// letter are one contiguous range. Nodes are numbered breadth first, a node's children in
/// label order, so edge e leads to node e + 1 (``target(of:)``) and siblings lie side by side.
/// Postings record which suffix ends at a node and are laid out in depth-first order, so every
/// suffix passing through a node is one contiguous range.
///
/// Built here, or checked against each other and the corpus when read from a file
/// (``init(reading:corpus:)``), the arrays hold no index outside the array it indexes: the
/// walks read them without a bounds check (`IntegerTable[unchecked:]`).
final class PinyinSuffixTrie: Sendable {
  /// What an edge is labelled by.
  enum Labels {
    /// A (unit, reading token) pair: every query's walk.
    case unitsAndReadings
    /// The reading token alone, with the unit of a letter, digit or opaque unit, which reads as
    /// itself, and ``PinyinSuffixTrie/anyHanzi`` for a syllable: the walk of a query without
    /// Hanzi, which reads only spellings (MatchSpec §3.2, §3.3, §4.2, §4.3) and compares units
    /// only to its letters (§3.3, §4.1).
    case readings
  }

  /// The unit of a syllable's label in a trie of ``Labels/readings``: no scalar value, so no
  /// query token equals it.
  static let anyHanzi = UInt32.max

  // Labels.
  /// The unit and reading token of each label.
  let labelUnits: IntegerTable<UInt32>
  let labelTokens: IntegerTable<UInt16>
  /// `labelsByLetter[c]..<labelsByLetter[c + 1]` are the labels whose spelling starts with the
  /// letter of ``LetterKey/digit(_:)`` value `c` (1…36); 0 and 37 bound the others.
  let labelsByLetter: IntegerTable<Int32>

  // Nodes (0 is the root), numbered breadth first.
  /// `edgeStarts[v]..<edgeStarts[v + 1]` are node v's edges, sorted by label; edge e leads to
  /// node e + 1 (``target(of:)``).
  let edgeStarts: IntegerTable<Int32>
  let edgeLabels: IntegerTable<Int32>
  /// `postings[subtreeStarts[v]..<subtreeEnds[v]]`: every suffix whose path passes through v.
  let subtreeStarts: IntegerTable<Int32>
  let subtreeEnds: IntegerTable<Int32>
  /// A posting: `place << 7 | alternate << 6 | start unit`.
  let postings: IntegerTable<UInt32>

  // Derived from the arrays above (not written to a file).
  /// Where an occurrence in the joined pinyin can begin (MatchSpec §4.2): the root's edges whose
  /// spelling holds the letter or digit of ``LetterKey/digit(_:)`` value `d`, each with the
  /// letter's offset in the spelling, are `rootLetterEdges[i]` and `rootLetterOffsets[i]` for
  /// `i` in `rootLetterStarts[d]..<rootLetterStarts[d + 1]`.
  let rootLetterStarts: ContiguousArray<Int32>
  let rootLetterEdges: ContiguousArray<Int32>
  let rootLetterOffsets: ContiguousArray<UInt8>
  /// Per node, the first letters of its edges' labels, a filter of four bytes a node: bit
  /// ``letterBit(_:)`` of the ``LetterKey/digit(_:)`` value of each label's first letter or
  /// digit (or 37 for an opaque unit, 0 for any other first byte). A walk of letters branches
  /// over every syllable an initial may begin, and many of the nodes it reaches have no edge for
  /// the query's next letter: a clear bit tells so without searching their edges.
  let edgeLetters: IntegerTable<UInt32>

  static func posting(place: Int, start: Int, alternate: Bool) -> UInt32 {
    UInt32(place) << 7 | (alternate ? 1 << 6 : 0) | UInt32(start)
  }

  var nodeCount: Int { edgeStarts.count - 1 }

  /// The bytes of every array.
  var byteCount: Int {
    labelUnits.count * 4 + labelTokens.count * 2 + labelsByLetter.count * 4 + edgeStarts.count * 4
      + edgeLabels.count * 4 + subtreeStarts.count * 4 + subtreeEnds.count * 4
      + postings.count * 4 + rootLetterStarts.count * 4 + rootLetterEdges.count * 5 + edgeLetters.count * 4
  }

  /// Builds the trie of `corpus`, its edges labelled by `labels`.
  ///
  /// - Complexity: O(S) expected for S = the total length of all suffixes inserted (about n²/2
  ///   per name of n units): a lookup in an open-addressed table per unit of a suffix; then
  ///   linear passes (the edges sorted by a counting sort over the labels).
  init(corpus: Corpus, labels labelling: Labels = .unitsAndReadings) {
    let syllabary = corpus.syllabary
    // The unit a label records: in a trie of readings, a syllable's Hanzi is not told apart.
    let syllableKinds = syllabary.kinds.map { $0 == .syllable }
    @inline(__always) func labelUnit(_ unit: UInt32, _ token: UInt16) -> UInt32 {
      labelling == .readings && syllableKinds[Int(token)] ? Self.anyHanzi : unit
    }
    // 1. Labels, numbered in (kind, spelling, unit) order; opaque ones last. Each (unit, token)
    // pair is first numbered as it is met, then renumbered in that order (`labelOfMet`); the
    // canonical sequences' pairs are kept as met, for step 2.
    var met = IntegerKeyTable(expected: 8192)
    var pairs: [(unit: UInt32, token: UInt16)] = []
    @inline(__always) func metNumber(_ unit: UInt32, _ token: UInt16) -> Int32 {
      let unit = labelUnit(unit, token)
      return met.value(for: UInt64(unit) << 16 | UInt64(token)) {
        pairs.append((unit, token))
        return Int32(pairs.count - 1)
      }
    }
    var canonicalMet: [Int32] = []
    for place in 0..<corpus.count {
      for u in 0..<corpus.unitCount(at: place) {
        canonicalMet.append(metNumber(corpus.unit(at: place, u), corpus.canonicalToken(at: place, unit: u)))
      }
      for k in 0..<corpus.alternateCount(at: place) {
        for (u, token) in corpus.alternateTokens(at: place, k).enumerated() {
          _ = metNumber(corpus.unit(at: place, u), token)
        }
      }
    }
    let order = pairs.indices.sorted { i, j in
      let (a, b) = (pairs[i], pairs[j])
      let oa = syllabary.kinds[Int(a.token)] == .opaque
      let ob = syllabary.kinds[Int(b.token)] == .opaque
      if oa != ob { return ob }
      let sa = syllabary.spellings[Int(a.token)]
      let sb = syllabary.spellings[Int(b.token)]
      if !oa {  // letters before digits, as LetterKey numbers them
        let da = LetterKey.digit(UInt32(sa[0]))
        let db = LetterKey.digit(UInt32(sb[0]))
        if da != db { return da < db }
      }
      if sa != sb { return sa.lexicographicallyPrecedes(sb) }
      return a.unit < b.unit
    }
    var labelOfMet = [Int32](repeating: 0, count: pairs.count)
    for (label, i) in order.enumerated() { labelOfMet[i] = Int32(label) }
    pairs = order.map { pairs[$0] }
    labelUnits = IntegerTable(pairs.lazy.map(\.unit))
    labelTokens = IntegerTable(pairs.lazy.map(\.token))
    var byLetter = ContiguousArray<Int32>(repeating: 0, count: 39)
    for pair in pairs where syllabary.kinds[Int(pair.token)] != .opaque {
      byLetter[Int(LetterKey.digit(UInt32(syllabary.spellings[Int(pair.token)][0]))) + 1] += 1
    }
    byLetter[38] = Int32(pairs.count)
    for c in 1...37 { byLetter[c] += byLetter[c - 1] }
    labelsByLetter = IntegerTable(byLetter)

    // 2. Insert the suffixes; children found through one table keyed by (node, label).
    var childOf = IntegerKeyTable(expected: corpus.count * 2)
    var parents: [Int32] = [-1]
    var parentLabels: [Int32] = [-1]
    var ends: [(node: Int32, posting: UInt32)] = []
    var sequence: [Int32] = []
    /// The suffix of `sequence` from unit `u`.
    func insert(place: Int, from u: Int, alternate: Bool) {
      var node: Int32 = 0
      for label in sequence[u...] {
        node = childOf.value(for: UInt64(node) << 24 | UInt64(label)) {
          parents.append(node)
          parentLabels.append(label)
          return Int32(parents.count - 1)
        }
      }
      ends.append((node, Self.posting(place: place, start: u, alternate: alternate)))
    }
    var first = 0
    for place in 0..<corpus.count {
      let count = corpus.unitCount(at: place)
      sequence.removeAll(keepingCapacity: true)
      for met in canonicalMet[first..<first + count] { sequence.append(labelOfMet[Int(met)]) }
      first += count
      for u in 0..<count { insert(place: place, from: u, alternate: false) }
      guard corpus.alternateCount(at: place) > 0 else { continue }
      let canonical = corpus.canonicalTokens(at: place)
      var seen: [Slice<IntegerTable<UInt16>>] = []
      for k in 0..<corpus.alternateCount(at: place) {
        let alternate = corpus.alternateTokens(at: place, k)
        sequence.removeAll(keepingCapacity: true)
        for (u, token) in alternate.enumerated() {
          sequence.append(labelOfMet[Int(metNumber(corpus.unit(at: place, u), token))])  // met in step 1
        }
        for u in 0..<count {
          // A suffix equal to the canonical one (or an earlier alternate's) adds only
          // dominated matches: the same runs with a worse reading class.
          let suffix = alternate[(alternate.startIndex + u)...]
          if suffix.elementsEqual(canonical[(canonical.startIndex + u)...]) { continue }
          if seen.contains(where: { $0.count == suffix.count && $0.elementsEqual(suffix) }) { continue }
          seen.append(suffix)
          insert(place: place, from: u, alternate: true)
        }
      }
    }

    // 3. Children as compressed rows, sorted by label: the nodes in label order (a counting
    // sort over the labels), each appended to its parent's row; then the nodes numbered breadth
    // first, so that edge e leads to node e + 1 and a node's children lie side by side (a walk
    // that branches over a node's children reads their rows from a few cache lines, not one
    // line each wherever they were met, and needs no array of targets).
    let nodeCount = parents.count
    var starts = ContiguousArray<Int32>(repeating: 0, count: nodeCount + 1)
    var labelStarts = [Int32](repeating: 0, count: pairs.count + 1)
    for v in 1..<nodeCount {
      starts[Int(parents[v]) + 1] += 1
      labelStarts[Int(parentLabels[v]) + 1] += 1
    }
    for v in 0..<nodeCount { starts[v + 1] += starts[v] }
    for l in 0..<pairs.count { labelStarts[l + 1] += labelStarts[l] }
    var byLabel = [Int32](repeating: 0, count: nodeCount - 1)
    for v in 1..<nodeCount {
      let l = Int(parentLabels[v])
      byLabel[Int(labelStarts[l])] = Int32(v)
      labelStarts[l] += 1
    }
    var fill = starts
    var children = [Int32](repeating: 0, count: nodeCount - 1)
    for v in byLabel {
      let p = Int(parents[Int(v)])
      children[Int(fill[p])] = v
      fill[p] += 1
    }
    // Breadth first: `bfsOrder[i]` is the node numbered i; each node's children, in label order,
    // take the next numbers.
    var bfsOrder = [Int32](repeating: 0, count: nodeCount)
    var numbered = 1
    var bfsStarts = ContiguousArray<Int32>(repeating: 0, count: nodeCount + 1)
    var labels = ContiguousArray<Int32>(repeating: 0, count: nodeCount - 1)
    for i in 0..<nodeCount {
      let v = Int(bfsOrder[i])
      bfsStarts[i] = Int32(numbered - 1)
      for e in Int(starts[v])..<Int(starts[v + 1]) {
        let child = children[e]
        bfsOrder[numbered] = child
        labels[numbered - 1] = parentLabels[Int(child)]
        numbered += 1
      }
    }
    bfsStarts[nodeCount] = Int32(nodeCount - 1)
    edgeStarts = IntegerTable(bfsStarts)
    edgeLabels = IntegerTable(labels)
    var numberOf = [Int32](repeating: 0, count: nodeCount)
    for (i, v) in bfsOrder.enumerated() { numberOf[Int(v)] = Int32(i) }
    for i in ends.indices { ends[i].node = numberOf[Int(ends[i].node)] }

    // 4. Postings in depth-first order.
    var own = [Int32](repeating: 0, count: nodeCount)
    for end in ends { own[Int(end.node)] += 1 }
    var subtreeStarts = ContiguousArray<Int32>(repeating: 0, count: nodeCount)
    var subtreeEnds = ContiguousArray<Int32>(repeating: 0, count: nodeCount)
    var next: Int32 = 0
    var stack: [(node: Int32, exiting: Bool)] = [(0, false)]
    while let (v, exiting) = stack.popLast() {
      if exiting {
        subtreeEnds[Int(v)] = next
        continue
      }
      subtreeStarts[Int(v)] = next
      next += own[Int(v)]
      stack.append((v, true))
      for e in (Int(bfsStarts[Int(v)])..<Int(bfsStarts[Int(v) + 1])).reversed() { stack.append((Int32(e + 1), false)) }
    }
    var cursor = Array(subtreeStarts)
    var postings = ContiguousArray<UInt32>(repeating: 0, count: ends.count)
    for end in ends {
      postings[Int(cursor[Int(end.node)])] = end.posting
      cursor[Int(end.node)] += 1
    }
    self.subtreeStarts = IntegerTable(subtreeStarts)
    self.subtreeEnds = IntegerTable(subtreeEnds)
    self.postings = IntegerTable(postings)
    (rootLetterStarts, rootLetterEdges, rootLetterOffsets) = Self.rootLetters(
      edgeStarts: edgeStarts, edgeLabels: edgeLabels, labelTokens: labelTokens, syllabary: syllabary)
    edgeLetters = Self.edgeLetters(edgeStarts: edgeStarts, edgeLabels: edgeLabels, labelsByLetter: labelsByLetter)
  }

  /// The bit of ``edgeLetters`` for the labels in `labelsByLetter[d]..<labelsByLetter[d + 1]`:
  /// `d` modulo 32, so each letter (1…26) has its own, and the digits and opaque units share
  /// those of `a` to `e` and the letters after `z`: a set bit may be another's, which costs a
  /// search that finds nothing; a clear bit is never wrong.
  @inline(__always)
  static func letterBit(_ d: Int32) -> UInt32 { 1 << (UInt32(bitPattern: d) & 31) }

  /// The node edge e leads to, e + 1: the nodes are numbered breadth first, each node's
  /// children in the order of its edges, and the edges lie in the order of their nodes, so the
  /// e-th edge leads to the (e + 1)-th node (the root, 0, has no edge into it).
  @inline(__always)
  func target(of e: Int) -> Int32 { Int32(truncatingIfNeeded: e + 1) }

  /// Each node's first letters of its edges' labels (``edgeLetters``).
  ///
  /// - Complexity: O(nodes + edges + labels).
  private static func edgeLetters(
    edgeStarts: IntegerTable<Int32>, edgeLabels: IntegerTable<Int32>, labelsByLetter: IntegerTable<Int32>
  ) -> IntegerTable<UInt32> {
    var bitOfLabel = ContiguousArray<UInt32>(repeating: 0, count: Int(labelsByLetter[labelsByLetter.count - 1]))
    for d in 0..<labelsByLetter.count - 1 {
      for label in Int(labelsByLetter[d])..<Int(labelsByLetter[d + 1]) { bitOfLabel[label] = letterBit(Int32(d)) }
    }
    let nodes = edgeStarts.count - 1
    return IntegerTable(count: nodes) { letters in
      edgeStarts.withUnsafeBufferPointer { starts in
        edgeLabels.withUnsafeBufferPointer { labels in
          for v in 0..<nodes {
            var mask: UInt32 = 0
            for e in Int(starts[v])..<Int(starts[v + 1]) { mask |= bitOfLabel[Int(labels[e])] }
            letters[v] = mask
          }
        }
      }
    }
  }

  /// Whether node v may have an edge whose label's spelling starts with the letter or digit
  /// `c`: false when ``edgeLetters`` says it has none (true may be wrong; false is not).
  @inline(__always)
  func mayHaveEdge(of v: Int32, startingWith c: UInt32) -> Bool {
    edgeLetters[unchecked: Int(v)] & Self.letterBit(LetterKey.digit(c)) != 0
  }

  /// Node v's edges whose label's spelling starts with the letter or digit `c`: none, without
  /// a search, when ``edgeLetters`` has no such label.
  @inline(__always)
  func edges(of v: Int32, startingWith c: UInt32) -> Range<Int> {
    guard mayHaveEdge(of: v, startingWith: c) else { return 0..<0 }
    return edges(of: v, labels: labels(startingWith: c))
  }

  /// Node v's edges labelled by opaque units (``opaqueLabels``): none, without a search, when
  /// ``edgeLetters`` has none.
  @inline(__always)
  func opaqueEdges(of v: Int32) -> Range<Int> {
    edgeLetters[unchecked: Int(v)] & Self.letterBit(37) != 0 ? edges(of: v, labels: opaqueLabels) : 0..<0
  }

  /// The root's edges by the letters their spellings hold (``rootLetterStarts``).
  ///
  /// - Complexity: O(the letters of the root's labels' spellings).
  private static func rootLetters(
    edgeStarts: IntegerTable<Int32>, edgeLabels: IntegerTable<Int32>, labelTokens: IntegerTable<UInt16>,
    syllabary: Syllabary
  ) -> (ContiguousArray<Int32>, ContiguousArray<Int32>, ContiguousArray<UInt8>) {
    var byLetter = [[(edge: Int32, offset: UInt8)]](repeating: [], count: 37)
    for e in Int(edgeStarts[0])..<Int(edgeStarts[1]) {
      let token = Int(labelTokens[Int(edgeLabels[e])])
      guard syllabary.kinds[token] != .opaque else { continue }
      for (offset, byte) in syllabary.spellings[token].enumerated() {
        // Letters and digits only: what a query's letters can equal.
        guard (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) else { continue }
        byLetter[Int(LetterKey.digit(UInt32(byte)))].append((Int32(e), UInt8(offset)))
      }
    }
    var starts = ContiguousArray<Int32>([0])
    for list in byLetter { starts.append(starts.last! + Int32(list.count)) }
    return (
      starts, ContiguousArray(byLetter.joined().map(\.edge)), ContiguousArray(byLetter.joined().map(\.offset))
    )
  }

  /// Writes every array (``init(reading:corpus:)`` reads them back).
  func archive(into writer: inout ArchiveWriter) {
    writer.table(labelUnits)
    writer.table(labelTokens)
    writer.table(labelsByLetter)
    writer.table(edgeStarts)
    writer.table(edgeLabels)
    writer.table(subtreeStarts)
    writer.table(subtreeEnds)
    writer.table(postings)
  }

  /// The trie ``archive(into:)`` wrote for `corpus`, checked: labels of the corpus's tokens,
  /// edges to nodes that exist, subtrees inside the postings, postings of the corpus's places
  /// and units, so that no walk can read outside an array.
  ///
  /// - Complexity: O(n) in the size of the arrays.
  init(reading reader: inout ArchiveReader, corpus: Corpus) throws(ArchiveError) {
    labelUnits = try reader.integerTable("the trie's labels")
    labelTokens = try reader.integerTable("the trie's labels")
    let labelsByLetter: IntegerTable<Int32> = try reader.integerTable("the trie's letter ranges")
    let edgeStarts: IntegerTable<Int32> = try reader.integerTable("the trie's edges")
    let edgeLabels: IntegerTable<Int32> = try reader.integerTable("the trie's edges")
    (self.labelsByLetter, self.edgeStarts, self.edgeLabels) = (labelsByLetter, edgeStarts, edgeLabels)
    subtreeStarts = try reader.integerTable("the trie's subtrees")
    subtreeEnds = try reader.integerTable("the trie's subtrees")
    postings = try reader.integerTable("the trie's postings")
    let labels = labelUnits.count
    try reader.require(
      labelTokens.count == labels && labelTokens.allLie(in: 0..<corpus.syllabary.count), "the trie's labels")
    try reader.require(labelsByLetter.areOffsets(count: 39, total: labels), "the trie's letter ranges")
    let nodes = edgeStarts.count - 1
    // Edge e leads to node e + 1: one edge into every node but the root, and each node's edges
    // after its own number, so that every edge leads deeper and no walk can loop.
    try reader.require(
      nodes >= 1 && edgeLabels.count == nodes - 1 && edgeStarts.areOffsets(count: nodes + 1, total: nodes - 1)
        && edgeLabels.allLie(in: 0..<labels)
        && edgeStarts.withUnsafeBufferPointer { starts in (1..<nodes).allSatisfy { Int(starts[$0]) >= $0 } },
      "the trie's edges")
    // Derived from the edges, checked, on another core while the postings are checked.
    let edgeLetters = BackgroundResult {
      Self.edgeLetters(edgeStarts: edgeStarts, edgeLabels: edgeLabels, labelsByLetter: labelsByLetter)
    }
    try reader.require(
      subtreeStarts.count == nodes && subtreeStarts.areRanges(to: subtreeEnds, within: postings.count),
      "the trie's subtrees")
    let places = corpus.count
    try reader.require(
      postings.withUnsafeBufferPointer { postings in
        for posting in postings {
          let place = Int(posting >> 7)
          guard place < places, Int(posting & 63) < corpus.unitCount(at: place) else { return false }
        }
        return true
      }, "the trie's postings")
    (rootLetterStarts, rootLetterEdges, rootLetterOffsets) = Self.rootLetters(
      edgeStarts: edgeStarts, edgeLabels: edgeLabels, labelTokens: labelTokens, syllabary: corpus.syllabary)
    self.edgeLetters = edgeLetters.value
  }

  /// Node v's edges whose label lies in `labels`, found by binary search; none without a
  /// search when the node's labels all lie before or after them (a leaf, or a node without
  /// opaque labels, which are numbered last, asked for them).
  @inline(__always)
  func edges(of v: Int32, labels: Range<Int32>) -> Range<Int> {
    let first = Int(edgeStarts[unchecked: Int(v)])
    let end = Int(edgeStarts[unchecked: Int(v) + 1])
    guard first < end, edgeLabels[unchecked: end - 1] >= labels.lowerBound,
      edgeLabels[unchecked: first] < labels.upperBound
    else {
      return first..<first
    }
    let low = lowerBound(labels.lowerBound, first, end)
    return low..<lowerBound(labels.upperBound, low, end)
  }

  @inline(__always)
  private func lowerBound(_ label: Int32, _ first: Int, _ end: Int) -> Int {
    var low = first
    var high = end
    while low < high {
      let mid = (low + high) / 2
      if edgeLabels[unchecked: mid] < label { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The labels whose spelling starts with the Latin unit `c`.
  @inline(__always)
  func labels(startingWith c: UInt32) -> Range<Int32> {
    let d = Int(LetterKey.digit(c))
    return labelsByLetter[unchecked: d]..<labelsByLetter[unchecked: d + 1]
  }

  /// The labels of opaque units, which have no letters: numbered after every other.
  var opaqueLabels: Range<Int32> { labelsByLetter[37]..<labelsByLetter[38] }

  /// All labels.
  var allLabels: Range<Int32> { 0..<Int32(labelUnits.count) }
}
