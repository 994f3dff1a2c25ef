import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file-system call that failed, with the system's reason and its errno name:
/// `cannot write out/report.md: No space left on device (ENOSPC)`.
public struct FileSystemError: Error, CustomStringConvertible, Equatable {
  /// What was being done: `write`, `create`, `rename`, …
  public let operation: String
  /// The file or directory.
  public let path: String
  /// The errno value, or 0 when the failure is not a system call's.
  public let code: Int32
  /// Set when `code` is 0.
  public let detail: String?

  /// The failure of `operation` on `path` with the C library's error `code`.
  public init(_ operation: String, _ path: String, code: Int32 = errno) {
    self.operation = operation
    self.path = path
    self.code = code
    self.detail = nil
  }

  /// The failure of `operation` on `path`, described by `detail`.
  public init(_ operation: String, _ path: String, detail: String) {
    self.operation = operation
    self.path = path
    self.code = 0
    self.detail = detail
  }

  /// The system's message and the errno name, for example `Permission denied (EACCES)`.
  public var reason: String {
    if let detail { return detail }
    let name = Self.errnoNames[code].map { " (\($0))" } ?? ""
    return String(cString: strerror(code)) + name
  }

  public var description: String { "cannot \(operation) \(path): \(reason)" }

  static let errnoNames: [Int32: String] = [
    EACCES: "EACCES", EPERM: "EPERM", EROFS: "EROFS", ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", ENOENT: "ENOENT",
    ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EEXIST: "EEXIST", ENOTEMPTY: "ENOTEMPTY", EIO: "EIO", EXDEV: "EXDEV",
    ENAMETOOLONG: "ENAMETOOLONG", EBUSY: "EBUSY", EINVAL: "EINVAL", ENOSYS: "ENOSYS", EMFILE: "EMFILE",
    ELOOP: "ELOOP", EFBIG: "EFBIG",
  ]
}

/// The few POSIX file calls the reports need, each failure turned into a ``FileSystemError``
/// once, here.
enum FileSystem {
  /// What is at a path, without following a final symbolic link.
  enum Kind: Equatable {
    case missing, file, directory, symbolicLink
    /// A FIFO, a socket or a device, described.
    case other(String)
  }

  static func kind(of path: String) throws -> Kind {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return .missing }
      throw FileSystemError("inspect", path)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    case S_IFIFO: return .other("a FIFO")
    case S_IFSOCK: return .other("a socket")
    case S_IFCHR, S_IFBLK: return .other("a device")
    default: return .other("a special file")
    }
  }

  /// The permission bits of a directory or file.
  static func mode(of path: String) -> mode_t? {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
  }

  /// Creates `path` and every missing parent.
  static func createDirectories(_ path: String) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else { throw FileSystemError("create the directory", path, code: ENOTDIR) }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty && parent != path { try createDirectories(parent) }
    guard mkdir(path, 0o777) == 0 || errno == EEXIST else { throw FileSystemError("create the directory", path) }
  }

  /// Writes `data` to a new file at `path` (which must not exist) and flushes it to the disk.
  static func writeNewFile(_ data: Data, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw FileSystemError("create", path) }
    var failure: FileSystemError?
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var offset = 0
      while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failure = FileSystemError("write", path)
          return
        }
        offset += n
      }
    }
    if failure == nil && fsync(fd) != 0 { failure = FileSystemError("flush", path) }
    if close(fd) != 0 && failure == nil { failure = FileSystemError("write", path) }
    if let failure {
      unlink(path)
      throw failure
    }
  }

  /// Flushes a directory's entries (a rename inside it) to the disk; best effort, since some
  /// file systems do not sync directories.
  static func syncDirectory(_ path: String) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  static func move(_ from: String, to: String) throws {
    guard rename(from, to) == 0 else { throw FileSystemError("rename \(from) to", to) }
  }

  /// Removes a file or a whole directory tree; a missing path is not an error.
  static func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// Whether a process with this id is running (it may be another program's after a reboot;
  /// a leftover is then kept until that process ends, which is harmless).
  static func isRunning(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }
}

/// Named points a test can stop the process at, to deliver a signal at an exact step of a
/// report write rather than at a moment chosen by timing.
///
/// With `CITYBENCH_PAUSE_AT=NAME` in the environment, reaching the point `NAME` prints
/// `citybench: paused at NAME (pid P)` to standard error and stops the process (SIGSTOP); a
/// test then sends its signal and SIGCONT.
public enum FaultPoint {
  /// The environment variable that names the point to stop at.
  public static let environmentVariable = "CITYBENCH_PAUSE_AT"

  static let requested = ProcessInfo.processInfo.environment[environmentVariable]

  /// Stops the process here when `name` is the requested point; does nothing otherwise.
  public static func reach(_ name: @autoclosure () -> String) {
    guard let requested, requested == name() else { return }
    FileHandle.standardError.write(Data("citybench: paused at \(requested) (pid \(getpid()))\n".utf8))
    raise(SIGSTOP)
  }
}
