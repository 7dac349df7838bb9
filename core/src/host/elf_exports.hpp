// Whether a file is an ELF shared library that exports a given symbol, read
// from its dynamic symbol table (.dynsym, what dlsym searches, kept by
// strip) without loading it: the registry refuses a file that is no plugin
// before any of its code runs. Written here because Boost 1.74's
// library_info takes the last string table of the file (the section names)
// for the symbol names, so a name whose .strtab offset is below that
// table's size is misread, and the registry refused valid plugins (seen
// with an ASan -O2 build of a test plugin; tests/plugins/padded makes one).
#pragma once

#include <filesystem>
#include <string_view>

namespace formatbench::detail {

enum class elf_export {
    exported,      // a defined, global or weak, visible dynamic symbol of that name
    not_exported,  // a shared library without it
    not_a_library, // unreadable, not ELF, not a shared object, or damaged
    undecided,     // 32-bit or big-endian ELF, no section table or no .dynsym: load and see
};

elf_export elf_exports(const std::filesystem::path& file, std::string_view symbol);

} // namespace formatbench::detail
