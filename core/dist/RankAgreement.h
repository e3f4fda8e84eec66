#pragma once
/// @file RankAgreement.h
/// @brief How the ranks of a distributed reconstruction stay in step and fail together
/// (issue 16, item 5). Every exchange is a round through the root: each rank sends what it has
/// (partial sums, or the status of the phase it finished), the root combines them in rank order
/// and answers every rank the same. A rank that fails sends its failure in place of its next
/// contribution, so the others learn it at their next sum or at the end of the phase, whatever
/// they were doing; from then on every rank knows the failing rank and its message, sums
/// return NaN without communicating, and stopToken() is triggered so that solvers return
/// promptly. No rank waits forever on one that gave up, and all return the same status, so
/// the job exits with the code a single process would have.
///
/// As a CrossRankSum it carries a distributed solver's reductions (ExecContext::across): the
/// sums are added in rank order, so a run is deterministic for a given number of ranks.

#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <vector>

#include "core/base/CrossRankSum.h"
#include "core/base/Status.h"
#include "core/dist/Communicator.h"

namespace tomo {

class RankAgreement final : public CrossRankSum {
  public:
    /// @p outer (e.g. the job's cancel token) also triggers stopToken().
    explicit RankAgreement(Communicator& comm, std::stop_token outer = {});
    RankAgreement(const RankAgreement&) = delete;
    RankAgreement& operator=(const RankAgreement&) = delete;

    /// One rank's part of a round (its wire format is RankAgreement.cpp's).
    struct Contribution;

    void sum(std::span<double> values) override;
    /// Ends a phase: every rank passes its own status and gets the same answer, the failure of
    /// the lowest failing rank ("rank R: message" when there are several ranks) or OK.
    Status agree(const Status& local);
    /// The value of @p root (its @p value; the others' are ignored) on every rank, e.g. rank 0's
    /// decision to stop. NaN after a failure.
    double fromRoot(double value, int root = 0);

    bool failed() const { return m_failure.has_value(); }
    /// The failure every rank agreed on (OK when none).
    Status failure() const { return m_failure.value_or(Status::ok()); }
    /// Triggered by a failure of any rank and by the outer token.
    std::stop_token stopToken() const { return m_stop.get_token(); }
    Communicator& communicator() const { return m_comm; }

  private:
    Contribution round(Contribution mine);
    Contribution combine(std::vector<Contribution>& all);

    Communicator& m_comm;
    std::stop_source m_stop;
    std::stop_callback<std::function<void()>> m_outer;
    std::optional<Status> m_failure;
};

}  // namespace tomo
