import Foundation

/// Why a binary file of this package (an index, a file of precomputed answers) was refused.
///
/// Every reader checks the bytes before it trusts them: the magic, the format, the match
/// contract, each table's length against what is left of the file, the values a table may hold,
/// and a checksum of the whole; the first failure is reported and nothing is half-read.
public enum ArchiveError: Error, Equatable, CustomStringConvertible {
  /// The file cannot be opened or mapped (the path and the system's reason).
  case unreadable(String)
  /// The file does not begin with the magic bytes of the kind expected (named).
  case notThisKind(String)
  /// The file's format version, when this build reads another.
  case format(found: UInt32, reads: UInt32)
  /// The match contract the file was computed under, when it is not this build's.
  case contract(found: String)
  /// The file was computed for another corpus (its fingerprint differs).
  case otherCorpus
  /// The file holds another backend's index than the one asked for or known.
  case otherBackend(String)
  /// The file is shorter than its header says: cut in transfer or while written.
  case cut(found: Int, expected: Int)
  /// The file ends before the named table.
  case truncated(String)
  /// A table holds a value that cannot be (a place beyond the corpus, offsets that decrease).
  case badTable(String)
  /// The bytes do not add up to the checksum the file ends with.
  case corrupted

  /// What is wrong, in one line.
  public var description: String {
    switch self {
    case .unreadable(let reason): return "cannot read the file: \(reason)"
    case .notThisKind(let kind): return "not \(kind) (its first bytes are not the magic of one)"
    case .format(let found, let reads): return "file format \(found); this build reads format \(reads)"
    case .contract(let found):
      return "computed under match contract \(found); this build answers contract \(MatchContract.version)"
    case .otherCorpus: return "computed for another corpus (its fingerprint differs): build it again"
    case .otherBackend(let name): return "an index of backend '\(name)', which this build cannot open here"
    case .cut(let found, let expected):
      return "the file is cut: \(found.formatted()) of its \(expected.formatted()) bytes"
    case .truncated(let table): return "the file ends inside \(table)"
    case .badTable(let table): return "\(table) holds values that cannot be"
    case .corrupted: return "the file's checksum does not match its bytes"
    }
  }
}
