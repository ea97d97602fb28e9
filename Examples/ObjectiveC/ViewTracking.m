// The classic swizzle, as NSHipster teaches it: a category whose +load exchanges
// -viewWillAppear: with its own method, which then calls "itself" to reach the original.
// Compile and load it on SwizzleKit's runtime with the lab:
//
//   swift run swizzle-lab compile Examples/ObjectiveC/ViewTracking.m
//   swift run swizzle-lab trace push --objc Examples/ObjectiveC/ViewTracking.m --filter viewWillAppear:
#import <UIKit/UIKit.h>
#include <stdio.h>

@implementation UIViewController (Tracking)

+ (void)load {
  Method original = class_getInstanceMethod(self, @selector(viewWillAppear:));
  Method swizzled = class_getInstanceMethod(self, @selector(tracking_viewWillAppear:));
  method_exchangeImplementations(original, swizzled);
}

- (void)tracking_viewWillAppear:(BOOL)animated {
  // After the exchange this name holds the original implementation.
  [self tracking_viewWillAppear:animated];
  // _cmd is the selector the send used: viewWillAppear:, not tracking_viewWillAppear:.
  printf("tracked %s (%s)\n", object_getClassName(self), sel_getName(_cmd));
  fflush(stdout);
}

@end
