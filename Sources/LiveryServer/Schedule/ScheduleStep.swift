import Foundation
import Livery

/// What each step of a scheduled change does, through the daemon's one write path
/// (``SpecWriter``) and its rollout (``RolloutKeeper``): a push publishes its files; a share
/// change sets the running rollout's share; a progressive rollout starts a rollout of its files,
/// widens it while it runs (an abort ends the plan) and completes it at 100 %; a promotion makes
/// the files exactly its source's, in one publish as `POST …/promotions` does. A new kind of
/// change is one more case of ``ScheduledChange/Kind`` and of ``run(_:of:)``.
struct ScheduleStep: Sendable {
    let writer: SpecWriter
    let rollouts: RolloutKeeper

    /// What became of a step.
    enum Outcome: Sendable {
        /// It ran; a progressive rollout's first step names the rollout it started.
        case done(rolloutID: String?)
        /// It was refused (why): the change ends.
        case failed(String)
        /// The progressive rollout no longer runs (why): the plan ends.
        case aborted(String)
    }

    /// Runs step `index` of `change`.
    func run(_ index: Int, of change: ScheduledChange) async -> Outcome {
        let step = change.steps[index]
        do {
            switch change.kind {
            case .push:
                _ = try await writer.write(try Self.changeSet(of: change), precondition: .none, dryRun: false)
                return .done(rolloutID: nil)
            case .promotion:
                // Its message names its source since it was planned (``Promotion/message(_:from:at:)``).
                _ = try await writer.write(
                    matching: try Self.sources(of: change), message: change.message, author: change.by,
                    precondition: .none, dryRun: false, signedTargets: change.signedTargets)
                return .done(rolloutID: nil)
            case .rollout:
                _ = try await rollouts.set(basisPoints: step.basisPoints ?? 0, ifMatch: change.rolloutID)
                return .done(rolloutID: nil)
            case .progressive where index == 0:
                let candidate = try await writer.write(
                    try Self.changeSet(of: change), precondition: .none, dryRun: true)
                let started = try await rollouts.start(
                    candidate, basisPoints: step.basisPoints ?? 0, message: change.message, replace: false)
                return .done(rolloutID: started.rollout.id)
            case .progressive:
                guard let id = change.rolloutID, let record = rollouts.record, record.rollout.id == id else {
                    return .aborted("the rollout this plan started was replaced")
                }
                guard record.rollout.state == .running else {
                    return .aborted(
                        "rollout \(id) \(record.rollout.state.rawValue)"
                            + (record.abortReason.map { ": \($0)" } ?? ""))
                }
                if index == change.steps.count - 1 {
                    _ = try await rollouts.complete(
                        ifMatch: id, message: change.message, author: change.by)
                } else {
                    _ = try await rollouts.set(basisPoints: step.basisPoints ?? 0, ifMatch: id)
                }
                return .done(rolloutID: nil)
            }
        } catch let error as RolloutError {
            return .failed(error.problem.detail)
        } catch StoreError.targetsNotSigned(let why) {
            return .failed(
                "the targets signed when it was planned do not fit the version it makes now (\(why)); nothing was written: plan it again with --sign-with KEY"
            )
        } catch let error as StoreError {
            return .failed(error.problem.detail)
        } catch {
            return .failed("\(error)")
        }
    }

    /// The change a push or a progressive rollout writes: its files, with its message.
    static func changeSet(of change: ScheduledChange) throws(StoreError) -> ChangeSet {
        guard let files = change.files else {
            throw .storeFailed("scheduled change \(change.id) keeps no files")
        }
        let message = change.message.isEmpty ? "scheduled \(change.kind.rawValue) \(change.id)" : change.message
        return ChangeSet(files: files, message: message, author: change.by, signedTargets: change.signedTargets)
    }

    /// What a promotion makes the environment hold: every file of its source, as read when it
    /// was planned.
    static func sources(of change: ScheduledChange) throws(StoreError) -> SpecSourceSet {
        guard let files = change.files else {
            throw .storeFailed("scheduled change \(change.id) keeps no files")
        }
        var sources = SpecSourceSet()
        for (path, data) in files {
            do {
                try sources.set(path, to: data)
            } catch {
                throw .forbiddenPath(error)
            }
        }
        return sources
    }
}
