#define _GNU_SOURCE
#include "CSystemShim.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CSYSTEMSHIM_HAS_CALLGRIND 1
#endif
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/fs.h>
#endif

int64_t CSystemShim_heapInUse(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
#else
  return -1;
#endif
}

int CSystemShim_exchangePaths(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2) && defined(RENAME_EXCHANGE)
  return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
#else
  (void)first;
  (void)second;
  errno = ENOSYS;
  return -1;
#endif
}

#if defined(CSYSTEMSHIM_HAS_CALLGRIND)
int CSystemShim_callgrindCompiledIn(void) { return 1; }
int CSystemShim_runningOnValgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void CSystemShim_callgrindStartInstrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
void CSystemShim_callgrindZero(void) { CALLGRIND_ZERO_STATS; }
void CSystemShim_callgrindToggleCollect(void) { CALLGRIND_TOGGLE_COLLECT; }
void CSystemShim_callgrindDump(void) { CALLGRIND_DUMP_STATS; }
#else
int CSystemShim_callgrindCompiledIn(void) { return 0; }
int CSystemShim_runningOnValgrind(void) { return 0; }
void CSystemShim_callgrindStartInstrumentation(void) {}
void CSystemShim_callgrindZero(void) {}
void CSystemShim_callgrindToggleCollect(void) {}
void CSystemShim_callgrindDump(void) {}
#endif
