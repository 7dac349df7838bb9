// formatbench.mpi/1's load-time comparison of the plugin's MPI with the
// host's (host/mpi_match.hpp), on names written out by hand: the family and
// the major decide, the minor and release do not.
#include "host/mpi_match.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using formatbench::mpi_mismatch;

TEST(mpi_match, same_family_and_major_match) {
    EXPECT_EQ(mpi_mismatch("Open MPI 4.1.4", "Open MPI 4.1.4"), "");
    EXPECT_EQ(mpi_mismatch("Open MPI 4.0.7", "Open MPI 4.1.4"), "");
    EXPECT_EQ(mpi_mismatch("MPICH 4.0.2", "MPICH 4.1"), "");
}

TEST(mpi_match, another_family_is_refused_naming_both) {
    const std::string why = mpi_mismatch("MPICH 4.0", "Open MPI 4.1.4");
    EXPECT_NE(why.find("built against MPICH 4.0, but this formatbench runs Open MPI 4.1.4"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("an MPI_Comm is a pointer in Open MPI, an int in MPICH"), std::string::npos) << why;
    EXPECT_NE(why.find("rebuild the plugin against Open MPI 4"), std::string::npos) << why;
    EXPECT_NE(mpi_mismatch("Open MPI 4.1.4", "MPICH 4.0"), "");
}

TEST(mpi_match, another_major_is_refused) {
    const std::string why = mpi_mismatch("Open MPI 5.0.1", "Open MPI 4.1.4");
    EXPECT_NE(why.find("built against Open MPI 5.0.1, but this formatbench runs Open MPI 4.1.4"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("different major versions"), std::string::npos) << why;
    // 4 and 41 are different majors, not a prefix of one another.
    EXPECT_NE(mpi_mismatch("Open MPI 41.0", "Open MPI 4.1"), "");
}

TEST(mpi_match, a_claim_without_a_version_is_refused) {
    EXPECT_NE(mpi_mismatch("", "Open MPI 4.1.4").find("names no MPI implementation and version"),
              std::string::npos);
    EXPECT_NE(mpi_mismatch("Open MPI", "Open MPI 4.1.4"), "");
}

} // namespace
