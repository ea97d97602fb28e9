// The lab's help: one text per command, in swift-argument-parser's layout, and the overview.

/// The help texts.
enum Usage {
  /// The commands, as the overview lists them.
  static let commands =
    "list, run, trace, hooks, render, export, matrix, gallery, methods, shadows, learn, coexist,"
    + " load, compile"

  static func text(for topic: String) -> String {
    switch topic {
    case "run":
      return """
        OVERVIEW: Runs a scenario and shows the bar at each step.

        USAGE: swizzle-lab run SCENARIO [--plugin NAME[,NAME...]] [--device NAME]
                                        [--ios VERSION] [--sdk VERSION] [--speed SECONDS]
                                        [--no-color] [--load PATH] [--objc FILE.m]

        OPTIONS:
          --plugin NAMES    The plugins to run with, in order (see 'swizzle-lab list'), or
                            none; default: the plugin that brings the scenario.
          --device NAME     The device (see 'swizzle-lab list'); default iPhone 8.
          --ios VERSION     An iOS profile (10, 11, 12, 13, 15/sdk14, 15, 17, 18, 26: 10 runs
                            10.3, the others x.0) or an exact system version such as 14.2;
                            default 13.
          --sdk VERSION     The SDK the app was built with (14 or 14.2), no newer than --ios;
                            default the running version's (iOS 15's look at the scroll edge
                            comes only with the iOS 15 SDK).
          --speed SECONDS   Real seconds to wait between steps, 0 to 60; default 0.
          --no-color        Plain text even on a terminal (NO_COLOR is respected too).
          --load PATH       Load a plugin library first (repeatable).
          --objc FILE.m     Compile an Objective-C file with gcc and load it first
                            (repeatable; see 'swizzle-lab compile').
          -h, --help        Show help information.

        """
    case "trace":
      return """
        OVERVIEW: Runs a scenario and prints every runtime event with its virtual time.

        USAGE: swizzle-lab trace SCENARIO [--filter SELECTOR] [--plugin NAME[,NAME...]]
                                          [--device NAME] [--ios VERSION] [--sdk VERSION]
                                          [--load PATH] [--objc FILE.m]

        OPTIONS:
          --filter SELECTOR  Only the events that name SELECTOR.
          (and the options of 'run')
          -h, --help         Show help information.

        """
    case "hooks":
      return """
        OVERVIEW: Installs plugins and prints the hook map, with conflicts; with --scenario,
        runs the scenario and lists the hooks that never fired in the run.

        USAGE: swizzle-lab hooks [--plugin NAME[,NAME...]] [--scenario NAME] [--load PATH]
                                 [--objc FILE.m]

        OPTIONS:
          --plugin NAMES  The plugins to install, in order; default: every plugin (with
                          --scenario, the plugin that brings the scenario).
          --scenario NAME Run this scenario with the plugins, then print the map and the
                          hooks no call reached.
          --load PATH     Load a plugin library first (repeatable).
          --objc FILE.m   Compile an Objective-C file and load it first (repeatable).
          -h, --help      Show help information.

        """
    case "render":
      return """
        OVERVIEW: Runs a scenario and writes an HTML report and its data as JSON.

        USAGE: swizzle-lab render SCENARIO --out DIR [--plugin NAME[,NAME...]]
                                           [--device NAME] [--ios VERSION] [--sdk VERSION]
                                           [--load PATH] [--objc FILE.m]

        OPTIONS:
          --out DIR     Where report.html and report.json go (made if needed).
          (and the options of 'run')
          -h, --help    Show help information.

        """
    case "export":
      return """
        OVERVIEW: Writes a scenario run as a test a maintainer can run: a Swift Testing file,
        its golden timeline and each moment's image snapshot, laid out as the testing library
        reads them (Docs/Testing.md).

        USAGE: swizzle-lab export SCENARIO --out DIR [--plugin NAME[,NAME...]]
                                           [--device NAME] [--ios VERSION] [--sdk VERSION]
                                           [--load PATH]

        OPTIONS:
          --out DIR     Where the test file, Golden/ and __Snapshots__/ go (made if needed;
                        an existing test or golden is never replaced).
          (and the options of 'run' but --speed and --no-color)
          -h, --help    Show help information.

        """
    case "compile":
      return """
        OVERVIEW: Compiles Objective-C files with gcc for the GNU runtime, loads them on
        SwizzleKit's runtime, and lists what each brought: its classes and categories, the
        +load methods run and what they exchanged.

        USAGE: swizzle-lab compile FILE.m...

        The files import <UIKit/UIKit.h>, <Foundation/Foundation.h> or <objc/runtime.h> as on
        Apple platforms: the headers are generated from the model's method tables. Needs gcc's
        Objective-C front end (apt-get install -y gobjc); nothing is installed for you. To run
        a scenario with the files loaded, pass --objc FILE.m to run, trace, hooks, render,
        matrix or methods. See Docs/ObjectiveC.md.

        """
    case "load":
      return """
        OVERVIEW: Loads a plugin library and lists the plugins and scenarios it brings.

        USAGE: swizzle-lab load PATH

        The library must be built against the SwizzleKit library product, so that it uses
        the lab's copy of SwizzleKit (see Docs/Plugins.md). To run what it brings, pass
        --load PATH to run, trace, hooks, render or list.

        """
    case "matrix":
      return """
        OVERVIEW: Runs every scenario of the chosen plugins on every device and iOS profile
        (10, 11, 12, 13, 15/sdk14, 15, 17, 18, 26; 15/sdk14 is iOS 15 running an app built with
        the iOS 14 SDK) against the checks the scenarios make, and prints a table:
        ok (every check held), xfail (the technique breaks there, as the scenario says),
        FAIL (a check did not come out as expected; the first is listed below the table).
        Exits with 1 when a cell fails.

        USAGE: swizzle-lab matrix [--plugin NAME[,NAME...]] [--scenario NAME[,NAME...]]
                                  [--device NAME]... [--out DIR] [--load PATH]
                                  [--objc FILE.m]

        OPTIONS:
          --plugin NAMES    The plugins whose scenarios run; default every plugin's.
          --scenario NAMES  These scenarios only.
          --device NAME     A device (repeatable); default iPhone 8, iPhone X, iPad Air.
          --out DIR         Also write DIR/matrix.html, each cell linking to its report.
          --load PATH       Load a plugin library first (repeatable).
          --objc FILE.m     Compile an Objective-C file and load it first (repeatable).
          -h, --help        Show help information.

        """
    case "methods":
      return """
        OVERVIEW: Lists the methods of a class's table: each selector with its encoding and the
        class that implements it, and the hooks and swizzles on it.

        USAGE: swizzle-lab methods CLASS [--plugin NAME[,NAME...]] [--load PATH]
                                         [--objc FILE.m]

        OPTIONS:
          --plugin NAMES  Plugins to install first, so that their hooks show.
          --load PATH     Load a plugin library first (repeatable).
          --objc FILE.m   Compile an Objective-C file and load it first (repeatable).
          -h, --help      Show help information.

        """
    case "shadows":
      return """
        OVERVIEW: Reads Swift files and lists the methods of their extensions that never run:
        a method declared in an extension of a model class under the name of a method of the
        runtime's tables (navigationBar(_:shouldPop:) for navigationBar:shouldPopItem:) is
        what UIKit would call on iOS, and is never called here, where sends reach the table.
        Hook or replace the selector instead (Docs/Porting.md). Exits with 1 when it finds one.

        USAGE: swizzle-lab shadows FILE...

        OPTIONS:
          -h, --help  Show help information.

        """
    case "learn":
      return """
        OVERVIEW: Lessons that run: a few lines on how swizzling works, the code (as the
        source that runs it holds it), the runtime's trace of what happened, and what to
        remember. With no name, lists the lessons.

        USAGE: swizzle-lab learn [NAME] [--html FILE]

        OPTIONS:
          --html FILE  Write the lesson as a page to FILE instead.
          -h, --help   Show help information.

        """
    case "coexist":
      return """
        OVERVIEW: Pairs swizzling techniques on one method, each pair in both orders: installs
        both, calls the method, reverts each (in both orders), and prints what ran, in which
        order, with which _cmd, and what each revert left; then the same for a class and its
        subclass. Each cell runs in a child process, so that a crash is a cell's result.
        Techniques: exchange, safe, override, lookup, hook, object-hook, kvo, aspects, checker.

        USAGE: swizzle-lab coexist [METHOD] [--technique NAME[,NAME...]] [--html FILE]
               swizzle-lab coexist [METHOD] --cell FIRST,SECOND [--subclass]
                                   [--revert first|second]

        ARGUMENTS:
          METHOD            setTag: (an integer; the default) or setText: (an object).

        OPTIONS:
          --technique NAMES  Pair these techniques only (at least two; repeatable).
          --html FILE        Also write the tables as a page, each cell with its steps and
                             the runtime's events.
          --cell A,B         Run one cell here and print its steps and events: A installed
                             first, then B (what each child process of the matrix runs).
          --subclass         With --cell: A on the class Base, B on its subclass Sub.
          --revert WHICH     With --cell: revert the first (default) or the second first.
          -h, --help         Show help information.

        """
    case "gallery":
      return """
        OVERVIEW: Breakages users reported against navigation-bar libraries, each reproduced by
        a plugin's scenario: with no NAME, lists them with their sources; with one, tells its
        story and runs its scenario on the device and iOS profile where it happened (the seed
        half fails as the report says, the fixed half holds).

        USAGE: swizzle-lab gallery [NAME] [--no-color] [--load PATH]

        OPTIONS:
          --no-color   Plain text even on a terminal (NO_COLOR is respected too).
          --load PATH  Load a plugin library first (repeatable).
          -h, --help   Show help information.

        """
    case "list":
      return """
        OVERVIEW: Lists the scenarios, plugins and devices.

        USAGE: swizzle-lab list [--load PATH]

        """
    default:
      return """
        OVERVIEW: Run navigation-bar scenarios on SwizzleKit's UIKit model, watch the bar, and
        trace the swizzles and hooks behind it.

        USAGE: swizzle-lab [COMMAND] [OPTIONS]

        With no command, runs the scenario named tour, with the plugin that brings it.

        COMMANDS:
          list               Scenarios, plugins and devices, one line each.
          run SCENARIO       A timeline of the bar in the terminal.
          trace SCENARIO     Every runtime event, with virtual timestamps.
          hooks              The hook map after installing plugins.
          render SCENARIO    An HTML report with a filmstrip and plots, and JSON.
          export SCENARIO    A run as a test: Swift Testing file, golden, snapshots.
          matrix             Every scenario on every device and iOS profile, checked.
          gallery [NAME]     Reported breakages, each run where it happened.
          methods CLASS      A class's methods, encodings, and the hooks on them.
          shadows FILE...    Swift methods of extensions that never run here.
          learn [NAME]       Lessons on swizzling that run: code, trace, result.
          coexist [METHOD]   Swizzling techniques in pairs: what runs, _cmd, reverts.
          load PATH          Load a plugin library and list what it brings.
          compile FILE.m...  Compile Objective-C with gcc and load it on the runtime.

          See 'swizzle-lab COMMAND --help' for a command's options.

        """
    }
  }
}
