import Foundation

/// Where the package's files are, for every test target.
public enum TestPaths {
  /// The package root, found from this file's path (`Tests/TestSupport/TestPaths.swift`).
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `relativePath` under the package root.
  public static func file(_ relativePath: String) -> URL { packageRoot.appendingPathComponent(relativePath) }

  /// The golden cases, read by `citybench conform` and by the tests.
  public static var golden: URL { file("Conformance/golden.tsv") }
}
