// Open MPI behind Communicator (Communicator.h, MpiSession.h); compiled only when CMake finds
// MPI (MpiSessionNone.cpp otherwise).
#include "core/dist/MpiSession.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace tomo {
namespace {

/// Largest piece of one MPI message (MPI counts are int).
constexpr std::size_t kPiece = std::size_t(1) << 30;

Status mpiStatus(int code, const char* what) {
    if (code == MPI_SUCCESS) return Status::ok();
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    return ioError(std::string("MPI ") + what + ": " + std::string(text, std::size_t(length)));
}

class MpiCommunicator final : public Communicator {
  public:
    /// Takes ownership of @p comm unless it is MPI_COMM_WORLD.
    explicit MpiCommunicator(MPI_Comm comm) : m_comm(comm) {
        MPI_Comm_set_errhandler(m_comm, MPI_ERRORS_RETURN);
        MPI_Comm_rank(m_comm, &m_rank);
        MPI_Comm_size(m_comm, &m_size);
    }
    ~MpiCommunicator() override {
        if (m_comm != MPI_COMM_WORLD) MPI_Comm_free(&m_comm);
    }
    MpiCommunicator(const MpiCommunicator&) = delete;
    MpiCommunicator& operator=(const MpiCommunicator&) = delete;

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    std::string description() const override { return mpiDescription(); }

