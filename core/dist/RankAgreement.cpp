// Rounds through the root: sums in rank order and agreed failures (RankAgreement.h).
#include "core/dist/RankAgreement.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tomo {

struct RankAgreement::Contribution {
    enum Kind : std::int32_t { Sum = 0, Done = 1 } kind = Sum;
    ErrorCode code = ErrorCode::Ok;  ///< Done: the phase's status; a reply: the agreed one
    std::int32_t rank = 0;           ///< the failing rank of a failed reply
    std::vector<double> values;
    std::string message;
};

namespace {

using Contribution = RankAgreement::Contribution;

struct Header {
    std::int32_t kind, code, rank, pad;
    std::uint64_t values, message;
};

std::vector<std::byte> encode(const Contribution& c) {
    const Header h{c.kind, static_cast<std::int32_t>(c.code), c.rank, 0, c.values.size(),
                   c.message.size()};
    std::vector<std::byte> out(sizeof h + c.values.size() * sizeof(double) + c.message.size());
    std::byte* p = out.data();
    std::memcpy(p, &h, sizeof h);
    p += sizeof h;
    if (!c.values.empty()) std::memcpy(p, c.values.data(), c.values.size() * sizeof(double));
    p += c.values.size() * sizeof(double);
    if (!c.message.empty()) std::memcpy(p, c.message.data(), c.message.size());
    return out;
}

Result<Contribution> decode(const std::vector<std::byte>& in) {
    Header h{};
    if (in.size() < sizeof h) return internalError("agreement: a short message");
    std::memcpy(&h, in.data(), sizeof h);
    if (in.size() != sizeof h + h.values * sizeof(double) + h.message)
        return internalError("agreement: a message of the wrong length");
    Contribution c;
    c.kind = static_cast<Contribution::Kind>(h.kind);
    c.code = static_cast<ErrorCode>(h.code);
    c.rank = h.rank;
    c.values.resize(h.values);
    const std::byte* p = in.data() + sizeof h;
    if (h.values) std::memcpy(c.values.data(), p, h.values * sizeof(double));
    c.message.assign(reinterpret_cast<const char*>(p + h.values * sizeof(double)), h.message);
    return c;
}

Contribution failedWith(const Status& s, int rank) {
    Contribution c;
    c.kind = Contribution::Done;
    c.code = s.isOk() ? ErrorCode::Internal : s.code();
    c.rank = rank;
    c.message = s.message();
    return c;
}

}  // namespace

RankAgreement::RankAgreement(Communicator& comm, std::stop_token outer)
    : m_comm(comm), m_outer(std::move(outer), std::function<void()>([this] {
                                m_stop.request_stop();
                            })) {}

Contribution RankAgreement::combine(std::vector<Contribution>& all) {
    const int n = static_cast<int>(all.size());
    for (int r = 0; r < n; ++r)
        if (all[std::size_t(r)].kind == Contribution::Done &&
            all[std::size_t(r)].code != ErrorCode::Ok) {
            Contribution& c = all[std::size_t(r)];
            c.rank = r;
            if (n > 1) c.message = "rank " + std::to_string(r) + ": " + c.message;
            return c;
        }
    Contribution reply;
    reply.kind = all[0].kind;
    for (int r = 1; r < n; ++r)
        if (all[std::size_t(r)].kind != reply.kind ||
            all[std::size_t(r)].values.size() != all[0].values.size())
            return failedWith(internalError("the ranks diverged: rank " + std::to_string(r) +
                                            " and rank 0 are at different steps"),
                              r);
    if (reply.kind == Contribution::Sum) {
        reply.values.assign(all[0].values.size(), 0.0);
        for (const Contribution& c : all)  // rank order: the same bits in every run
            for (std::size_t i = 0; i < c.values.size(); ++i)
                reply.values[i] += c.values[i];
    }
    return reply;
}

Contribution RankAgreement::round(Contribution mine) {
    const int root = 0, me = m_comm.rank(), n = m_comm.size();
    const int ask = static_cast<int>(Tag::Agreement), answer = static_cast<int>(Tag::Reply);
    Contribution reply;
    Status s;
    if (me == root) {
        std::vector<Contribution> all(static_cast<std::size_t>(n));
        all[0] = std::move(mine);
        for (int r = 1; r < n && s; ++r) {
            auto bytes = m_comm.recvMessage(r, ask);
            auto c = bytes ? decode(*bytes) : Result<Contribution>(bytes.status());
            if (c) all[std::size_t(r)] = std::move(*c);
            else s = c.status();
        }
        reply = s ? combine(all) : failedWith(s, root);
        const std::vector<std::byte> out = encode(reply);
        for (int r = 1; r < n; ++r)
            (void)m_comm.send(r, answer, out);  // a peer that is gone cannot be told
    } else {
        s = m_comm.send(root, ask, encode(mine));
        if (s) {
            auto bytes = m_comm.recvMessage(root, answer);
            auto c = bytes ? decode(*bytes) : Result<Contribution>(bytes.status());
            if (c) reply = std::move(*c);
            else s = c.status();
        }
        if (!s) reply = failedWith(s, me);
    }
    if (reply.kind == Contribution::Done && reply.code != ErrorCode::Ok) {
        m_failure = Status(reply.code, reply.message);
        m_stop.request_stop();
    }
    return reply;
}

void RankAgreement::sum(std::span<double> values) {
    if (m_comm.size() == 1 && !m_failure) return;
    Contribution mine;
    if (!m_failure) {
        mine.values.assign(values.begin(), values.end());
        mine = round(std::move(mine));
    }
    if (m_failure) {
        for (double& v : values)
            v = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    std::copy(mine.values.begin(), mine.values.end(), values.begin());
}

double RankAgreement::fromRoot(double value, int root) {
    double v[1] = {m_comm.rank() == root ? value : 0.0};
    sum(v);
    return v[0];
}

Status RankAgreement::agree(const Status& local) {
    if (m_failure) return *m_failure;
    if (m_comm.size() == 1) return local;
    Contribution mine = local ? Contribution{} : failedWith(local, m_comm.rank());
    mine.kind = Contribution::Done;
    round(std::move(mine));
    return failure();
}

}  // namespace tomo
