import CitySearch

extension BackendOption where Value == Bool {
  /// `icu`, `icu-cached`: transliterate with plain ICU `Han-Latin`, without the override rules
  /// that correct place-name readings (to measure what ICU alone gets wrong).
  public static var icuRaw: BackendOption<Bool> {
    BackendOption("icu-raw", default: false, summary: "plain ICU Han-Latin, without the override rules")
  }
}
