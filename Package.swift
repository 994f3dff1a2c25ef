// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "CitySearchBench",
  // What an app links (CitySearch, CitySearchCorpus, CitySearchBackends) uses Foundation API
  // of these releases and no newer; the harness is built and run on Linux.
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "CitySearch", targets: ["CitySearch"]),
    .library(name: "CitySearchCorpus", targets: ["CitySearchCorpus"]),
    .library(name: "CitySearchEngine", targets: ["CitySearchEngine"]),
    .library(name: "CitySearchBackends", targets: ["CitySearchBackends"]),
    .library(name: "CitySearchICU", targets: ["CitySearchICU"]),
    .library(name: "CitySearchSQLite", targets: ["CitySearchSQLite"]),
    .library(name: "CitySearchCatalog", targets: ["CitySearchCatalog"]),
    .library(name: "CitySearchExecutor", targets: ["CitySearchExecutor"]),
    .library(name: "CitySearchBench", targets: ["CitySearchBench"]),
    .library(name: "CitySearchHistory", targets: ["CitySearchHistory"]),
    .executable(name: "citybench", targets: ["citybench"]),
    .executable(name: "citybench-transliteration", targets: ["TransliterationExecutor"]),
  ],
  targets: [
    // The model: corpus, pinyin keys, query normalization, the match contract (the shared
    // matcher, `Match`), the ranking (`Ranking`, `TopK`), the `SearchBackend` protocol and the
    // reference backend (`LinearScanBackend`). Depends on Foundation only.
    .target(name: "CitySearch"),
    // The default `cities` tier and the tables compiled into the binary (links to Corpus/ files).
    .target(
      name: "CitySearchCorpus",
      dependencies: ["CitySearch", "CCitySearchCorpusData"]
    ),
    // The bytes of the embedded tier and tables, as C arrays the compiler fills with `#embed`
    // (the .tsv files here are links to Corpus/).
    .target(
      name: "CCitySearchCorpusData",
      exclude: [
        "cities.tsv", "polyphones.tsv", "traditional.tsv", "prominence.tsv", "aliases.tsv", "double-pinyin.tsv",
        "zhuyin-keyboards.tsv",
      ]
    ),
    // What the indexed backends share: match sources and their ranked search, typing sessions
    // (narrowing), precomputed answers, letter keys, posting lists and their intersection.
    .target(name: "CitySearchEngine", dependencies: ["CitySearch"]),
    // The indexed pure-Swift backends (trie, inverted index), one folder each, and the list of
    // this module's backends with the reference (`SwiftBackends`).
    .target(name: "CitySearchBackends", dependencies: ["CitySearch", "CitySearchEngine"]),
    // System ICU (Debian: libicu-dev), reached through one C shim whose header exposes only
    // plain C types: ICU's own headers would clash with the copy bundled in Foundation.
    .target(
      name: "CICUShim",
      linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
    ),
    // The ICU wrapper and the two ICU transliteration backends.
    .target(name: "CitySearchICU", dependencies: ["CitySearch", "CICUShim"]),
    // System SQLite (Debian: libsqlite3-dev), its wrapper (typed binds, rows, transactions) for
    // the FTS5 backend and the history store, and the FTS5 backend.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "SQLiteSupport", dependencies: ["CSQLite"]),
    .target(name: "CitySearchSQLite", dependencies: ["CitySearch", "CitySearchEngine", "SQLiteSupport"]),
    // The differential check against the reference: query sets, comparison, reproductions.
    .target(name: "CitySearchConformance", dependencies: ["CitySearch", "CitySearchExecutor"]),
    // Every shipped backend by name, for the command line and the conformance suite.
    .target(
      name: "CitySearchCatalog",
      dependencies: ["CitySearch", "CitySearchBackends", "CitySearchICU", "CitySearchSQLite"]
    ),
    // The seat every replay drives an implementation through (the `Executor` protocol), the
    // suite's backends in it (`InProcessExecutor`), the harness's clock and the wire types an
    // executor in another process speaks.
    .target(name: "CitySearchExecutor", dependencies: ["CitySearch"]),
    // The harness's calls into the C library, in one place: the heap counter read around a
    // backend's build (glibc mallinfo2) and the one-step directory exchange (renameat2).
    .target(name: "CSystemShim"),
    // The harness: workloads, the paired replay, statistics, reports and the regression gate.
    .target(
      name: "CitySearchBench",
      dependencies: ["CitySearch", "CitySearchConformance", "CitySearchExecutor", "CSystemShim"]
    ),
    // Bench runs kept across commits in a SQLite file, their change points, and the trend page.
    .target(name: "CitySearchHistory", dependencies: ["CitySearchBench", "SQLiteSupport"]),
    .executableTarget(
      name: "citybench",
      dependencies: [
        "CitySearch", "CitySearchCorpus", "CitySearchCatalog", "CitySearchConformance", "CitySearchEngine",
        "CitySearchExecutor", "CitySearchBench", "CitySearchHistory", "CSystemShim",
      ]
    ),
    // The search an iOS engineer writes first (Foundation's mandarinToLatin transliteration),
    // as an executor that `bench --executor` and `conform --executor` run beside the backends.
    .executableTarget(name: "TransliterationExecutor", dependencies: ["CitySearchExecutor"]),
    // What every test target shares: the package's paths, the per-test duration trait, the
    // conformance checker every backend's tests call, the golden cases, the snapshot helper and
    // a backend double with a known divergence.
    .target(
      name: "CitySearchTestSupport", dependencies: ["CitySearch", "CitySearchConformance"], path: "Tests/TestSupport"),
    .testTarget(
      name: "CitySearchTests",
      dependencies: [
        "CitySearch", "CitySearchCorpus", "CitySearchEngine", "CitySearchBackends", "CitySearchICU",
        "CitySearchSQLite", "SQLiteSupport", "CitySearchCatalog", "CitySearchConformance", "CitySearchTestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "CitySearchBenchTests",
      dependencies: [
        "CitySearch", "CitySearchCorpus", "CitySearchEngine", "CitySearchBackends", "CitySearchExecutor",
        "CitySearchBench", "CitySearchHistory", "CitySearchTestSupport",
      ]
    ),
    // End-to-end tests that run the built `citybench` binary.
    .testTarget(
      name: "CityBenchCLITests",
      dependencies: ["citybench", "CitySearch", "CitySearchBackends", "CitySearchExecutor", "CitySearchTestSupport"],
      exclude: ["Snapshots"]
    ),
  ]
)
