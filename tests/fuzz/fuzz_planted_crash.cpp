// A fuzz target with a planted crash, for testing run_fuzz.sh itself: any
// input that starts with '!' aborts. Its run must fail (see
// expect_fuzz_failure.sh), never pass or be reported as skipped.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 0 && data[0] == '!') std::abort();
    return 0;
}
