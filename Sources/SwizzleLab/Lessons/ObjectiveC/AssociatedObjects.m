#import <Foundation/Foundation.h>

void lesson_say(const char *line);  // a line of the lesson's result

@interface Sticker : NSObject
@end
@implementation Sticker
@end

// A category cannot add instance variables: it keeps its state in
// associated objects, under a key whose address is unique, a static
// variable's.
static char kStickerTextKey;

@interface Sticker (Text)
- (NSString *)text;
- (void)setText:(NSString *)text;
@end

@implementation Sticker (Text)
- (NSString *)text {
  return objc_getAssociatedObject(self, &kStickerTextKey);
}

- (void)setText:(NSString *)text {
  objc_setAssociatedObject(self, &kStickerTextKey, text,
                           OBJC_ASSOCIATION_RETAIN_NONATOMIC);
}
@end

static void show(const char *name, Sticker *sticker) {
  char line[64];
  NSString *text = [sticker text];
  snprintf(line, sizeof line, "%s's text: %s", name,
           text ? [text UTF8String] : "(nil)");
  lesson_say(line);
}

void lesson_main(void) {
  Sticker *first = [Sticker new];
  Sticker *second = [Sticker new];
  [first setText:@"3 new"];
  show("first", first);
  show("second", second);
  // A selector works as a key too: @selector(text) and
  // sel_registerName("text") are one selector, so one key.
  objc_setAssociatedObject(second, @selector(text), @"by selector",
                           OBJC_ASSOCIATION_RETAIN);
  NSString *read =
      objc_getAssociatedObject(second, sel_registerName("text"));
  lesson_say([read UTF8String]);
  [first release];
  [second release];
}
