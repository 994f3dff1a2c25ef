import CSystemShim
import Foundation

/// A directory of report files that changes as a whole: a reader, or a run killed at any
/// moment, sees the earlier set or the new one, never a mix.
///
/// Creating one checks the target before any work is done (it must be a directory or absent,
/// hold nothing but files, and its parent must be writable) and finishes or removes what a
/// killed run left beside it. Files are written into a staging directory beside the target and
/// flushed to the disk; ``commit()`` copies over the target's other files (those whose names
/// are not in `family`), then swaps the staging directory with the target in one step
/// (`renameat2` with `RENAME_EXCHANGE`). Where the file system cannot exchange, it moves the
/// target aside and the staging directory in, two renames whose every intermediate state the
/// next run recognizes and completes.
///
///     let reports = try ReportDirectory("citybench-report", family: ["results.json", "report.md"])
///     // … the long run …
///     try reports.write(json, named: "results.json")
///     try reports.write(markdown, named: "report.md")
///     let paths = try reports.commit()
///
/// The target directory is replaced, not edited: a shell whose working directory is the target
/// keeps the old, removed one.
public final class ReportDirectory {
  /// The directory as given.
  public let path: String
  /// The names that belong to a set of this kind: the target's files with these names are
  /// replaced by the new set, or removed when the new set has none of that name.
  public let family: Set<String>

  private let target: String
  private let parent: String
  private let baseName: String
  private let staging: String
  private var written: [String] = []
  private var finished = false

  /// Checks `path` and prepares the staging directory beside it.
  ///
  /// - Throws: ``FileSystemError`` naming the problem: the path is a file, the directory holds
  ///   a subdirectory or a special file, or the parent cannot be written (with the system's
  ///   reason).
  public init(_ path: String, family: Set<String>) throws {
    self.path = path
    self.family = family
    var absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    while absolute.count > 1 && absolute.hasSuffix("/") { absolute.removeLast() }
    // A symbolic link to a directory: the set replaces the directory it names.
    if case .symbolicLink = try FileSystem.kind(of: absolute) {
      absolute = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
    }
    target = (absolute as NSString).standardizingPath
    parent = (target as NSString).deletingLastPathComponent
    baseName = (target as NSString).lastPathComponent
    staging = "\(parent)/.\(baseName).citybench-\(getpid()).staging"

    try FileSystem.createDirectories(parent)
    try Self.recoverLeftovers(of: baseName, in: parent, target: target)
    switch try FileSystem.kind(of: target) {
    case .missing, .directory: break
    case .file: throw FileSystemError("write reports to", path, detail: "it is a file, not a directory")
    case .symbolicLink: throw FileSystemError("write reports to", path, detail: "it is a broken symbolic link")
    case .other(let what): throw FileSystemError("write reports to", path, detail: "it is \(what), not a directory")
    }
    _ = try carriedOver()  // refuses a target that holds directories, before any work
    guard mkdir(staging, 0o777) == 0 else { throw FileSystemError("create a directory in", parent) }
    if let mode = FileSystem.mode(of: target) { chmod(staging, mode) }
  }

  deinit {
    if !finished { FileSystem.removeTree(staging) }
  }

  /// Writes one file of the set into the staging directory and flushes it to the disk.
  public func write(_ data: Data, named name: String) throws {
    precondition(!finished && !name.contains("/"), "a report file name, before commit")
    try FileSystem.writeNewFile(data, to: "\(staging)/\(name)")
    written.append(name)
    FaultPoint.reach("staged:\(name)")
  }

  /// Writes `text` as UTF-8 to the file `name` in the directory, atomically.
  public func write(_ text: String, named name: String) throws { try write(Data(text.utf8), named: name) }

