/// One event of a `text/event-stream`, as the HTML standard's parser dispatches it.
struct ServerSentEvent: Hashable, Sendable {
    /// The event type: the last `event:` field, or `message` when there was none.
    var type: String
    /// The `data:` lines, joined by line feeds.
    var data: String
    /// The last event ID string when the event was dispatched (it persists across events).
    var lastEventID: String
}
