import CitySearch
import Foundation

/// Why a file of precomputed answers (``ShortQueryAnswers/fileData(for:)``) was refused.
public enum AnswersFileError: Error, Equatable, CustomStringConvertible {
  /// The file does not begin with the answers file's magic bytes.
  case notAnAnswersFile
  /// The file's format version, when this build reads another.
  case format(found: UInt32)
  /// The match contract the answers were computed under, when it is not this build's.
  case contract(found: String)
  /// The fingerprint of the corpus the answers were computed for, when it is not the corpus's.
  case otherCorpus
  /// The file ends before the named table.
  case truncated(String)
  /// A table holds a value that cannot be (a place beyond the corpus, a length that does not fit).
  case badTable(String)
  /// The bytes do not add up to the checksum the file ends with.
  case corrupted

  /// What is wrong, in one line.
  public var description: String {
    switch self {
    case .notAnAnswersFile: return "not a file of precomputed answers (no CSBANSW magic)"
    case .format(let found):
      return "answers file format \(found); this build reads format \(ShortQueryAnswers.fileFormat)"
    case .contract(let found):
      return "answers computed under match contract \(found); this build answers contract \(MatchContract.version)"
    case .otherCorpus: return "answers computed for another corpus (its fingerprint differs): build them again"
    case .truncated(let table): return "the file ends inside \(table)"
    case .badTable(let table): return "\(table) holds values that cannot be"
    case .corrupted: return "the file's checksum does not match its bytes"
    }
  }
}

extension ShortQueryAnswers {
  /// The version of the file layout ``fileData(for:)`` writes.
  public static let fileFormat: UInt32 = 1
  static let magic = Array("CSBANSW\0".utf8)

  /// The answers as a file an app ships beside its corpus and loads in milliseconds
  /// (``init(fileData:corpus:)``) instead of computing them at build: the magic bytes, the
  /// format, the match contract, the corpus's `Corpus.fingerprint`, the tables (little-endian),
  /// and a checksum of all of it.
  public func fileData(for corpus: Corpus) -> Data {
    var writer = AnswersFileWriter()
    writer.bytes(Self.magic)
    writer.integer(Self.fileFormat)
    writer.text(MatchContract.version)
    writer.integer(corpus.fingerprint)
    writer.integer(UInt32(Self.depth))
    writer.table(totals)
    writer.table(places)
    writer.table(matches)
    let slots = broadSlots.sorted { $0.key < $1.key }
    writer.table(ContiguousArray(slots.map(\.key)))
    writer.table(ContiguousArray(slots.map(\.value)))
    writer.table(broadTotals)
    writer.table(broadPlaces)
    writer.table(broadMatches)
    writer.integer(writer.checksum)
    return writer.data
  }

  /// Answers read from `fileData`, checked to be whole, of this format and contract, and for
  /// `corpus`.
  ///
  /// - Throws: ``AnswersFileError`` naming what is wrong; nothing is half-read.
  /// - Complexity: O(*b*) in the file's bytes, plus the corpus's `Corpus.fingerprint`.
  public init(fileData: Data, corpus: Corpus) throws(AnswersFileError) {
    var reader = AnswersFileReader(data: fileData)
    guard fileData.count >= 8, reader.bytes(8) == Self.magic else { throw .notAnAnswersFile }
    let format: UInt32 = try reader.integer("the header")
    guard format == Self.fileFormat else { throw .format(found: format) }
    let contract = try reader.text("the header")
    guard contract == MatchContract.version else { throw .contract(found: contract) }
    let fingerprint: UInt64 = try reader.integer("the header")
    let depth: UInt32 = try reader.integer("the header")
    guard depth == Self.depth else { throw .badTable("the header's depth") }
    let totals: ContiguousArray<Int32> = try reader.table("totals")
    let places: ContiguousArray<Int32> = try reader.table("places")
    let matches: ContiguousArray<UInt32> = try reader.table("matches")
    let slotKeys: ContiguousArray<UInt64> = try reader.table("broad keys")
    let slotValues: ContiguousArray<Int32> = try reader.table("broad slots")
    let broadTotals: ContiguousArray<Int32> = try reader.table("broad totals")
    let broadPlaces: ContiguousArray<Int32> = try reader.table("broad places")
    let broadMatches: ContiguousArray<UInt32> = try reader.table("broad matches")
    let checksum = reader.checksum
    let stored: UInt64 = try reader.integer("the checksum")
    guard stored == checksum, reader.isAtEnd else { throw .corrupted }
    guard fingerprint == corpus.fingerprint else { throw .otherCorpus }

    let depthCount = Int(depth)
    guard totals.count == MatchMode.allCases.count * Self.keyCount,
      places.count == totals.count * depthCount, matches.count == places.count
    else { throw .badTable("the short answers") }
    guard slotKeys.count == slotValues.count, broadPlaces.count == broadTotals.count * depthCount,
      broadMatches.count == broadPlaces.count,
      slotValues.allSatisfy({ $0 >= 0 && Int($0) < broadTotals.count })
    else { throw .badTable("the broad answers") }
    let placeCount = Int32(corpus.count)
    guard places.allSatisfy({ $0 >= -1 && $0 < placeCount }), broadPlaces.allSatisfy({ $0 >= -1 && $0 < placeCount }),
      totals.allSatisfy({ $0 >= 0 }), broadTotals.allSatisfy({ $0 >= 0 })
    else { throw .badTable("the answers' places") }
    self.init(
      totals: totals, places: places, matches: matches,
      broadSlots: Dictionary(uniqueKeysWithValues: zip(slotKeys, slotValues)), broadTotals: broadTotals,
      broadPlaces: broadPlaces, broadMatches: broadMatches)
  }
}

