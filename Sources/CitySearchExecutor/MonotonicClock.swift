#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The harness's clock: `CLOCK_MONOTONIC` in nanoseconds, unaffected by changes to the
/// wall-clock time.
public enum MonotonicClock {
  /// The current time of `CLOCK_MONOTONIC`, in nanoseconds since an arbitrary start.
  @inline(__always)
  public static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }

  /// The median cost of one reading of the clock, from `samples` back-to-back pairs: the
  /// floor under every latency the harness reports.
  public static func overhead(samples: Int = 10_001) -> Double {
    var costs = [UInt64](repeating: 0, count: samples)
    for i in 0..<samples {
      let a = now()
      let b = now()
      costs[i] = b &- a
    }
    costs.sort()
    return Double(costs[samples / 2])
  }

  /// Busy work until `nanoseconds` have passed: the injected slowdown that proves the gate.
  @inline(never)
  public static func spin(nanoseconds: UInt64) {
    guard nanoseconds > 0 else { return }
    let end = now() &+ nanoseconds
    while now() < end {}
  }
}
