import Foundation

/// Facts about the machine and the build, for a run's metadata.
public enum RunEnvironment {
  /// The CPU's model name (`/proc/cpuinfo`), or `unknown`.
  public static var cpuModel: String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") || line.hasPrefix("Model") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return "unknown"
  }

  /// `PRETTY_NAME` from `/etc/os-release`, else the platform's version string.
  public static var operatingSystem: String {
    if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
      for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
        return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      }
    }
    return ProcessInfo.processInfo.operatingSystemVersionString
  }

  /// The kernel release (`uname -r`).
  public static var kernel: String {
    var name = utsname()
    uname(&name)
    return withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }

  /// The version of the compiler that built this binary, to the minor version.
  public static var swiftVersion: String {
    #if compiler(>=6.5)
      "6.5 or later"
    #elseif compiler(>=6.4)
      "6.4"
    #elseif compiler(>=6.3)
      "6.3"
    #elseif compiler(>=6.2)
      "6.2"
    #elseif compiler(>=6.1)
      "6.1"
    #else
      "6.0"
    #endif
  }

  /// `release` or `debug`: the configuration this binary was built in.
  public static var buildConfiguration: String {
    #if DEBUG
      "debug"
    #else
      "release"
    #endif
  }

  /// The machine this process runs on.
  public static var machine: RunMetadata.Machine {
    RunMetadata.Machine(
      cpuModel: cpuModel, cores: ProcessInfo.processInfo.activeProcessorCount,
      memoryBytes: ProcessInfo.processInfo.physicalMemory, operatingSystem: operatingSystem, kernel: kernel)
  }

  /// The commit checked out in `directory` (`-dirty` when tracked files differ), or `unknown`.
  public static func gitCommit(in directory: String?) -> String {
    guard let directory, let head = git(["rev-parse", "HEAD"], in: directory), !head.isEmpty else { return "unknown" }
    let status = git(["status", "--porcelain", "--untracked-files=no"], in: directory) ?? ""
    return status.isEmpty ? head : head + "-dirty"
  }

  private static func git(_ arguments: [String], in directory: String) -> String? {
    output(of: "/usr/bin/env", ["git", "-C", directory] + arguments)
  }

  /// Runs `executable` with `arguments` (standard error discarded) and returns its standard
  /// output, trimmed, or `nil` when it cannot start or exits with a non-zero status.
  package static func output(of executable: String, _ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Now, ISO 8601 in UTC.
  public static func timestamp(_ date: Date = Date()) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}