/// Appends little-endian values and keeps a running checksum.
struct AnswersFileWriter {
  private(set) var data = Data()
  private(set) var checksum: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func bytes(_ bytes: [UInt8]) {
    data.append(contentsOf: bytes)
    for byte in bytes { checksum = (checksum ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
  }

  mutating func integer<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes(Array($0)) }
  }

  mutating func text(_ value: String) {
    integer(UInt32(value.utf8.count))
    bytes(Array(value.utf8))
  }

  mutating func table<T: FixedWidthInteger>(_ values: ContiguousArray<T>) {
    integer(UInt64(values.count))
    let raw = values.map(\.littleEndian).withUnsafeBytes { Array($0) }
    bytes(raw)
  }
}

/// Reads what ``AnswersFileWriter`` wrote, refusing to read past the end.
struct AnswersFileReader {
  let data: Data
  private var offset: Int
  private(set) var checksum: UInt64 = 0xcbf2_9ce4_8422_2325

  init(data: Data) {
    self.data = data
    offset = data.startIndex
  }

  var isAtEnd: Bool { offset == data.endIndex }

  mutating func bytes(_ count: Int) -> [UInt8] {
    let end = min(offset + count, data.endIndex)
    let read = Array(data[offset..<end])
    offset = end
    for byte in read { checksum = (checksum ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return read
  }

  mutating func integer<T: FixedWidthInteger>(_ table: String) throws(AnswersFileError) -> T {
    let size = MemoryLayout<T>.size
    guard data.endIndex - offset >= size else { throw .truncated(table) }
    let read = bytes(size)
    var value: T = 0
    for (i, byte) in read.enumerated() { value |= T(truncatingIfNeeded: byte) << (8 * i) }
    return value
  }

  mutating func text(_ table: String) throws(AnswersFileError) -> String {
    let count: UInt32 = try integer(table)
    guard data.endIndex - offset >= Int(count) else { throw .truncated(table) }
    guard let text = String(bytes: bytes(Int(count)), encoding: .utf8) else { throw .badTable(table) }
    return text
  }

  mutating func table<T: FixedWidthInteger>(_ table: String) throws(AnswersFileError) -> ContiguousArray<T> {
    let count: UInt64 = try integer(table)
    let size = MemoryLayout<T>.size
    guard count <= UInt64(data.endIndex - offset) / UInt64(size) else { throw .truncated(table) }
    let raw = bytes(Int(count) * size)
    var values = ContiguousArray<T>(repeating: 0, count: Int(count))
    values.withUnsafeMutableBytes { $0.copyBytes(from: raw) }
    for i in values.indices { values[i] = T(littleEndian: values[i]) }
    return values
  }
}

/// A backend whose precomputed answers can be handed to it rather than computed at build
/// (`trie`, `inverted-index`): an app ships the answers file beside its corpus, and
/// `citybench index` writes and checks one, without naming a backend.
public protocol ShortAnswersBackend: MatchSource, SearchBackend {
  /// The backend over `corpus` with `shortAnswers` as its precomputed answers.
  init(corpus: Corpus, options: BackendOptions, shortAnswers: ShortQueryAnswers)
}
