#define _GNU_SOURCE
#include "CSystemShim.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

static atomic_int interruptRequested = 0;
static char interruptMessage[512];
static size_t interruptMessageLength = 0;

/// Only async-signal-safe calls: an atomic store, write(2) and sigaction(2).
static void CSystemShim_onInterrupt(int signal) {
  int savedErrno = errno;
  atomic_store(&interruptRequested, 1);
  if (interruptMessageLength > 0) {
    ssize_t ignored = write(STDERR_FILENO, interruptMessage, interruptMessageLength);
    (void)ignored;
  }
  struct sigaction fallback;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, NULL);
  errno = savedErrno;
}

int CSystemShim_watchInterrupts(const char *message) {
  size_t length = strlen(message);
  if (length > sizeof interruptMessage - 1) length = sizeof interruptMessage - 1;
  memcpy(interruptMessage, message, length);
  interruptMessageLength = length;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = CSystemShim_onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  return sigaction(SIGINT, &action, NULL);
}

int CSystemShim_interruptRequested(void) { return atomic_load(&interruptRequested); }

// The allocation counter: this shim defines the C library's allocation entry points, so that
// every allocation of the process (Swift's runtime and Foundation call malloc too) passes
// through a thread-local count on its way to glibc's own allocator (its exported __libc_*
// functions). free, malloc_usable_size and the rest stay glibc's: every block still comes
// from glibc's allocator. Elsewhere the count stays 0.
#if defined(__GLIBC__) && defined(__linux__)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread uint64_t allocationCount;

uint64_t CSystemShim_allocationCount(void) { return allocationCount; }
int CSystemShim_allocationCountingCompiledIn(void) { return 1; }

void *malloc(size_t size) {
  allocationCount++;
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  allocationCount++;
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  allocationCount++;
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  allocationCount++;
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  allocationCount++;
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  // As glibc: a power of two that is a multiple of sizeof(void *), or EINVAL.
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
  allocationCount++;
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}
#else
uint64_t CSystemShim_allocationCount(void) { return 0; }
int CSystemShim_allocationCountingCompiledIn(void) { return 0; }
#endif
