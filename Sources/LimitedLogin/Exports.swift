// One `import LimitedLogin` is enough for an app, as `import FacebookLogin` is on iOS: the shared vocabulary
// (`Permission`, `LoginConfiguration`, `Profile`, `LoginTracking` …) comes with it.
@_exported import LimitedLoginCore
