import CMemoryShim
import CitySearch
import Foundation

/// A backend built with its build time and the heap it kept, measured around `init`.
struct MeasuredBuild {
  let backend: any SearchBackend
  /// Wall-clock build time, monotonic clock.
  let seconds: Double
  /// Heap bytes in use after the build minus before (glibc `mallinfo2`: `uordblks + hblkhd`),
  /// so temporaries freed by the end of the build are not counted; `nil` where unavailable.
  let heapBytes: Int?

  static func build(_ type: any SearchBackend.Type, corpus: Corpus, options: BackendOptions) throws -> MeasuredBuild {
    let before = heapInUse()
    let start = DispatchTime.now().uptimeNanoseconds
    let backend = try type.init(corpus: corpus, options: options)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let after = heapInUse()
    return MeasuredBuild(
      backend: backend, seconds: seconds, heapBytes: before.flatMap { b in after.map { max($0 - b, 0) } })
  }

  static func heapInUse() -> Int? {
    let bytes = CMemoryShim_heapInUse()
    return bytes < 0 ? nil : Int(bytes)
  }

  var summary: String {
    let counted = backend.statistics.countedBytes
    var parts = [String(format: "built in %.3f s", seconds)]
    if let heapBytes { parts.append("heap +\(megabytes(heapBytes))") }
    if counted > 0 { parts.append("index \(megabytes(counted)) counted") }
    for (key, value) in backend.statistics.notes.sorted(by: { $0.key < $1.key }) { parts.append("\(key) \(value)") }
    return parts.joined(separator: ", ")
  }
}

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
