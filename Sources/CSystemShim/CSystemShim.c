#define _GNU_SOURCE
#include "CSystemShim.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
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
