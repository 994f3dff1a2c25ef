// System SQLite (Debian: libsqlite3-dev), used only by the CitySearchSQLite module.
#include <sqlite3.h>
