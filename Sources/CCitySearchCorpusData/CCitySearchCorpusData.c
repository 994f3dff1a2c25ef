// The embedded tier and tables as C arrays filled by `#embed` (C23, in clang since 19): the
// compiler copies the files' bytes without parsing them, where a Swift array literal of the
// same bytes (`.embedInCode`) took about 110 s and 1.5 GB to type-check. The .tsv files beside
// this one are links to Corpus/; the compiler's dependency file names them, so editing one
// rebuilds this file.
#include "CCitySearchCorpusData.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char cities[] = {
#embed "cities.tsv"
};

const unsigned char *citysearch_cities_tsv(size_t *count) {
  *count = sizeof(cities);
  return cities;
}

static const unsigned char polyphones[] = {
#embed "polyphones.tsv"
};

const unsigned char *citysearch_polyphones_tsv(size_t *count) {
  *count = sizeof(polyphones);
  return polyphones;
}

static const unsigned char traditional[] = {
#embed "traditional.tsv"
};

const unsigned char *citysearch_traditional_tsv(size_t *count) {
  *count = sizeof(traditional);
  return traditional;
}

static const unsigned char prominence[] = {
#embed "prominence.tsv"
};

const unsigned char *citysearch_prominence_tsv(size_t *count) {
  *count = sizeof(prominence);
  return prominence;
}

static const unsigned char aliases[] = {
#embed "aliases.tsv"
};

const unsigned char *citysearch_aliases_tsv(size_t *count) {
  *count = sizeof(aliases);
  return aliases;
}

static const unsigned char double_pinyin[] = {
#embed "double-pinyin.tsv"
};

const unsigned char *citysearch_double_pinyin_tsv(size_t *count) {
  *count = sizeof(double_pinyin);
  return double_pinyin;
}
