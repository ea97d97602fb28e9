/* The GNU Objective-C runtime side of swizzle-bench: the same operations, measured the same way
   (callgrind, the difference of two iteration counts). Built by swizzle-bench with
   `gcc -std=gnu11 -O2 peer.m -lobjc` when Debian's gobjc is installed; usage: peer --run CASE N. */
#include <objc/runtime.h>
#include <objc/message.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static long send_loop (id target, long count)
{
  long sum = 0;
  for (long value = 0; value < count; value++)
    sum += [target increment: value];
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
  for (long index = 0; index < count; index++)
    method_exchangeImplementations (first, second);
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
  for (long index = 0; index < count; index++)
    {
      snprintf (name, sizeof name, "added%ld:", index);
      added += class_addMethod (cls, sel_registerName (name), imp, "q@:q");
    }
  return added;
}

int main (int argc, char **argv)
{
  if (argc != 4 || strcmp (argv[1], "--run") != 0)
    {
      fprintf (stderr, "usage: peer --run CASE N\n");
      return 64;
    }
  const char *name = argv[2];
  long count = atol (argv[3]);
  long result = 0;
  if (strcmp (name, "cached-send") == 0)
    result = send_loop ([BenchTarget new], count);
  else if (strcmp (name, "send-after-exchange") == 0)
    {
      Class cls = objc_getClass ("BenchTarget");
      method_exchangeImplementations (class_getInstanceMethod (cls, @selector (increment:)),
                                      class_getInstanceMethod (cls, @selector (decrement:)));
      result = send_loop ([BenchTarget new], count);
    }
  else if (strcmp (name, "exchange-10-classes") == 0)
    result = exchange_loop (10, count);
  else if (strcmp (name, "exchange-1000-classes") == 0)
    result = exchange_loop (1000, count);
  else if (strcmp (name, "exchange-10000-classes") == 0)
    result = exchange_loop (10000, count);
  else if (strcmp (name, "add-method") == 0)
    result = add_loop (count);
  else
    {
      fprintf (stderr, "peer: no case %s\n", name);
      return 64;
    }
  printf ("checksum %ld\n", result);
  return 0;
}
