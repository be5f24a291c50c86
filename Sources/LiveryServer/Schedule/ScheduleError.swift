/// Why a scheduled change was refused or could not be changed; the routes give each its problem.
enum ScheduleError: Error {
    /// The request does not describe a schedule (a time, a share, an interval); what was expected.
    case badRequest(String)
    /// No scheduled change has this id.
    case notFound(String)
    /// The change has ended (its state): nothing left to cancel.
    case ended(id: String, state: ScheduledChange.State)
    /// The schedule would hold more than ``ScheduleStore/maxBytes`` (this many).
    case tooLarge(Int)
    /// The store refused or failed, or the change's files do not validate.
    case store(StoreError)
}
