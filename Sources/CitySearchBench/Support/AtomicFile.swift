import Foundation

/// Writes files so that a reader, or an interrupted run, never sees half of one: the bytes go
/// to a temporary file in the same directory, which is then renamed over the target.
public enum AtomicFile {
  public struct WriteError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
  }

  /// Writes `data` to `path` atomically; creates the parent directory if needed.
  public static func write(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw WriteError(path: path, reason: "cannot create \(directory.path): \(error.localizedDescription)")
    }
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
      throw WriteError(path: path, reason: "cannot create \(temporary.path)")
    }
    guard rename(temporary.path, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw WriteError(path: path, reason: reason)
    }
  }

  public static func write(_ text: String, to path: String) throws { try write(Data(text.utf8), to: path) }
}
