#ifndef CCITYSEARCHCORPUSDATA_H
#define CCITYSEARCHCORPUSDATA_H

#include <stddef.h>

/// The bytes of `Corpus/cities.tsv` at build time; `count` receives their number.
const unsigned char *citysearch_cities_tsv(size_t *count);
/// The bytes of `Corpus/polyphones.tsv` at build time; `count` receives their number.
const unsigned char *citysearch_polyphones_tsv(size_t *count);
/// The bytes of `Corpus/traditional.tsv` at build time; `count` receives their number.
const unsigned char *citysearch_traditional_tsv(size_t *count);
/// The bytes of `Corpus/prominence.tsv` at build time; `count` receives their number.
const unsigned char *citysearch_prominence_tsv(size_t *count);
/// The bytes of `Corpus/aliases.tsv` at build time; `count` receives their number.
const unsigned char *citysearch_aliases_tsv(size_t *count);
/// The bytes of `Corpus/double-pinyin.tsv` at build time; `count` receives their number.
const unsigned char *citysearch_double_pinyin_tsv(size_t *count);
/// The bytes of `Corpus/zhuyin-keyboards.tsv` at build time; `count` receives their number.
const unsigned char *citysearch_zhuyin_keyboards_tsv(size_t *count);

#endif
