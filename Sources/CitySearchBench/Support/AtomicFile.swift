import Foundation

/// Writes one file so that a reader, or an interrupted run, never sees half of it: the bytes go
/// to a temporary file in the same directory, are flushed to the disk, and the temporary file
/// is renamed over the target. For a set of files that must change together, see
/// ``ReportDirectory``.
public enum AtomicFile {
  /// Writes `data` to `path` atomically; creates the parent directory if needed.
  ///
  /// - Throws: ``FileSystemError`` with the system's reason (`ENOSPC`, `EACCES`, `EROFS`, …);
  ///   the old file, if any, is then untouched and no temporary file is left.
  public static func write(_ data: Data, to path: String) throws {
    let directory = (path as NSString).deletingLastPathComponent
    if !directory.isEmpty { try FileSystem.createDirectories(directory) }
    if case .directory = try FileSystem.kind(of: path) {
      throw FileSystemError("write", path, detail: "it is a directory")
    }
    let temporary =
      (directory.isEmpty ? "" : directory + "/") + temporaryName(for: (path as NSString).lastPathComponent)
    try FileSystem.writeNewFile(data, to: temporary)
    do {
      try FileSystem.move(temporary, to: path)
    } catch {
      unlink(temporary)
      throw error
    }
    FileSystem.syncDirectory(directory.isEmpty ? "." : directory)
  }

  /// Writes `text` as UTF-8 to `path`, atomically.
  public static func write(_ text: String, to path: String) throws { try write(Data(text.utf8), to: path) }

  /// `.NAME.citybench-PID.tmp`: hidden, and recognizable as a leftover once PID has ended.
  static func temporaryName(for name: String) -> String { ".\(name).citybench-\(getpid()).tmp" }
}
