import CitySearchTestSupport
import Foundation
import Testing

/// The products an app needs (the core, the embedded corpus, the Swift backends) reach no C
/// code but data (the embedded corpus's arrays) and no Linux-only module, so an iOS or macOS app
/// can add them. Read from the
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
    struct Platform: Decodable {
      let platformName: String
      let version: String
    }
    let products: [Product]
    let targets: [Target]
    let platforms: [Platform]?
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

  /// The manifest says which Apple releases an app can target (their Foundation has every API
  /// the app products call; Apple platforms cannot be built here).
  @Test func applePlatformsAreDeclared() throws {
    let platforms = Dictionary(
      uniqueKeysWithValues: (try manifest().platforms ?? []).map { ($0.platformName, $0.version) })
    #expect(platforms["macos"] == "13.0")
    #expect(platforms["ios"] == "16.0")
  }

  @Test func appProductsReachNoCCodeButDataAndNoLinuxOnlyModule() throws {
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
        #expect(!files.isEmpty)
        for file in files where file.hasSuffix(".c") || file.hasSuffix(".h") {
          // C is allowed as data only: arrays the compiler fills from files and their
          // accessors, with no system header but <stddef.h>, so nothing of a platform's library.
          let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
          let includes = text.split(separator: "\n").filter { $0.hasPrefix("#include") }
          #expect(
            includes.allSatisfy { $0.contains("\"") || $0 == "#include <stddef.h>" },
            "\(target)/\(file) includes a system header: \(includes)")
        }
        for file in files where file.hasSuffix(".swift") {
          let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
          for module in ["import Glibc", "import CICUShim", "import CSQLite", "import CSystemShim", "import Musl"] {
            #expect(!text.contains(module), "\(target)/\(file): \(module)")
          }
        }
      }
    }
  }

  // MARK: - The module graph's rules (docs/Architecture.md)

  static let sources = Fixtures.packageRoot.appendingPathComponent("Sources")

  /// Every Swift file under `Sources/MODULE/`, with its text.
  func swiftFiles(of module: String) -> [(path: String, text: String)] {
    let directory = Self.sources.appendingPathComponent(module)
    let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".swift") }.sorted().compactMap { file in
      (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)).map {
        ("\(module)/\(file)", $0)
      }
    }
  }

  /// The modules a file imports (`@testable` or not).
  func imports(_ text: String) -> Set<String> {
    Set(
      text.split(separator: "\n").compactMap { line -> String? in
        let words = line.split(separator: " ")
        guard let at = words.firstIndex(of: "import"), words.index(after: at) < words.endIndex,
          words[..<at].allSatisfy({ $0.hasPrefix("@") })
        else { return nil }
        return String(words[words.index(after: at)])
      })
  }

  var modules: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: Self.sources.path)) ?? []).sorted()
  }

  /// The backend modules: what the catalog, the one file that names backends, imports beyond
  /// the core and the engine.
  var backendModules: Set<String> {
    let catalog = swiftFiles(of: "CitySearchCatalog").reduce(into: Set<String>()) { $0.formUnion(imports($1.text)) }
    return catalog.subtracting(["CitySearch", "CitySearchEngine", "Foundation"])
  }

  @Test func theCatalogNamesTheBackendModules() {
    #expect(backendModules == ["CitySearchBackends", "CitySearchICU", "CitySearchSQLite"])
  }

  @Test func aBackendModuleImportsNoOtherBackendModule() {
    let backends = backendModules
    for module in backends.sorted() {
      for (path, text) in swiftFiles(of: module) {
        let others = imports(text).intersection(backends.subtracting([module]))
        #expect(others.isEmpty, "\(path) imports \(others.sorted())")
      }
    }
  }

  @Test func onlyTheCatalogImportsABackendModule() {
    let backends = backendModules
    #expect(modules.count > 10)
    for module in modules where module != "CitySearchCatalog" && !backends.contains(module) {
      for (path, text) in swiftFiles(of: module) {
        let named = imports(text).intersection(backends)
        #expect(named.isEmpty, "\(path) imports the backend module \(named.sorted())")
      }
    }
  }

  /// Every public declaration of the engine has a doc comment right above it (attributes
  /// between): the same rule `scripts/docs.sh` checks on the symbol graph, here without a
  /// documentation build.
  @Test func theEngineHasNoUndocumentedPublicSymbol() {
    let files = swiftFiles(of: "CitySearchEngine")
    #expect(!files.isEmpty)
    for (path, text) in files {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      for (number, line) in lines.enumerated() where line.hasPrefix("public ") || line.contains(" public ") {
        var above = number - 1
        while above >= 0 && lines[above].hasPrefix("@") { above -= 1 }
        #expect(above >= 0 && lines[above].hasPrefix("///"), "\(path):\(number + 1): \(line)")
      }
    }
  }

  @Test func noSourceFileNamesAPathUnderTests() {
    for module in modules {
      for (path, text) in swiftFiles(of: module) {
        #expect(!text.contains("Tests/"), "\(path) names a path under Tests/")
      }
    }
  }
}
