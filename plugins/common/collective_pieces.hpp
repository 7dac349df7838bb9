// The pieces of a rank's part that a collective MPI stream (mpiio,
// hdf5_mpio) moves one collective call at a time. Every rank of a
// communicator must make the same number of collective calls, but the
// host's calls differ between ranks (a slice one element longer under
// `scaling: strong`, the host's chunking), so such a stream does not follow
// the host's calls: it cuts its part into pieces of a fixed number of units
// (bytes for MPI-IO, elements for HDF5; the last piece shorter), hands a
// piece straight from the caller's buffer when a host call covers it whole
// and stages it otherwise, and the ranks agree at open on the largest piece
// count, which each makes up at close with calls that move nothing.
//
// Header-only and free of MPI: the stream passes the call that moves a
// piece (put, get) and the call that moves nothing (pad). A piece is
// counted as made before its call, also when the call throws, so that the
// padding makes up exactly the missing calls.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

namespace formatbench::plugin_common {

class collective_pieces {
public:
    // units: of this rank's part; piece: units per call (at least 1);
    // unit_size: bytes per unit.
    collective_pieces(std::uint64_t units, std::uint64_t piece, std::size_t unit_size) noexcept
        : units_(units), piece_(std::max<std::uint64_t>(piece, 1)), unit_(unit_size) {}

    // This rank's pieces: ceil(units / piece).
    std::uint64_t count() const noexcept { return (units_ + piece_ - 1) / piece_; }
    // The calls made so far (pieces and padding).
    std::uint64_t made() const noexcept { return made_; }
    // Units the caller may still write or read.
    std::uint64_t left() const noexcept { return units_ - taken_; }

    // Writes `units` units from p: put(k, first, data, length) for each
    // piece k it completes (first: the piece's first unit in the part).
    // The caller checks units <= left().
    template <class Put>
    void write(const void* data, std::uint64_t units, Put&& put) {
        const auto* p = static_cast<const unsigned char*>(data);
        taken_ += units;
        while (units > 0) {
            const std::uint64_t want = length(made_);
            if (staged_ == 0 && units >= want) { // a whole piece, from the caller's buffer
                call(put, p, want);
                p += want * unit_;
                units -= want;
                continue;
            }
            reserve(want);
            const std::uint64_t n = std::min(units, want - staged_);
            std::memcpy(stage_.get() + staged_ * unit_, p, n * unit_);
            staged_ += n;
            p += n * unit_;
            units -= n;
            if (staged_ == want) {
                staged_ = 0;
                call(put, stage_.get(), want);
            }
        }
    }

    // A write stream's close: the staged units (a piece the host's calls
    // stopped inside, which ends the part short) as the last piece.
    template <class Put>
    void flush(Put&& put) {
        if (staged_ == 0) return;
        const std::uint64_t n = staged_;
        staged_ = 0;
        call(put, stage_.get(), n);
    }

    // Reads `units` units into data: get(k, first, buffer, length) for each
    // piece it needs, into the caller's buffer when the piece fits whole,
    // else into the stage, whose rest serves the next reads. The caller
    // checks units <= left().
    template <class Get>
    void read(void* data, std::uint64_t units, Get&& get) {
        auto* p = static_cast<unsigned char*>(data);
        taken_ += units;
        while (units > 0) {
            if (avail_ > 0) { // the rest of a staged piece
                const std::uint64_t n = std::min(units, avail_);
                std::memcpy(p, stage_.get() + used_ * unit_, n * unit_);
                used_ += n;
                avail_ -= n;
                p += n * unit_;
                units -= n;
                continue;
            }
            const std::uint64_t want = length(made_);
            if (units >= want) { // a whole piece, into the caller's buffer
                call(get, p, want);
                p += want * unit_;
                units -= want;
                continue;
            }
            reserve(want);
            call(get, stage_.get(), want);
            used_ = 0;
            avail_ = want;
        }
    }

    // The calls that move nothing, up to `total` calls in all (the largest
    // count of any rank); each pad() returns "" or what failed. Every call
    // is made; returns how many, and the first failure in `problem` (left
    // alone when there was none).
    template <class Pad>
    std::uint64_t pad_to(std::uint64_t total, std::string& problem, Pad&& pad) {
        std::uint64_t padded = 0;
        for (; made_ < total; ++made_, ++padded)
            if (std::string why = pad(); !why.empty() && problem.empty()) problem = std::move(why);
        return padded;
    }

private:
    // Units of piece k (0 past the part's end).
    std::uint64_t length(std::uint64_t k) const noexcept {
        const std::uint64_t at = k * piece_;
        return at >= units_ ? 0 : std::min(piece_, units_ - at);
    }

    // A stage of at least n units; not zeroed (every byte handed out was
    // first written or read into it).
    void reserve(std::uint64_t n) {
        if (stage_units_ >= n) return;
        stage_.reset(new unsigned char[n * unit_]);
        stage_units_ = n;
    }

    template <class Move, class Buffer>
    void call(Move& move, Buffer* buffer, std::uint64_t n) {
        const std::uint64_t k = made_++;
        move(k, k * piece_, buffer, n);
    }

    std::uint64_t units_, piece_;
    std::size_t unit_;
    std::uint64_t made_ = 0;                 // calls made (pieces, then padding)
    std::uint64_t taken_ = 0;                // units written or read by the caller
    std::uint64_t staged_ = 0;               // writing: units of the next piece in stage_
    std::uint64_t used_ = 0, avail_ = 0;     // reading: of the staged piece, units handed out and left
    std::unique_ptr<unsigned char[]> stage_; // a piece the caller's buffer does not hold whole
    std::uint64_t stage_units_ = 0;
};

} // namespace formatbench::plugin_common
