/// One object that both adapts every attempt and decides on retries, registered once in
/// ``Client/Configuration/interceptors``: for behaviour whose two halves share state, such as
/// `Authenticator`, which adds the access token and replays requests that met an expired one.
///
/// An interceptor adapts after the client's ``Client/Configuration/adapters`` (so its changes
/// have the last word) and is asked to retry before the ``Client/Configuration/retriers``.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}
