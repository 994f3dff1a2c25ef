import CitySearchTestSupport
import Foundation
import Testing

/// The products an app needs (the core, the embedded corpus, the Swift backends) reach no C
/// target and no Linux-only module, so an iOS or macOS app can add them. Read from the
/// manifest as SwiftPM itself evaluates it (`swift package dump-package`).
@Suite(.timed) struct ProductGraphTests {
  static let appProducts = ["CitySearch", "CitySearchCorpus", "CitySearchEngine", "CitySearchBackends"]

  struct Manifest: Decodable {
    struct Product: Decodable {
      let name: String
      let targets: [String]
    }
    struct Target: Decodable {
      let name: String
      let type: String
      let dependencies: [[String: [String?]]]?
      let settings: [[String: AnyCodable]]?
    }
    let products: [Product]
    let targets: [Target]
  }

  /// Accepts any JSON value (only its presence matters here).
  struct AnyCodable: Decodable { init(from decoder: any Decoder) throws {} }

  func manifest() throws -> Manifest {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-dump-\(UUID())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
    process.currentDirectoryURL = Fixtures.packageRoot
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "swift package dump-package failed")
    return try JSONDecoder().decode(Manifest.self, from: data)
  }

  @Test func appProductsReachNoCTargetAndNoLinuxOnlyModule() throws {
    let manifest = try manifest()
    let targets = Dictionary(uniqueKeysWithValues: manifest.targets.map { ($0.name, $0) })
    for name in Self.appProducts {
      let product = try #require(manifest.products.first { $0.name == name })
      var reached: Set<String> = []
      var pending = product.targets
      while let next = pending.popLast() {
        guard reached.insert(next).inserted, let target = targets[next] else { continue }
        pending += (target.dependencies ?? []).compactMap { $0.values.first?.first ?? nil }
      }
      for target in reached.sorted() {
        let t = try #require(targets[target])
        #expect(t.type == "regular", "\(name) reaches \(target), a \(t.type) target")
        #expect(t.settings?.isEmpty ?? true, "\(name) reaches \(target), which has build settings (linker flags?)")
        let directory = Fixtures.packageRoot.appendingPathComponent("Sources/\(target)")
        let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        #expect(!files.isEmpty && files.allSatisfy { !$0.hasSuffix(".c") && !$0.hasSuffix(".h") }, "\(target) has C")
        for file in files where file.hasSuffix(".swift") {
          let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
          for module in ["import Glibc", "import CICUShim", "import CSQLite", "import CSystemShim", "import Musl"] {
            #expect(!text.contains(module), "\(target)/\(file): \(module)")
          }
        }
      }
    }
  }
}
