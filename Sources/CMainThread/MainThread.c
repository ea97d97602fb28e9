// The main thread's identity, its loop's wake-ups, and the async main's final drain handed to the
// model (CMainThread.h).
#include "CMainThread.h"

#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

// libdispatch's interface for a run loop that drains the main queue (CoreFoundation's, on Linux
// as on Darwin): an eventfd that becomes readable when the queue gets work, and the drain.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

// The Swift runtime's hook for the last thing an async `main` does (swift_task_asyncMainDrainQueue:
// `dispatch_main()` on Linux). Declared by the runtime with the Swift calling convention; the two
// arguments (the original drain and a compatibility override) are not used.
typedef void(__attribute__((swiftcall)) * swk_drain_hook)(void *original, void *override);
extern swk_drain_hook swift_task_asyncMainDrainQueue_hook;

// In UIKitModel (MainThread.swift): installs the model's main-actor executor, before any task
// runs, and runs the main thread's loop, never returning.
extern void swk_model_prepare_main_thread(void);
extern void swk_model_main_loop(void);

// Hidden: a second copy of the model in a library must not bind to this copy's state.
__attribute__((visibility("hidden"))) pthread_t swk_main_thread;
__attribute__((visibility("hidden"))) bool swk_main_loop_running;
// Written by swk_main_loop_wake when the model's queue gets work; read by the loop's poll.
static int wake_fd = -1;

// Whether the main thread is inside Dispatch's drain: touched by the main thread only.
static bool draining;

void swk_main_queue_drain(void) {
  bool outer = !draining;
  draining = true;
  _dispatch_main_queue_callback_4CF(NULL);
  if (outer) draining = false;
}

bool swk_main_queue_is_draining(void) { return draining; }

void swk_main_loop_wait(void) {
  struct pollfd fds[2] = {
      {.fd = _dispatch_get_main_queue_handle_4CF(), .events = POLLIN},
      {.fd = wake_fd, .events = POLLIN},
  };
  // At most a tenth of a second: should a wake-up be missed (Dispatch writes its eventfd when the
  // queue gets work while empty), the work waits that long, not for ever. A signal (the
  // profilers') may end the wait early too: the loop just looks again.
  (void)poll(fds, 2, 100);
  eventfd_t count;
  // Read (reset) both, so that the next wait waits: work sent after this runs in the next turn,
  // and Dispatch writes its eventfd again for work sent after its drain began.
  if (fds[0].revents & POLLIN) (void)eventfd_read(fds[0].fd, &count);
  if (fds[1].revents & POLLIN) (void)eventfd_read(fds[1].fd, &count);
}

void swk_main_loop_wake(void) {
  if (wake_fd >= 0) (void)eventfd_write(wake_fd, 1);
}

static void __attribute__((swiftcall)) drain_on_the_model_loop(void *original, void *override) {
  (void)original;
  (void)override;
  __atomic_store_n(&swk_main_loop_running, true, __ATOMIC_RELEASE);
  swk_model_main_loop();
  abort();  // The loop never returns: the process exits from the main task.
}

__attribute__((constructor)) static void swk_main_thread_start(void) {
  // Only the first copy, loaded with the process on its main thread, takes the main thread: a
  // library that carries a second copy of the model (which the loader refuses, after the fact)
  // and is opened later, from any thread, must not replace the executor or the loop.
  if (swift_task_asyncMainDrainQueue_hook != NULL || getpid() != (pid_t)syscall(SYS_gettid)) {
    return;
  }
  swk_main_thread = pthread_self();
  wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  // Without a wake-up descriptor the loop could not wait for the model's queue: Dispatch's
  // `dispatch_main()` stays, and the model drains nothing on the main thread.
  if (wake_fd < 0) return;
  swk_model_prepare_main_thread();
  swift_task_asyncMainDrainQueue_hook = drain_on_the_model_loop;
}
