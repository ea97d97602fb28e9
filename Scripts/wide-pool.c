// A preloaded shim that makes a process believe it has more processors than the machine gives
// it, so that Swift's cooperative thread pool (and libdispatch's) is as wide as on a large CI
// machine. Built and preloaded by .ci/run for the ThreadSanitizer run of the test suite:
//
//   gcc -shared -fPIC -O2 -o libwidepool.so Scripts/wide-pool.c
//   LD_PRELOAD=$PWD/libwidepool.so .build-tsan/debug/SwizzleKitPackageTests.xctest
//     --testing-library swift-testing        (one command line)
//
// Why: ThreadSanitizer sees a race only between accesses that nothing orders. On a 2-core
// machine the pool has two threads, and two tests that share state mostly take turns on them,
// which orders their accesses through the pool's own synchronization: the race stays invisible
// until a machine with more cores runs the suite. SWIZZLEKIT_WIDE_POOL sets the count (default
// 8). Only the processor count is changed; nothing else is faked.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

static int wide_count(void) {
  const char *text = getenv("SWIZZLEKIT_WIDE_POOL");
  int count = text != NULL ? atoi(text) : 8;
  if (count < 1) return 1;
  if (count > CPU_SETSIZE) return CPU_SETSIZE;
  return count;
}

static void fill(size_t size, cpu_set_t *set) {
  memset(set, 0, size);
  int count = wide_count();
  for (int cpu = 0; cpu < count && (size_t)cpu < size * 8; cpu++) CPU_SET_S(cpu, size, set);
}

// libdispatch sizes its pools from the calling thread's affinity mask.
int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *set) {
  (void)thread;
  fill(size, set);
  return 0;
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set) {
  (void)pid;
  fill(size, set);
  return 0;
}

long sysconf(int name) {
  static long (*real)(int) = NULL;
  if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) return wide_count();
  if (real == NULL) real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
  return real(name);
}

int get_nprocs(void) { return wide_count(); }

int get_nprocs_conf(void) { return wide_count(); }
