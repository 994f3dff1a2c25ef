import Foundation

/// A file mapped read-only into memory, private to its reader: the bytes of an index file whose
/// tables a reader uses where they lie (``ArchiveReader/integerTable(_:)``, each table keeping
/// the mapping alive), or copies table by table and then gives back (``releasePages(_:)``).
public final class MappedFile: @unchecked Sendable {
  /// The file's bytes, without a copy; the mapping is undone when the last copy of them goes.
  public let data: Data
  private let base: UnsafeMutableRawPointer?
  private let size: Int
  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Maps the regular file at `path`.
  ///
  /// - Throws: ``ArchiveError/unreadable(_:)`` naming why it cannot be opened or mapped.
  public init(path: String) throws(ArchiveError) {
    let fd = Foundation.open(path, O_RDONLY)
    guard fd >= 0 else { throw .unreadable("\(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw .unreadable("\(path): not a regular file")
    }
    size = Int(info.st_size)
    guard size > 0 else {
      (base, data) = (nil, Data())
      return
    }
    guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
      throw .unreadable("\(path): \(String(cString: strerror(errno)))")
    }
    base = mapped
    // The bytes own the mapping: it lives as long as any copy of `data` does.
    data = Data(bytesNoCopy: mapped, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
    _ = madvise(mapped, size, MADV_SEQUENTIAL)
  }

  /// The address of byte `offset` of ``data`` as values of type `T`, when it is aligned for
  /// them; nil otherwise. Valid as long as this file lives.
  func pointer<T>(at offset: Int, aligned: T.Type) -> UnsafePointer<T>? {
    guard let base, offset >= 0, offset <= size else { return nil }
    let address = base + offset
    guard Int(bitPattern: address) % MemoryLayout<T>.alignment == 0 else { return nil }
    return UnsafePointer(address.assumingMemoryBound(to: T.self))
  }

  /// Tells the system that the file is now read here and there, not from start to end: after an
  /// open has read it through (mapped with `MADV_SEQUENTIAL`, which reads ahead far and lets
  /// pages go soon after they are read), the searches of the tables left in it read at random.
  public func adviseRandomReads() {
    guard let base else { return }
    _ = madvise(base, size, MADV_NORMAL)
  }

  /// Gives the whole pages inside `range` (byte offsets in ``data``) back to the system: read
  /// again, they come from the file, so this changes nothing a reader sees, only what is
  /// resident.
  public func releasePages(_ range: Range<Int>) {
    guard let base else { return }
    let first = (range.lowerBound + Self.pageSize - 1) / Self.pageSize * Self.pageSize
    let last = min(range.upperBound, size) / Self.pageSize * Self.pageSize
    if first < last { _ = madvise(base + first, last - first, MADV_DONTNEED) }
  }
}
