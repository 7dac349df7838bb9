// resolve_study_argument and ready_study_names (study/ready_studies.hpp) on
// a folder of ready studies made here: which argument is a path, which a
// name, what a file or folder in the working directory changes, and the
// error for an unknown name (with the names, the folder, a "did you mean").
#include "base/error.hpp"
#include "study/ready_studies.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
namespace fb = formatbench;

namespace {

class ReadyStudies : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "fb_ready_XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        dir_ = root_ / "configs";
        fs::create_directories(dir_);
        fs::create_directories(root_ / "cwd");
        for (const char* f : {"scaling.yaml", "cache.yaml", "notes.txt", "old.yml"})
            std::ofstream(dir_ / f) << "name: x\n";
        fs::create_directories(dir_ / "folder.yaml"); // a folder is not a study
        old_cwd_ = fs::current_path();
        fs::current_path(root_ / "cwd");
    }
    void TearDown() override {
        fs::current_path(old_cwd_);
        fs::remove_all(root_);
    }
    std::string usage_message(const std::string& arg, const fs::path& dir) {
        try {
            fb::resolve_study_argument(arg, dir);
        } catch (const fb::usage_error& e) {
            return e.what();
        }
        ADD_FAILURE() << arg << " resolved without an error";
        return "";
    }
    fs::path root_, dir_, old_cwd_;
};

TEST_F(ReadyStudies, NamesAreTheYamlFilesSorted) {
    EXPECT_EQ(fb::ready_study_names(dir_), (std::vector<std::string>{"cache", "scaling"}));
    EXPECT_TRUE(fb::ready_study_names(root_ / "missing").empty());
}

TEST_F(ReadyStudies, ANameIsTheReadyStudy) {
    EXPECT_EQ(fb::resolve_study_argument("scaling", dir_), (dir_ / "scaling.yaml").string());
    EXPECT_EQ(fb::resolve_study_argument("cache", dir_), (dir_ / "cache.yaml").string());
}

TEST_F(ReadyStudies, ASlashOrYamlSuffixIsAlwaysAPath) {
    EXPECT_EQ(fb::resolve_study_argument("./scaling", dir_), "./scaling");
    EXPECT_EQ(fb::resolve_study_argument("scaling.yaml", dir_), "scaling.yaml");
    EXPECT_EQ(fb::resolve_study_argument("scaling.yml", dir_), "scaling.yml");
    EXPECT_EQ(fb::resolve_study_argument("/no/such/file", dir_), "/no/such/file");
}

TEST_F(ReadyStudies, AFileInTheWorkingDirectoryComesFirst) {
    std::ofstream("scaling") << "name: mine\n";
    EXPECT_EQ(fb::resolve_study_argument("scaling", dir_), "scaling");
    // A folder of that name is not a study file: the ready study is used.
    fs::create_directories("cache");
    EXPECT_EQ(fb::resolve_study_argument("cache", dir_), (dir_ / "cache.yaml").string());
}

TEST_F(ReadyStudies, OnlyYamlFilesAreNames) {
    EXPECT_EQ(usage_message("notes", dir_).find("study 'notes': no such file"), 0u);
    usage_message("old", dir_);    // old.yml: only .yaml files are ready studies
    usage_message("folder", dir_); // folder.yaml is a folder
}

TEST_F(ReadyStudies, AnUnknownNameListsTheReadyStudies) {
    EXPECT_EQ(usage_message("scalng", dir_),
              "study 'scalng': no such file, and no ready study of that name (did you mean 'scaling'?); the "
              "ready studies (in " +
                  dir_.string() + ") are: cache, scaling");
    EXPECT_EQ(usage_message("other", root_ / "missing"),
              "study 'other': no such file, and no ready studies are installed in " +
                  (root_ / "missing").string() + "; give the path of a study file");
}

} // namespace
