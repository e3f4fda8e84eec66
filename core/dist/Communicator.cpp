// One process as a communicator, and the rank-ordered sum (Communicator.h).
#include "core/dist/Communicator.h"

#include <algorithm>
#include <cstring>

namespace tomo {
namespace {

class SingleProcess final : public Communicator {
  public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string description() const override { return "single process"; }
    Status send(int, int, std::span<const std::byte>) override { return noPeer(); }
    Status recv(int, int, std::span<std::byte>) override { return noPeer(); }
    Result<std::vector<std::byte>> recvMessage(int, int) override { return noPeer(); }
    Status broadcast(std::span<std::byte>, int root) override {
        return root == 0 ? Status::ok() : noPeer();
    }
    Status allgather(std::span<const std::byte> mine, std::span<std::byte> all) override {
        if (all.size() != mine.size())
            return internalError("allgather: the result must hold one block per rank");
        if (!mine.empty()) std::memmove(all.data(), mine.data(), mine.size());
        return Status::ok();
    }
    Status alltoallv(std::span<const std::byte> send, std::span<const std::size_t> sendBytes,
                     std::span<std::byte> recv, std::span<const std::size_t> recvBytes,
                     std::size_t) override {
        if (sendBytes.size() != 1 || recvBytes.size() != 1 || sendBytes[0] != recvBytes[0] ||
            send.size() < sendBytes[0] || recv.size() < recvBytes[0])
            return internalError("all-to-all: one block to itself expected");
        if (sendBytes[0] > 0) std::memmove(recv.data(), send.data(), sendBytes[0]);
        return Status::ok();
    }
    Result<std::unique_ptr<Communicator>> split(int, int) override {
        return std::unique_ptr<Communicator>(std::make_unique<SingleProcess>());
    }

  private:
    static Status noPeer() { return internalError("a single process has no other rank"); }
};

}  // namespace

std::unique_ptr<Communicator> singleProcess() {
    return std::make_unique<SingleProcess>();
}

Status reduceSumInRankOrder(Communicator& comm, std::span<const float> mine, std::span<float> out,
                            int root, std::size_t piece) {
    const int tag = static_cast<int>(Tag::Reduce);
    if (comm.rank() != root) {
        for (std::size_t first = 0; first < mine.size(); first += piece) {
            const std::size_t n = std::min(piece, mine.size() - first);
            TOMO_RETURN_IF_ERROR(comm.send(root, tag, bytesOf(mine.subspan(first, n))));
        }
        return Status::ok();
    }
    if (out.size() != mine.size())
        return internalError("reduce: the result and the part differ in length");
    std::vector<float> part(std::min(piece, mine.size()));
    for (std::size_t first = 0; first < mine.size(); first += piece) {
        const std::size_t n = std::min(piece, mine.size() - first);
        std::vector<float> acc(n, 0.f);
        // Rank order, whatever the root: rank 0's part first.
        for (int r = 0; r < comm.size(); ++r) {
            std::span<const float> add = mine.subspan(first, n);
            if (r != root) {
                TOMO_RETURN_IF_ERROR(
                    comm.recv(r, tag, writableBytesOf(std::span<float>(part.data(), n))));
                add = std::span<const float>(part.data(), n);
            }
            for (std::size_t i = 0; i < n; ++i)
                acc[i] += add[i];
        }
        std::copy(acc.begin(), acc.end(), out.begin() + static_cast<std::ptrdiff_t>(first));
    }
    return Status::ok();
}

}  // namespace tomo
