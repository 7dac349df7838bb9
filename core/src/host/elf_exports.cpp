// Reads an ELF file's dynamic symbol table; see elf_exports.hpp.
#include "host/elf_exports.hpp"

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace formatbench::detail {

namespace {

// The bytes [offset, offset + size) of the file, if they are inside it.
bool inside(const std::vector<char>& f, std::uint64_t offset, std::uint64_t size) {
    return offset <= f.size() && size <= f.size() - offset;
}

template <class T>
T at(const std::vector<char>& f, std::uint64_t offset) {
    T v;
    std::memcpy(&v, f.data() + offset, sizeof v);
    return v;
}

} // namespace

elf_export elf_exports(const std::filesystem::path& file, std::string_view symbol) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return elf_export::not_a_library;
    const std::vector<char> f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (f.size() < EI_NIDENT || std::memcmp(f.data(), ELFMAG, SELFMAG) != 0) return elf_export::not_a_library;
    if (f[EI_CLASS] != ELFCLASS64 || f[EI_DATA] != ELFDATA2LSB) return elf_export::undecided;
    if (!inside(f, 0, sizeof(Elf64_Ehdr))) return elf_export::not_a_library;
    const auto eh = at<Elf64_Ehdr>(f, 0);
    if (eh.e_type != ET_DYN || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        !inside(f, eh.e_shoff, std::uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr)))
        return elf_export::not_a_library;
    for (std::uint64_t i = 0; i < eh.e_shnum; ++i) {
        const auto sh = at<Elf64_Shdr>(f, eh.e_shoff + i * sizeof(Elf64_Shdr));
        if (sh.sh_type != SHT_DYNSYM) continue;
        if (sh.sh_link >= eh.e_shnum || !inside(f, sh.sh_offset, sh.sh_size))
            return elf_export::not_a_library;
        const auto strtab = at<Elf64_Shdr>(f, eh.e_shoff + std::uint64_t{sh.sh_link} * sizeof(Elf64_Shdr));
        if (!inside(f, strtab.sh_offset, strtab.sh_size)) return elf_export::not_a_library;
        for (std::uint64_t k = 0; k + sizeof(Elf64_Sym) <= sh.sh_size; k += sizeof(Elf64_Sym)) {
            const auto s = at<Elf64_Sym>(f, sh.sh_offset + k);
            const unsigned bind = ELF64_ST_BIND(s.st_info);
            const unsigned vis = ELF64_ST_VISIBILITY(s.st_other);
            if (s.st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK) ||
                (vis != STV_DEFAULT && vis != STV_PROTECTED) || s.st_name >= strtab.sh_size)
                continue;
            const char* name = f.data() + strtab.sh_offset + s.st_name;
            const std::size_t room = static_cast<std::size_t>(strtab.sh_size - s.st_name);
            if (symbol.size() < room && std::memcmp(name, symbol.data(), symbol.size()) == 0 &&
                name[symbol.size()] == '\0')
                return elf_export::exported;
        }
        return elf_export::not_exported;
    }
    // No dynamic symbol table: nothing can be found with dlsym.
    return elf_export::not_exported;
}

} // namespace formatbench::detail
