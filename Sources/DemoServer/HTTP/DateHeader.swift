#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's clock as HTTP sees it: whole seconds of wall-clock time, written as an
/// IMF-fixdate (RFC 9110 §5.6.7) such as `Sun, 06 Nov 1994 08:49:37 GMT`.
enum DateHeader {
    /// The `Date` of a response made now.
    static func now() -> String {
        HTTPDate.format(seconds())
    }

    /// Whole seconds since 1970 now: what `Date` and `Last-Modified` are made of.
    ///
    /// Read from `CLOCK_REALTIME`, the clock Foundation's `Date()` reads: glibc's `time()` reads a
    /// coarse clock that lags it by up to a tick, so at the turn of a second it named the second
    /// before one a client had already seen begin (and a photo stored then looked a second older).
    static func seconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }
}
