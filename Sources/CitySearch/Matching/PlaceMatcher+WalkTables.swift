extension PlaceMatcher {
  /// The tables a ``MatchWalk`` reads (token spellings, kinds, fuzzy spellings), copied once
  /// into memory of their own so that every walk views them without a closure per table.
  ///
  /// A walk over them is a value of unsafe buffers: valid while this object lives, which the
  /// matcher that holds it ensures for each call it lends the walk to.
  /// Nothing writes the memory after `init`, so the object can be shared between threads.
  final class WalkTables: @unchecked Sendable {
    /// The walk over this object's memory.
    let walk: MatchWalk
    private let memory: [UnsafeMutableRawBufferPointer]

    /// Tables for the spellings of `syllabary`, `spellingBytes[spellingStarts[t]..<spellingStarts[t + 1]]`
    /// token `t`'s, and its fuzzy spellings.
    init(spellingBytes: [UInt8], spellingStarts: [Int32], kinds: [Syllabary.Kind], fuzzy: FuzzySpellings) {
      var memory: [UnsafeMutableRawBufferPointer] = []
      func copy<T>(_ values: some Collection<T>) -> UnsafeBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: Swift.max(values.count, 1))
        _ = buffer.initialize(from: values)
        memory.append(UnsafeMutableRawBufferPointer(buffer))
        return UnsafeBufferPointer(rebasing: buffer[..<values.count])
      }
      walk = MatchWalk(
        spellingBytes: copy(spellingBytes), spellingStarts: copy(spellingStarts), kinds: copy(kinds),
        fuzzy: FuzzyView(
          firsts: copy(fuzzy.firsts), starts: copy(fuzzy.starts), bytes: copy(fuzzy.bytes), rules: copy(fuzzy.rules)))
      self.memory = memory
    }

    deinit {
      for buffer in memory { buffer.deallocate() }
    }
  }
}
