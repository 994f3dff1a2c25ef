#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A command run by `/bin/sh -c` in a process group of its own, spoken to in lines over its
/// standard input and output; its standard error goes to a temporary file whose end is quoted
/// when it fails.
///
/// Every read has a deadline and every line a size bound, so that an executor that hangs,
/// floods or dies ends with an error naming what happened instead of stopping the run. Writing
/// to a child that has gone away is an error, not a SIGPIPE that ends the host.
final class ChildProcess {
  /// The command line, for messages.
  let command: String
  private let pid: pid_t
  private var input: Int32
  private let output: Int32
  private let errorPath: String
  private var buffer: [UInt8] = []
  private var scanned = 0
  private var reachedEnd = false
  private var exitStatus: Int32?

  /// Starts `command` with the environment of the host.
  ///
  /// - Throws: ``WireError`` (`exited`) when the process cannot be started.
  init(command: String) throws {
    self.command = command
    var toChild: [Int32] = [-1, -1]
    var fromChild: [Int32] = [-1, -1]
    guard pipe(&toChild) == 0 else {
      throw WireError(kind: .exited, message: "cannot make a pipe: \(Self.lastError())")
    }
    guard pipe(&fromChild) == 0 else {
      close(toChild[0])
      close(toChild[1])
      throw WireError(kind: .exited, message: "cannot make a pipe: \(Self.lastError())")
    }
    for fd in [toChild[1], fromChild[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var template = Array("/tmp/citybench-executor-XXXXXX".utf8CString)
    let errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    errorPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    if errorFile >= 0 { posix_spawn_file_actions_adddup2(&actions, errorFile, 2) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group (so that the whole group can be ended), every signal unblocked
    // and SIGPIPE at its default whatever the host does with them.
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let arguments = ["/bin/sh", "-c", command]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, &argv, environ)
    close(toChild[0])
    close(fromChild[1])
    if errorFile >= 0 { close(errorFile) }
    guard spawned == 0 else {
      close(toChild[1])
      close(fromChild[0])
      unlink(errorPath)
      throw WireError(kind: .exited, message: "cannot start '\(command)': \(String(cString: strerror(spawned)))")
    }
    pid = child
    input = toChild[1]
    output = fromChild[0]
  }

  deinit {
    stop()
    close(output)
    unlink(errorPath)
  }

  /// Writes `line` and a newline to the child's standard input.
  ///
  /// - Throws: ``WireError`` (`exited`) when the child no longer reads.
  func write(line: [UInt8]) throws {
    guard input >= 0 else { throw WireError(kind: .exited, message: "its standard input is closed") }
    var bytes = line
    bytes.append(UInt8(ascii: "\n"))
    // SIGPIPE is blocked while writing, and one it raised is taken back, so a child that has
    // gone away shows as EPIPE.
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer {
      var pending = sigset_t()
      sigpending(&pending)
      if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) == 0 {
        var zero = timespec()
        _ = sigtimedwait(&pipeSignal, nil, &zero)
      }
      pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { systemWrite(input, $0.baseAddress! + written, $0.count - written) }
      if n < 0 {
        if errno == EINTR { continue }
        throw WireError(kind: .exited, message: "stopped reading its input (\(Self.lastError()))\(exitDetail())")
      }
      written += n
    }
  }

  /// The next line of the child's standard output, without its newline.
  ///
  /// - Throws: ``WireError``: `timeout` when no whole line came within `seconds`, `malformed`
  ///   for a line longer than `maxBytes`, `exited` when the output ended.
  func readLine(seconds: Double, maxBytes: Int) throws -> [UInt8] {
    let deadline = MonotonicClock.now() &+ UInt64(seconds * 1e9)
    while true {
      if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        scanned = 0
        return line
      }
      scanned = buffer.count
      if buffer.count > maxBytes {
        throw WireError(kind: .malformed, message: "a line longer than \(maxBytes) bytes")
      }
      if reachedEnd {
        let partial = buffer.isEmpty ? "" : " after \(buffer.count) bytes of an unfinished line"
        throw WireError(kind: .exited, message: "its output ended\(partial)\(exitDetail())")
      }
      let now = MonotonicClock.now()
      guard now < deadline else {
        throw WireError(kind: .timeout, message: String(format: "no answer within %.1f s", seconds))
      }
      var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
      let ready = poll(&poller, 1, milliseconds)
      if ready < 0 && errno != EINTR {
        throw WireError(kind: .exited, message: "cannot read its output (\(Self.lastError()))")
      }
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw WireError(kind: .exited, message: "cannot read its output (\(Self.lastError()))")
      }
      if n == 0 { reachedEnd = true } else { buffer.append(contentsOf: chunk[..<n]) }
    }
  }

  /// Closes the child's input, gives it `grace` seconds to end, then ends its whole process
  /// group.
  func stop(grace: Double = 0.2) {
    if input >= 0 {
      close(input)
      input = -1
    }
    guard exitStatus == nil else { return }
    let deadline = MonotonicClock.now() &+ UInt64(grace * 1e9)
    while exitStatus == nil && MonotonicClock.now() < deadline {
      reap()
      if exitStatus == nil { usleep(5_000) }
    }
    if exitStatus == nil {
      kill(-pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      exitStatus = status
    } else {
      // The shell has ended; anything it started in the group goes with it.
      kill(-pid, SIGKILL)
    }
  }

  /// How the child ended, when it has, and the end of what it wrote to standard error.
  private func exitDetail() -> String {
    for _ in 0..<40 where exitStatus == nil {
      reap()
      if exitStatus == nil { usleep(5_000) }
    }
    var parts: [String] = []
    if let status = exitStatus {
      let signal = status & 0x7f
      parts.append(signal == 0 ? "exit status \((status >> 8) & 0xff)" : "killed by signal \(signal)")
    }
    let tail = errorTail()
    if !tail.isEmpty { parts.append("its standard error ends: \(tail)") }
    return parts.isEmpty ? "" : "; " + parts.joined(separator: "; ")
  }

  private func reap() {
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
  }

  /// The last 400 bytes the child wrote to standard error, on one line.
  func errorTail(bytes: Int = 400) -> String {
    guard let file = fopen(errorPath, "r") else { return "" }
    defer { fclose(file) }
    fseek(file, 0, SEEK_END)
    let size = ftell(file)
    let start = max(size - bytes, 0)
    fseek(file, start, SEEK_SET)
    var data = [UInt8](repeating: 0, count: size - start)
    let n = data.withUnsafeMutableBytes { fread($0.baseAddress!, 1, $0.count, file) }
    return String(decoding: data[..<n], as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " / ")
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// `write(2)`, named apart from ``ChildProcess/write(line:)``.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
