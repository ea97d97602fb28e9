// The slow paths of the runtime's lock: sleeping on the futex and waking a sleeper.
#include "CObjCRuntime.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void swk_lock_wait(swk_lock *lock) {
  // Announce a waiter (state 2), then sleep until the holder's release wakes us; retry the
  // exchange on every wake-up, since another thread may have taken the lock first.
  while (__atomic_exchange_n(&lock->state, 2, __ATOMIC_ACQUIRE) != 0) {
    syscall(SYS_futex, &lock->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
  }
}

void swk_lock_wake(swk_lock *lock) {
  syscall(SYS_futex, &lock->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

swk_lock swk_association_lock = {0};
intptr_t swk_association_live_count = 0;
