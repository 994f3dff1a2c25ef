#define _GNU_SOURCE
#include "CSystemShim.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#if defined(__GLIBC__)
#include <malloc.h>
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
