import CSystemShim
import CitySearch
import CitySearchExecutor
import Foundation

/// A backend built with its build time and the heap it kept, measured around `init`.
public struct MeasuredBuild: Sendable {
  /// The built backend.
  public let backend: any SearchBackend
  /// Wall-clock build time, monotonic clock.
  public let seconds: Double
  /// Heap bytes in use after the build minus before (glibc `mallinfo2`: `uordblks + hblkhd`),
  /// so temporaries freed by the end of the build are not counted; `nil` where unavailable.
  public let heapBytes: Int?

  /// Builds the backend of `entry` over `corpus` with `options`, measuring the wall time and
  /// the heap the build kept; what instances share is loaded first, unmeasured
  /// (`BackendDescriptor.sharedSetup`).
  public static func build(_ type: any SearchBackend.Type, corpus: Corpus, options: BackendOptions) throws
    -> MeasuredBuild
  {
    try type.descriptor.sharedSetup?()
    return try measure { try type.init(corpus: corpus, options: options) }
  }

  /// The backend `make` returns (a build, or an open of an index file), with the wall time
  /// and the heap kept measured around it.
  public static func measure(_ make: () throws -> any SearchBackend) rethrows -> MeasuredBuild {
    let before = heapInUse()
    let start = MonotonicClock.now()
    let backend = try make()
    let seconds = Double(MonotonicClock.now() - start) / 1e9
    let after = heapInUse()
    return MeasuredBuild(
      backend: backend, seconds: seconds, heapBytes: before.flatMap { b in after.map { max($0 - b, 0) } })
  }

  /// The bytes the allocator has handed out and not taken back, if the platform tells.
  public static func heapInUse() -> Int? {
    let bytes = CSystemShim_heapInUse()
    return bytes < 0 ? nil : Int(bytes)
  }

  /// One line: build time, heap, counted index bytes and the backend's notes.
  public var summary: String {
    let counted = backend.statistics.countedBytes
    var parts = [String(format: "built in %.3f s", seconds)]
    if let heapBytes { parts.append("heap +\(megabytes(heapBytes))") }
    if counted > 0 { parts.append("index \(megabytes(counted)) counted") }
    for (key, value) in backend.statistics.notes.sorted(by: { $0.key < $1.key }) { parts.append("\(key) \(value)") }
    return parts.joined(separator: ", ")
  }
}

/// `bytes` in megabytes (10⁶ bytes, as the charts and the bounds count them) with one
/// decimal, `12.3 MB`. (Until contract 3.3's last stop the tables divided by 2²⁰ under the same
/// label; docs/Harness.md says which figures that affects.)
public func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
