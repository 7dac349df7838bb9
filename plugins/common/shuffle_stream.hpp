// The byte shuffle over a stream, shared by the compressing plugins (zlib,
// zstd, lz4): the shuffle works on whole blocks of a fixed size, while the
// host writes and reads in chunks of any size.
//  - shuffle_stager cuts the host's writes into blocks: a whole block that
//    lies in the caller's buffer is passed on from there, the rest is
//    gathered in a staging block first.
//  - unshuffle_buffer fills the host's reads from decoded blocks: a block the
//    read wants whole is unshuffled straight into the caller's buffer, the
//    rest through a plain block that the next read takes up first.
// Header-only: the codec's call is a template parameter, so it inlines.
#pragma once

#include "common/byte_buffer.hpp"
#include "common/shuffle.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace formatbench::detail {

class shuffle_stager {
public:
    shuffle_stager() = default;
    explicit shuffle_stager(std::size_t block_bytes) : block_(block_bytes), staging_(block_bytes) {}

    // Passes [p, p + n) on to emit(const unsigned char* block, std::size_t
    // block_bytes) as whole blocks, in order; a partial block stays staged
    // for the next call (or for the last, short block at close).
    template <class Emit>
    void feed(const unsigned char* p, std::uint64_t n, Emit&& emit) {
        while (n > 0) {
            if (pending_ == 0 && n >= block_) {
                emit(p, block_);
                p += block_;
                n -= block_;
                continue;
            }
            const std::size_t k = block_ - pending_ < n ? block_ - pending_ : static_cast<std::size_t>(n);
            std::memcpy(staging_.data() + pending_, p, k);
            pending_ += k;
            p += k;
            n -= k;
            if (pending_ == block_) {
                pending_ = 0;
                emit(staging_.data(), block_);
            }
        }
    }

    // The staged partial block: pending() bytes at staged(); clear() once it
    // has been passed on.
    const unsigned char* staged() const noexcept { return staging_.data(); }
    std::size_t pending() const noexcept { return pending_; }
    void clear() noexcept { pending_ = 0; }

private:
    std::size_t block_ = 0;
    byte_buffer staging_;
    std::size_t pending_ = 0;
};

class unshuffle_buffer {
public:
    unshuffle_buffer() = default;
    unshuffle_buffer(std::size_t block_bytes, std::size_t element_size)
        : block_(block_bytes), element_size_(element_size), raw_(block_bytes), plain_(block_bytes) {}

    // Fills out[0, n) with plain bytes: first what is left of the last
    // block, then blocks from decode(unsigned char* dst, std::size_t max),
    // which returns the shuffled bytes it decoded into dst (a whole block,
    // or less only at the end of the data; 0: nothing more). Returns the
    // bytes written to out, fewer than n only when decode returned 0.
    template <class Decode>
    std::uint64_t read(unsigned char* out, std::uint64_t n, Decode&& decode) {
        const std::uint64_t wanted = n;
        while (n > 0) {
            if (pos_ < size_) {
                const std::size_t k = size_ - pos_ < n ? size_ - pos_ : static_cast<std::size_t>(n);
                std::memcpy(out, plain_.data() + pos_, k);
                pos_ += k;
                out += k;
                n -= k;
                continue;
            }
            const std::size_t got = decode(raw_.data(), block_);
            if (got == 0) break;
            if (got <= n) {
                unshuffle_block(raw_.data(), out, got, element_size_);
                out += got;
                n -= got;
            } else {
                unshuffle_block(raw_.data(), plain_.data(), got, element_size_);
                size_ = got;
                pos_ = 0;
            }
        }
        return wanted - n;
    }

    // Nothing decoded is left over for a later read.
    bool drained() const noexcept { return pos_ == size_; }

private:
    std::size_t block_ = 0;
    std::size_t element_size_ = 1;
    byte_buffer raw_;
    byte_buffer plain_;
    std::size_t size_ = 0; // plain bytes in plain_
    std::size_t pos_ = 0;  // of which handed out
};

} // namespace formatbench::detail
