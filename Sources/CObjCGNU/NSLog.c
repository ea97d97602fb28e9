// NSLog for Objective-C compiled by gcc: the format is an NSString, `%@` prints an object's
// description; the other conversions are C's. The line goes to standard error, as Foundation's.
#include "CObjCGNU.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void *objc_msg_lookup(void *receiver, const swk_gnu_selector *selector);
const void *sel_registerName(const char *name);

typedef const char *(*swk_gnu_text_function)(void *, const void *);
typedef void *(*swk_gnu_object_function)(void *, const void *);
typedef void (*swk_gnu_void_function)(void *, const void *);

/// Sends `name` to `object` and returns the function's result, through the entry points gcc's
/// code uses (a selector already registered, so no stub is involved).
static void *swk_gnu_send(void *object, const char *name) {
  const void *selector = sel_registerName(name);
  void *function = objc_msg_lookup(object, selector);
  return ((swk_gnu_object_function)function)(object, selector);
}

/// Appends `text` to the line, keeping it NUL-terminated and within `capacity`.
static void swk_gnu_append(char *line, size_t capacity, const char *text) {
  size_t used = strlen(line);
  if (used + 1 < capacity) {
    snprintf(line + used, capacity - used, "%s", text);
  }
}

/// Appends an object's description (its UTF8String), or "(null)".
static void swk_gnu_append_object(char *line, size_t capacity, void *object) {
  if (object == NULL) {
    swk_gnu_append(line, capacity, "(null)");
    return;
  }
  void *description = swk_gnu_send(object, "description");
  const char *text = description != NULL ? swk_gnu_send(description, "UTF8String") : NULL;
  swk_gnu_append(line, capacity, text != NULL ? text : "(null)");
  if (description != NULL) {
    // The description came retained, as SwizzleKit returns objects.
    const void *selector = sel_registerName("release");
    ((swk_gnu_void_function)objc_msg_lookup(description, selector))(description, selector);
  }
}

void NSLog(void *format, ...) {
  char line[4096] = "";
  const char *text = format != NULL ? swk_gnu_send(format, "UTF8String") : NULL;
  if (text == NULL) {
    fprintf(stderr, "(null)\n");
    return;
  }
  va_list arguments;
  va_start(arguments, format);
  for (const char *cursor = text; *cursor != '\0'; cursor++) {
    if (*cursor != '%') {
      char single[2] = {*cursor, '\0'};
      swk_gnu_append(line, sizeof line, single);
      continue;
    }
    // One conversion: %, flags, width, precision, length, then the conversion character.
    char spec[32] = "%";
    size_t length = 1;
    const char *start = cursor++;
    while (*cursor != '\0' && strchr("-+ #0123456789.*hlLqjzt", *cursor) != NULL
           && length + 2 < sizeof spec) {
      spec[length++] = *cursor++;
    }
    if (*cursor == '\0') {
      swk_gnu_append(line, sizeof line, start);
      break;
    }
    char conversion = *cursor;
    spec[length++] = conversion;
    spec[length] = '\0';
    char piece[1024] = "";
    // The argument's size: l, ll, q, z, j and t make a 64-bit integer, L a long double. A `*`
    // width or precision takes an int argument first, written into the spec in its place.
    int longs = 0, long_double = 0;
    char resolved[64] = "";
    size_t used = 0;
    for (size_t index = 0; index < length && used + 12 < sizeof resolved; index++) {
      char c = spec[index];
      longs += c == 'l' || c == 'q' || c == 'z' || c == 'j' || c == 't';
      long_double |= c == 'L';
      if (c == '*') {
        used += (size_t)snprintf(resolved + used, sizeof resolved - used, "%d",
                                 va_arg(arguments, int));
      } else {
        resolved[used++] = c;
        resolved[used] = '\0';
      }
    }
    // snprintf gets the C99 length modifiers it knows; q is BSD's ll.
    for (char *q = resolved; *q != '\0'; q++) {
      if (*q == 'q') *q = 'l';
    }
    const char *format_piece = resolved;
    switch (conversion) {
    case '@':
      swk_gnu_append_object(line, sizeof line, va_arg(arguments, void *));
      continue;
    case '%':
      swk_gnu_append(line, sizeof line, "%");
      continue;
    case 'd': case 'i': case 'c':
      if (longs > 0) snprintf(piece, sizeof piece, format_piece, va_arg(arguments, long));
      else snprintf(piece, sizeof piece, format_piece, va_arg(arguments, int));
      break;
    case 'u': case 'x': case 'X': case 'o':
      if (longs > 0) snprintf(piece, sizeof piece, format_piece, va_arg(arguments, unsigned long));
      else snprintf(piece, sizeof piece, format_piece, va_arg(arguments, unsigned int));
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      if (long_double) snprintf(piece, sizeof piece, format_piece, va_arg(arguments, long double));
      else snprintf(piece, sizeof piece, format_piece, va_arg(arguments, double));
      break;
    case 's':
      snprintf(piece, sizeof piece, format_piece, va_arg(arguments, const char *));
      break;
    case 'p':
      snprintf(piece, sizeof piece, format_piece, va_arg(arguments, void *));
      break;
    default:
      // A conversion this NSLog does not know: shown as written, its argument left alone.
      snprintf(piece, sizeof piece, "%s", spec);
      break;
    }
    swk_gnu_append(line, sizeof line, piece);
  }
  va_end(arguments);
  fprintf(stderr, "%s\n", line);
}
