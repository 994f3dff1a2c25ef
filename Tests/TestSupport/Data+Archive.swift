import CitySearch
import Foundation

extension Data {
  /// Rewrites the checksum a file of this package ends with (`ArchiveWriter`) to match its
  /// bytes: a damaged file that the checksum no longer catches, to test the checks behind it.
  public mutating func resealChecksum() {
    let checksum = prefix(count - 8).withUnsafeBytes { ArchiveChecksum.of($0) }
    Swift.withUnsafeBytes(of: checksum.littleEndian) { replaceSubrange(count - 8..<count, with: $0) }
  }
}