    Status send(int dest, int tag, std::span<const std::byte> data) override {
        std::size_t first = 0;
        do {  // an empty message is still one message
            const std::size_t n = std::min(kPiece, data.size() - first);
            TOMO_RETURN_IF_ERROR(mpiStatus(
                MPI_Send(data.data() + first, int(n), MPI_BYTE, dest, tag, m_comm), "send"));
            first += n;
        } while (first < data.size());
        return Status::ok();
    }
    Status recv(int source, int tag, std::span<std::byte> data) override {
        std::size_t first = 0;
        do {
            const std::size_t n = std::min(kPiece, data.size() - first);
            MPI_Status st;
            TOMO_RETURN_IF_ERROR(mpiStatus(
                MPI_Recv(data.data() + first, int(n), MPI_BYTE, source, tag, m_comm, &st),
                "receive"));
            int got = 0;
            MPI_Get_count(&st, MPI_BYTE, &got);
            if (std::size_t(got) != n)
                return internalError("MPI receive: " + std::to_string(got) + " bytes from rank " +
                                     std::to_string(source) + ", " + std::to_string(n) +
                                     " expected");
            first += n;
        } while (first < data.size());
        return Status::ok();
    }
    Result<std::vector<std::byte>> recvMessage(int source, int tag) override {
        MPI_Status st;
        TOMO_RETURN_IF_ERROR(mpiStatus(MPI_Probe(source, tag, m_comm, &st), "probe"));
        int count = 0;
        MPI_Get_count(&st, MPI_BYTE, &count);
        std::vector<std::byte> data(std::size_t(std::max(count, 0)));
        TOMO_RETURN_IF_ERROR(mpiStatus(
            MPI_Recv(data.data(), count, MPI_BYTE, source, tag, m_comm, MPI_STATUS_IGNORE),
            "receive"));
        return data;
    }
    Status broadcast(std::span<std::byte> data, int root) override {
        for (std::size_t first = 0; first < data.size(); first += kPiece) {
            const std::size_t n = std::min(kPiece, data.size() - first);
            TOMO_RETURN_IF_ERROR(
                mpiStatus(MPI_Bcast(data.data() + first, int(n), MPI_BYTE, root, m_comm),
                          "broadcast"));
        }
        return Status::ok();
    }
    Status allgather(std::span<const std::byte> mine, std::span<std::byte> all) override {
        if (all.size() != mine.size() * std::size_t(m_size))
            return internalError("allgather: the result must hold one block per rank");
        if (mine.size() <= kPiece / std::size_t(m_size))
            return mpiStatus(MPI_Allgather(mine.data(), int(mine.size()), MPI_BYTE, all.data(),
                                           int(mine.size()), MPI_BYTE, m_comm),
                             "all-gather");
        // Large blocks: one broadcast per rank.
        const std::size_t n = mine.size();
        for (std::size_t r = 0; r < all.size() / n; ++r) {
            std::byte* block = all.data() + r * n;
            if (int(r) == m_rank)
                for (std::size_t i = 0; i < n; ++i)
                    block[i] = mine[i];
            TOMO_RETURN_IF_ERROR(broadcast(std::span<std::byte>(block, n), int(r)));
        }
        return Status::ok();
    }
    Status alltoallv(std::span<const std::byte> send, std::span<const std::size_t> sendBytes,
                     std::span<std::byte> recv, std::span<const std::size_t> recvBytes,
                     std::size_t piece) override {
        const auto n = std::size_t(m_size);
        if (sendBytes.size() != n || recvBytes.size() != n)
            return internalError("all-to-all: one count per rank expected");
        std::vector<std::size_t> sendAt(n + 1, 0), recvAt(n + 1, 0);
        for (std::size_t r = 0; r < n; ++r) {
            sendAt[r + 1] = sendAt[r] + sendBytes[r];
            recvAt[r + 1] = recvAt[r] + recvBytes[r];
        }
        if (send.size() < sendAt[n] || recv.size() < recvAt[n])
            return internalError("all-to-all: buffers shorter than their counts");
        piece = std::max<std::size_t>(1, std::min(piece, kPiece));
        if (sendAt[n] <= piece && recvAt[n] <= piece) {
            std::vector<int> sc(n), sd(n), rc(n), rd(n);
            for (std::size_t r = 0; r < n; ++r) {
                sc[r] = int(sendBytes[r]);
                sd[r] = int(sendAt[r]);
                rc[r] = int(recvBytes[r]);
                rd[r] = int(recvAt[r]);
            }
            return mpiStatus(MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE,
                                           recv.data(), rc.data(), rd.data(), MPI_BYTE, m_comm),
                             "all-to-all");
        }
        // Pairwise in pieces: step k sends to rank + k and receives from rank - k.
        const std::size_t me = std::size_t(m_rank);
        std::copy_n(send.data() + sendAt[me], sendBytes[me], recv.data() + recvAt[me]);
        for (std::size_t k = 1; k < n; ++k) {
            const std::size_t to = (me + k) % n, from = (me + n - k) % n;
            std::size_t sent = 0, got = 0;
            while (sent < sendBytes[to] || got < recvBytes[from]) {
                const std::size_t s = std::min(piece, sendBytes[to] - sent);
                const std::size_t g = std::min(piece, recvBytes[from] - got);
                // A side with nothing left takes no part (no empty messages to match).
                TOMO_RETURN_IF_ERROR(mpiStatus(
                    MPI_Sendrecv(send.data() + sendAt[to] + sent, int(s), MPI_BYTE,
                                 s > 0 ? int(to) : MPI_PROC_NULL, int(Tag::Gather),
                                 recv.data() + recvAt[from] + got, int(g), MPI_BYTE,
                                 g > 0 ? int(from) : MPI_PROC_NULL, int(Tag::Gather), m_comm,
                                 MPI_STATUS_IGNORE),
                    "all-to-all"));
                sent += s;
                got += g;
            }
        }
        return Status::ok();
    }
    Result<std::unique_ptr<Communicator>> split(int color, int key) override {
        MPI_Comm part;
        TOMO_RETURN_IF_ERROR(mpiStatus(MPI_Comm_split(m_comm, color, key, &part), "split"));
        return std::unique_ptr<Communicator>(std::make_unique<MpiCommunicator>(part));
    }

  private:
    MPI_Comm m_comm;
    int m_rank = 0, m_size = 1;
};

}  // namespace

bool mpiCompiled() {
    return true;
}

std::string mpiDescription() {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    std::string text(version, std::size_t(length));
    if (auto end = text.find_first_of(",\n"); end != std::string::npos) text.resize(end);
    return text;
}

Result<std::unique_ptr<MpiSession>> MpiSession::start(int& argc, char**& argv) {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (initialised) return internalError("MPI was initialised twice");
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return ioError("MPI_Init_thread failed");
    return std::unique_ptr<MpiSession>(new MpiSession());
}

MpiSession::~MpiSession() {
    MPI_Finalize();
}

std::unique_ptr<Communicator> MpiSession::world() const {
    return std::make_unique<MpiCommunicator>(MPI_COMM_WORLD);
}

void MpiSession::abort(int exitCode) const {
    MPI_Abort(MPI_COMM_WORLD, exitCode);
    std::_Exit(exitCode);
}

}  // namespace tomo
