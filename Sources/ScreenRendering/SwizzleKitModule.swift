// The marker of one of SwizzleKit's modules, for the detection of a second copy.

/// Marks this module as one of SwizzleKit's. A library loaded into a process that defines this
/// type in a module of the same name carries a second copy of SwizzleKit, which discovery
/// refuses (`Docs/Plugins.md`, "A loadable library"). It has no other use.
public enum SwizzleKitModule {}
