// Where the files installed beside the executable are: the ready studies
// (configs/*.yaml) and the documentation. They are found relative to the
// executable, as the plugin folder is, so an install into any prefix (also
// one staged with DESTDIR, or $HOME/.local without root) works with no
// environment variable; the build tree's executable uses the source tree.
#pragma once

#include <filesystem>

namespace formatbench {

// The folder of ready studies: <source>/configs for the build tree's
// executable, <datadir>/formatbench/configs for an installed one. The folder
// may not exist (an install without data, a moved build tree).
std::filesystem::path ready_study_dir();

// The folders to name in --help and the man page: the installed ones beside
// the executable when they exist, else where `meson install` puts them (so
// the build tree's help, which the man page is made from, names the install
// location, never a source path).
std::filesystem::path installed_study_dir();
std::filesystem::path documentation_dir();

} // namespace formatbench
