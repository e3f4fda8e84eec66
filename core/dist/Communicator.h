#pragma once
/// @file Communicator.h
/// @brief The processes of one distributed run (issue 16): a rank and a size, point-to-point
/// messages of any length, broadcast, all-gather and sub-groups. Two implementations: one
/// process (size 1, what every run without mpirun uses) and Open MPI (MpiSession.h; built
/// when CMake finds MPI). Nothing here is global: main() owns the session and hands the
/// communicator to whatever runs distributed.
///
/// Every call is collective or matched as MPI's are; errors come back as Status (MPI's own
/// errors are returned, not fatal). Messages longer than 2^30 bytes are split, so counts past
/// MPI's int limit (2^31) are handled here and nowhere else.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

class Communicator {
  public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    /// "single process" or the MPI library's version line.
    virtual std::string description() const = 0;

    /// Sends @p data to @p dest (blocking until the buffer may be reused).
    virtual Status send(int dest, int tag, std::span<const std::byte> data) = 0;
    /// Receives exactly data.size() bytes from @p source.
    virtual Status recv(int source, int tag, std::span<std::byte> data) = 0;
    /// Receives one message of unknown length (at most 2^30 bytes) from @p source.
    virtual Result<std::vector<std::byte>> recvMessage(int source, int tag) = 0;
    /// @p data of @p root to every rank (same size everywhere).
    virtual Status broadcast(std::span<std::byte> data, int root) = 0;
    /// Every rank's @p mine (the same size on all) into @p all, in rank order.
    virtual Status allgather(std::span<const std::byte> mine, std::span<std::byte> all) = 0;
    /// Personalised all-to-all: @p send holds the blocks for ranks 0..n-1 back to back, of
    /// @p sendBytes[r] bytes; @p recv gets the blocks from ranks 0..n-1, of @p recvBytes[r]
    /// (both known beforehand, e.g. from a first exchange of the sizes). One MPI_Alltoallv
    /// when every count and offset fits an int and no block exceeds @p piece bytes, else a
    /// pairwise exchange in pieces of at most @p piece (MPI's 2^31 count limit).
    virtual Status alltoallv(std::span<const std::byte> send,
                             std::span<const std::size_t> sendBytes, std::span<std::byte> recv,
                             std::span<const std::size_t> recvBytes,
                             std::size_t piece = std::size_t(1) << 30) = 0;
    /// The ranks with the same @p color, ordered by @p key (MPI_Comm_split).
    virtual Result<std::unique_ptr<Communicator>> split(int color, int key) = 0;
};

/// The communicator of a run that is one process.
std::unique_ptr<Communicator> singleProcess();

/// Message tags of the distributed reconstruction (one place, so that they never collide).
enum class Tag : int { Agreement = 101, Reply = 102, Slab = 103, Reduce = 104, Gather = 105 };

template <class T>
std::span<const std::byte> bytesOf(std::span<const T> v) {
    return std::as_bytes(v);
}
template <class T>
std::span<std::byte> writableBytesOf(std::span<T> v) {
    return std::as_writable_bytes(v);
}

/// out = sum over ranks of @p mine at @p root, added in rank order (rank 0 first, then 1, ...),
/// so the bits are the same in every run with the same ranks. @p out is used on root only
/// (it may alias @p mine there). Received in pieces of @p piece floats to bound memory.
Status reduceSumInRankOrder(Communicator& comm, std::span<const float> mine, std::span<float> out,
                            int root, std::size_t piece = std::size_t(1) << 22);

}  // namespace tomo
