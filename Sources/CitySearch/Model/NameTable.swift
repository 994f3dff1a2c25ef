/// The places' names as one table of UTF-8 bytes and the offset where each ends: what a corpus
/// file holds, used where it lies (an opened index decodes no name until one is shown).
struct NameTable: RandomAccessCollection, Sendable {
  /// `bytes[ends[i]..<ends[i + 1]]` is name `i`.
  let ends: IntegerTable<Int32>
  let bytes: IntegerTable<UInt8>

  /// The table of `names`.
  ///
  /// - Complexity: O(the names' bytes).
  init(_ names: some Collection<String>) {
    var ends = ContiguousArray<Int32>([0])
    var bytes = ContiguousArray<UInt8>()
    ends.reserveCapacity(names.count + 1)
    for name in names {
      bytes.append(contentsOf: name.utf8)
      ends.append(Int32(bytes.count))
    }
    self.init(ends: IntegerTable(ends), bytes: IntegerTable(bytes))
  }

  /// The table of names `ends` and `bytes` hold, as an archive stores them; `ends` must be
  /// offsets into `bytes` (``RandomAccessCollection/areOffsets(count:total:)``).
  init(ends: IntegerTable<Int32>, bytes: IntegerTable<UInt8>) {
    (self.ends, self.bytes) = (ends, bytes)
  }

  var startIndex: Int { 0 }
  var endIndex: Int { ends.count - 1 }

  /// Name `index`. A byte that is not UTF-8 (which an archive's checksum makes a deliberate
  /// change) reads as U+FFFD.
  ///
  /// - Complexity: O(the name's bytes).
  subscript(index: Int) -> String {
    let range = Int(ends[index])..<Int(ends[index + 1])
    return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
  }
}
