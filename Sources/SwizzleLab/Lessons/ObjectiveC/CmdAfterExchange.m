#import <Foundation/Foundation.h>

void lesson_say(const char *line);  // a line of the lesson's result

@interface Caption : NSObject
- (long)tag;
- (void)setTag:(long)tag;
@end

@implementation Caption
// The getter keys its value by _cmd; the setter stores under
// @selector(tag): the same key, as long as nothing is exchanged.
- (long)tag {
  lesson_say(sel_getName(_cmd));
  return [objc_getAssociatedObject(self, _cmd) longValue];
}

- (void)setTag:(long)tag {
  objc_setAssociatedObject(self, @selector(tag),
                           [NSNumber numberWithLong:tag],
                           OBJC_ASSOCIATION_RETAIN_NONATOMIC);
}
@end

@implementation Caption (Logging)
- (long)logging_tag {
  lesson_say("logging_tag logs, then sends logging_tag");
  return [self logging_tag];
}
@end

void lesson_main(void) {
  char line[64];
  Caption *caption = [Caption new];
  [caption setTag:7];
  snprintf(line, sizeof line, "tag is %ld", [caption tag]);
  lesson_say(line);
  Class cls = [Caption class];
  method_exchangeImplementations(
      class_getInstanceMethod(cls, @selector(tag)),
      class_getInstanceMethod(cls, @selector(logging_tag)));
  snprintf(line, sizeof line, "after the exchange, tag is %ld",
           [caption tag]);
  lesson_say(line);
  [caption release];
}
