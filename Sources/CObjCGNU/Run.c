// Running the compiler: posix_spawnp with standard output and error in one pipe, read to the end.
// (Foundation's Process costs tens of milliseconds a run here; a compile runs five tools.)
#define _GNU_SOURCE
#include "CObjCGNU.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int swk_gnu_run(char *const arguments[], char **output, int *status) {
  *output = NULL;
  *status = -1;
  // Close-on-exec: a tool another thread starts meanwhile must not inherit the write end, or
  // the read below would wait for that tool too.
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0) {
    return errno;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[1]);
  pid_t child;
  int failure = posix_spawnp(&child, arguments[0], &actions, NULL, arguments, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_ends[1]);
  if (failure != 0) {
    close(pipe_ends[0]);
    return failure;
  }
  size_t capacity = 4096, length = 0;
  char *text = malloc(capacity);
  for (;;) {
    if (text == NULL) {
      break;
    }
    if (length + 1 == capacity) {
      char *grown = realloc(text, capacity * 2);
      if (grown == NULL) {
        break;
      }
      text = grown;
      capacity *= 2;
    }
    ssize_t got = read(pipe_ends[0], text + length, capacity - length - 1);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break;
    }
    length += (size_t)got;
  }
  close(pipe_ends[0]);
  if (text != NULL) {
    text[length] = '\0';
  }
  *output = text;
  int wait_status = 0;
  while (waitpid(child, &wait_status, 0) < 0) {
    if (errno != EINTR) {
      return errno;
    }
  }
  *status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
  return 0;
}