  /// Puts the new set in place of the old one; returns the paths of the files written.
  @discardableResult
  public func commit() throws -> [String] {
    precondition(!finished, "commit once")
    for name in try carriedOver() where !written.contains(name) {
      try Self.copy("\(target)/\(name)", to: "\(staging)/\(name)")
    }
    FileSystem.syncDirectory(staging)
    let complete = "\(parent)/.\(baseName).citybench-\(getpid()).complete"
    try FileSystem.move(staging, to: complete)
    finished = true
    FaultPoint.reach("complete")
    if case .missing = try FileSystem.kind(of: target) {
      try FileSystem.move(complete, to: target)
    } else if CSystemShim_exchangePaths(complete, target) == 0 {
      FaultPoint.reach("exchanged")
      FileSystem.removeTree(complete)  // now the old set
    } else if errno == EINVAL || errno == ENOSYS {
      // No exchange here: move the old set aside, then the new one in. A run killed between the
      // two finds `.old` and `.complete` and no target, and completes the move.
      let old = "\(parent)/.\(baseName).citybench-\(getpid()).old"
      try FileSystem.move(target, to: old)
      FaultPoint.reach("moved-aside")
      try FileSystem.move(complete, to: target)
      FileSystem.removeTree(old)
    } else {
      let error = FileSystemError("replace", target)
      FileSystem.removeTree(complete)
      throw error
    }
    FileSystem.syncDirectory(parent)
    let directory = path.hasSuffix("/") ? String(path.dropLast()) : path
    return written.map { "\(directory)/\($0)" }
  }

  /// The target's files that are not of this set's family, to keep in the new directory.
  private func carriedOver() throws -> [String] {
    guard case .directory = try FileSystem.kind(of: target) else { return [] }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: target)
    } catch {
      throw FileSystemError("list", target, detail: (error as NSError).localizedDescription)
    }
    var kept: [String] = []
    for name in names.sorted() where !family.contains(name) {
      if Self.isLeftoverTemporary(name) {
        unlink("\(target)/\(name)")
        continue
      }
      switch try FileSystem.kind(of: "\(target)/\(name)") {
      case .file, .symbolicLink: kept.append(name)
      case .missing: break
      case .directory:
        throw FileSystemError(
          "write reports to", path,
          detail:
            "it holds the directory '\(name)'; a report set replaces its directory as a whole, so give it one of its own"
        )
      case .other(let what):
        throw FileSystemError("write reports to", path, detail: "it holds '\(name)', \(what)")
      }
    }
    return kept
  }

  /// A hard link where the file system has them (the same file, no copy), else a copy.
  private static func copy(_ source: String, to destination: String) throws {
    if link(source, destination) == 0 { return }
    do {
      try FileManager.default.copyItem(atPath: source, toPath: destination)
    } catch {
      throw FileSystemError("copy \(source) to", destination, detail: (error as NSError).localizedDescription)
    }
  }

  /// A temporary file of ``AtomicFile`` (or of Foundation's atomic writes) whose writer has ended.
  private static func isLeftoverTemporary(_ name: String) -> Bool {
    guard name.hasPrefix(".") else { return false }
    if name.contains(".dat.nosync") { return true }
    guard let pid = leftoverPID(name, suffixes: [".tmp"]) else { return false }
    return !FileSystem.isRunning(pid)
  }

  /// The process id in `.NAME.citybench-PID.SUFFIX`, for a known suffix.
  private static func leftoverPID(_ name: String, suffixes: [String]) -> Int32? {
    guard let suffix = suffixes.first(where: name.hasSuffix), let marker = name.range(of: ".citybench-") else {
      return nil
    }
    return Int32(name[marker.upperBound..<name.index(name.endIndex, offsetBy: -suffix.count)])
  }

  /// Finishes a move that a killed run left half done, and removes the staging directories
  /// and old sets of runs that have ended.
  private static func recoverLeftovers(of baseName: String, in parent: String, target: String) throws {
    let prefix = ".\(baseName).citybench-"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).filter { $0.hasPrefix(prefix) }
    let ended = names.filter { name in
      leftoverPID(name, suffixes: [".staging", ".complete", ".old"]).map { !FileSystem.isRunning($0) } ?? false
    }
    if case .missing = try FileSystem.kind(of: target) {
      // Killed between the two renames of a move: the complete new set wins, else the old one.
      if let complete = ended.first(where: { $0.hasSuffix(".complete") }) {
        try FileSystem.move("\(parent)/\(complete)", to: target)
      } else if let old = ended.first(where: { $0.hasSuffix(".old") }) {
        try FileSystem.move("\(parent)/\(old)", to: target)
      }
    }
    for name in ended { FileSystem.removeTree("\(parent)/\(name)") }
  }
}
