/* The GNU Objective-C runtime side of swizzle-bench: the same operations, measured the same ways
   (callgrind over the difference of two iteration counts, or the clock around the loop). Built by
   `build-peer.sh` beside this file (gcc's Objective-C, Debian's gobjc). Usage:
     peer --run CASE N    run the case N times, print a checksum (what callgrind counts)
     peer --time CASE N   the same, then print the nanoseconds of its loop (set-up left out)
   The case names are swizzle-bench's. Not part of the Swift build (Package.swift excludes it). */
#include <objc/runtime.h>
#include <objc/message.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__attribute__ ((objc_root_class))
@interface BenchTarget
{
  Class isa;
}
+ (id) new;
- (long) increment: (long)value;
- (long) decrement: (long)value;
@end

@implementation BenchTarget
+ (id) new { return class_createInstance (self, 0); }
- (long) increment: (long)value { return value + 1; }
- (long) decrement: (long)value { return value - 1; }
@end

/* The wall time of the last measured loop, which --time prints: set-up is left out. */
static long long loop_ns;

static long long now_ns (void)
{
  struct timespec time;
  clock_gettime (CLOCK_MONOTONIC, &time);
  return (long long)time.tv_sec * 1000000000LL + time.tv_nsec;
}

#define TIMED_LOOP(loop)                   \
  do                                       \
    {                                      \
      long long loop_start = now_ns ();    \
      loop;                                \
      loop_ns = now_ns () - loop_start;    \
    }                                      \
  while (0)

static long send_loop (id target, long count)
{
  long sum = 0;
  TIMED_LOOP (for (long value = 0; value < count; value++) sum += [target increment: value]);
  return sum;
}

/* The floor: the IMP called through a C function pointer, without a send. */
static long direct_loop (id target, long count)
{
  SEL selector = @selector (increment:);
  long (*function) (id, SEL, long)
    = (long (*) (id, SEL, long)) class_getMethodImplementation (object_getClass (target), selector);
  long sum = 0;
  TIMED_LOOP (for (long value = 0; value < count; value++) sum += function (target, selector, value));
  return sum;
}

static long exchange_loop (int live_classes, long count)
{
  char name[64];
  for (int index = 0; index < live_classes; index++)
    {
      snprintf (name, sizeof name, "PeerLive%d", index);
      Class cls = objc_allocateClassPair (objc_getClass ("BenchTarget"), name, 0);
      objc_registerClassPair (cls);
      id object = class_createInstance (cls, 0);
      [object increment: 1]; /* fill its dispatch table, as a used class has */
    }
  Class cls = objc_getClass ("BenchTarget");
  Method first = class_getInstanceMethod (cls, @selector (increment:));
  Method second = class_getInstanceMethod (cls, @selector (decrement:));
  TIMED_LOOP (for (long index = 0; index < count; index++)
                method_exchangeImplementations (first, second));
  return (long)method_getImplementation (first) & 1;
}

static long add_loop (long count)
{
  char name[64];
  Class cls = objc_allocateClassPair (objc_getClass ("BenchTarget"), "PeerAddHost", 0);
  objc_registerClassPair (cls);
  id object = class_createInstance (cls, 0);
  [object increment: 1];
  IMP imp = method_getImplementation (class_getInstanceMethod (cls, @selector (increment:)));
  long added = 0;
  /* 4,000 selectors whatever the count, as swizzle-bench makes them: the callgrind difference
     of two counts then holds the adds alone. */
  long registered = count > 4000 ? count : 4000;
  SEL *selectors = malloc (sizeof (SEL) * registered);
  for (long index = 0; index < registered; index++)
    {
      snprintf (name, sizeof name, "added%ld:", index);
      selectors[index] = sel_registerName (name);
    }
  TIMED_LOOP (for (long index = 0; index < count; index++)
                added += class_addMethod (cls, selectors[index], imp, "q@:q"));
  free (selectors);
  return added;
}

/* class_replaceMethod on a live class, alternating two IMPs so every call changes the method. */
static long replace_loop (long count)
{
  Class cls = objc_allocateClassPair (objc_getClass ("BenchTarget"), "PeerReplaceHost", 0);
  objc_registerClassPair (cls);
  id object = class_createInstance (cls, 0);
  [object increment: 1];
  IMP imps[2] = {
    method_getImplementation (class_getInstanceMethod (cls, @selector (increment:))),
    method_getImplementation (class_getInstanceMethod (cls, @selector (decrement:))),
  };
  long changed = 0;
  TIMED_LOOP (for (long index = 0; index < count; index++) changed
              += class_replaceMethod (cls, @selector (increment:), imps[index & 1], "q@:q") != 0);
  return changed;
}

static long run_case (const char *name, long count, int *found)
{
  long result = 0;
  *found = 1;
  if (strcmp (name, "direct-call") == 0)
    result = direct_loop ([BenchTarget new], count);
  else if (strcmp (name, "cached-send") == 0)
    result = send_loop ([BenchTarget new], count);
  else if (strcmp (name, "send-after-exchange") == 0)
    {
      Class cls = objc_getClass ("BenchTarget");
      method_exchangeImplementations (class_getInstanceMethod (cls, @selector (increment:)),
                                      class_getInstanceMethod (cls, @selector (decrement:)));
      result = send_loop ([BenchTarget new], count);
    }
  else if (strcmp (name, "exchange-0-classes") == 0)
    result = exchange_loop (0, count);
  else if (strcmp (name, "exchange-10-classes") == 0)
    result = exchange_loop (10, count);
  else if (strcmp (name, "exchange-1000-classes") == 0)
    result = exchange_loop (1000, count);
  else if (strcmp (name, "exchange-10000-classes") == 0)
    result = exchange_loop (10000, count);
  else if (strcmp (name, "add-method") == 0)
    result = add_loop (count);
  else if (strcmp (name, "replace-method") == 0)
    result = replace_loop (count);
  else
    *found = 0;
  return result;
}

int main (int argc, char **argv)
{
  int timed = argc == 4 && strcmp (argv[1], "--time") == 0;
  if (argc != 4 || (!timed && strcmp (argv[1], "--run") != 0))
    {
      fprintf (stderr, "usage: peer --run CASE N | peer --time CASE N\n");
      return 64;
    }
  int found;
  long result = run_case (argv[2], atol (argv[3]), &found);
  if (!found)
    {
      fprintf (stderr, "peer: no case %s\n", argv[2]);
      return 64;
    }
  printf ("checksum %ld\n", result);
  if (timed)
    printf ("%lld\n", loop_ns);
  return 0;
}
