#import <Foundation/Foundation.h>

void lesson_say(const char *line);  // a line of the lesson's result

@interface Concierge : NSObject
- (void)greet;
@end

@implementation Concierge
- (void)greet {
  lesson_say("  -greet's code: hello");
}
@end

@implementation Concierge (Logging)
// Runs once, as the file is loaded, before anyone can send greet.
+ (void)load {
  Method original = class_getInstanceMethod(self, @selector(greet));
  Method swizzled =
      class_getInstanceMethod(self, @selector(logging_greet));
  method_exchangeImplementations(original, swizzled);
}

- (void)logging_greet {
  lesson_say("  -logging_greet's code: before");
  [self logging_greet];  // the original -greet, since the exchange
  lesson_say("  -logging_greet's code: after");
}
@end

void lesson_main(void) {
  Concierge *concierge = [Concierge new];
  lesson_say("[concierge greet]");
  [concierge greet];
  [concierge release];
}
