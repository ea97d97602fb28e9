// The process's main thread for the UIKit model: who it is, the loop it runs in a test process,
// and Dispatch's main queue drained from it. Only UIKitModel imports it, without re-exporting it.
//
// On iOS the main thread runs the main run loop, which drains Dispatch's main queue once a turn,
// and UIKit runs on it. In a Linux process whose `main` is async (a `swift test` process), the
// Swift runtime ends `main` in `dispatch_main()`: the main thread parks, and a worker thread
// drains the main queue from then on, inside Dispatch's own callback, which does not let itself
// be entered again. The model could then neither run on the main thread nor drain the queue at
// the end of a frame. This module keeps the main thread: before `main` runs, a constructor
// installs the runtime's hook for the async main's final drain, so that the main thread runs the
// model's loop (`swk_model_main_loop`, in UIKitModel) instead of `dispatch_main()`.
#ifndef CMAINTHREAD_H
#define CMAINTHREAD_H

#include <pthread.h>
#include <stdbool.h>

/// The process's main thread: the one that ran the constructors.
extern pthread_t swk_main_thread;

/// Whether the calling thread is the process's main thread. Inline: the run loop asks at the end
/// of every frame.
static inline bool swk_is_main_thread(void) {
  return pthread_equal(pthread_self(), swk_main_thread) != 0;
}

/// Set once, before the main thread's loop starts; read with acquire ordering.
extern bool swk_main_loop_running;

/// Whether the main thread runs the model's loop: true once the async main handed its final drain
/// to it (a `swift test` process), false in a process whose `main` is synchronous (the lab).
static inline bool swk_main_loop_is_running(void) {
  return __atomic_load_n(&swk_main_loop_running, __ATOMIC_ACQUIRE);
}

/// Runs the work on Dispatch's main queue sent before the call, in order, on the calling thread,
/// which must be the main thread. Work sent meanwhile waits for the next call. Does nothing when
/// called from inside that work (Dispatch's drain is not re-entrant).
void swk_main_queue_drain(void);

/// Whether the main thread is inside `swk_main_queue_drain()` (running work of Dispatch's main
/// queue), where a nested drain does nothing.
bool swk_main_queue_is_draining(void);

/// Waits, on the main thread's loop, until Dispatch's main queue has work or
/// `swk_main_loop_wake()` was called, or a tenth of a second passed.
void swk_main_loop_wait(void);

/// Wakes the main thread's loop: the model's main-actor queue has work.
void swk_main_loop_wake(void);

#endif
