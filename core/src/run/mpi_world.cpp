// The MPI communicator (mpi_world.hpp), compiled when Meson found MPI.
#include "run/mpi_world.hpp"

#include "base/error.hpp"

#define OMPI_SKIP_MPICXX 1 // the C API only
#include <mpi.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace formatbench {
namespace {

class mpi_communicator final : public communicator {
public:
    mpi_communicator() {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (!initialised) {
            MPI_Init(nullptr, nullptr);
            owner_ = true;
        }
        int r = 0, n = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        rank_ = static_cast<unsigned>(r);
        size_ = static_cast<unsigned>(n);
        MPI_Comm_dup(MPI_COMM_WORLD, &plugins_);
    }
    ~mpi_communicator() override {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (!finalised && plugins_ != MPI_COMM_NULL) MPI_Comm_free(&plugins_);
        if (owner_ && !finalised) MPI_Finalize();
    }
    unsigned rank() const override { return rank_; }
    unsigned size() const override { return size_; }
    void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }
    // One MPI_Allreduce: as cheap as a barrier, and it carries the flags.
    unsigned meet(unsigned mine) override {
        unsigned all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
        return all;
    }
    std::vector<std::string> all_gather(const std::string& mine) override {
        const int length = static_cast<int>(mine.size());
        std::vector<int> lengths(size_), offsets(size_);
        MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
        int total = 0;
        for (unsigned i = 0; i < size_; ++i) {
            offsets[i] = total;
            total += lengths[i];
        }
        std::string all(static_cast<std::size_t>(total), '\0');
        MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
                       MPI_COMM_WORLD);
        std::vector<std::string> out;
        for (unsigned i = 0; i < size_; ++i)
            out.push_back(
                all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
        return out;
    }

    const void* mpi_comm(bool whole) const override { return whole ? &plugins_ : &self_; }

private:
    unsigned rank_ = 0, size_ = 1;
    bool owner_ = false;
    // What formatbench.mpi/1 plugins open their files on (communicator.hpp).
    MPI_Comm plugins_ = MPI_COMM_NULL;
    MPI_Comm self_ = MPI_COMM_SELF;
};

} // namespace

bool built_with_mpi() noexcept {
    return true;
}

std::unique_ptr<communicator> join_mpi_world() {
    if (!launched_by_mpi()) return nullptr;
    return std::make_unique<mpi_communicator>();
}

} // namespace formatbench
