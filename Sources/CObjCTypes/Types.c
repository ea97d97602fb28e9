// CObjCTypes is a header: `id` and `SEL`. SwiftPM builds a C target from at least one source.
#include "CObjCTypes.h"

_Static_assert(sizeof(id) == sizeof(void *), "id is a pointer");
_Static_assert(sizeof(SEL) == sizeof(void *), "SEL is a pointer");
