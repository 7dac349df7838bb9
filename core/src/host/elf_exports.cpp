// Reads an ELF file's dynamic symbol table; see elf_exports.hpp. Only the
// header, the section headers, .dynsym and its string table are read, each
// checked to lie inside the file, so a large or damaged file costs little.
#include "host/elf_exports.hpp"

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

namespace formatbench::detail {

namespace {

class elf_file {
public:
    explicit elf_file(const std::filesystem::path& path) : in_(path, std::ios::binary) {
        std::error_code ec;
        size_ = std::filesystem::file_size(path, ec);
        if (ec) in_.setstate(std::ios::failbit);
    }
    bool ok() const { return static_cast<bool>(in_); }
    // The bytes [offset, offset + n), or false when they are not all in the file.
    bool read(std::uint64_t offset, std::uint64_t n, std::vector<char>& out) {
        if (!in_ || offset > size_ || n > size_ - offset) return false;
        out.resize(static_cast<std::size_t>(n));
        in_.seekg(static_cast<std::streamoff>(offset));
        in_.read(out.data(), static_cast<std::streamsize>(n));
        return static_cast<bool>(in_);
    }

private:
    std::ifstream in_;
    std::uint64_t size_ = 0;
};

template <class T>
T at(const std::vector<char>& b, std::uint64_t offset) {
    T v;
    std::memcpy(&v, b.data() + offset, sizeof v);
    return v;
}

} // namespace

elf_export elf_exports(const std::filesystem::path& file, std::string_view symbol) {
    elf_file f(file);
    std::vector<char> b;
    if (!f.ok() || !f.read(0, EI_NIDENT, b) || std::memcmp(b.data(), ELFMAG, SELFMAG) != 0)
        return elf_export::not_a_library;
    if (b[EI_CLASS] != ELFCLASS64 || b[EI_DATA] != ELFDATA2LSB) return elf_export::undecided;
    if (!f.read(0, sizeof(Elf64_Ehdr), b)) return elf_export::not_a_library;
    const auto eh = at<Elf64_Ehdr>(b, 0);
    if (eh.e_type != ET_DYN) return elf_export::not_a_library;
    // No section table (sstrip removes it; the program headers still load
    // the library), or more sections than e_shnum holds: dlopen decides.
    if (eh.e_shnum == 0) return elf_export::undecided;
    std::vector<char> sections;
    if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
        !f.read(eh.e_shoff, std::uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr), sections))
        return elf_export::not_a_library;
    for (std::uint64_t i = 0; i < eh.e_shnum; ++i) {
        const auto sh = at<Elf64_Shdr>(sections, i * sizeof(Elf64_Shdr));
        if (sh.sh_type != SHT_DYNSYM) continue;
        if (sh.sh_link >= eh.e_shnum) return elf_export::not_a_library;
        const auto strtab = at<Elf64_Shdr>(sections, std::uint64_t{sh.sh_link} * sizeof(Elf64_Shdr));
        std::vector<char> syms, names;
        if (!f.read(sh.sh_offset, sh.sh_size, syms) || !f.read(strtab.sh_offset, strtab.sh_size, names))
            return elf_export::not_a_library;
        for (std::uint64_t k = 0; k + sizeof(Elf64_Sym) <= syms.size(); k += sizeof(Elf64_Sym)) {
            const auto s = at<Elf64_Sym>(syms, k);
            const unsigned bind = ELF64_ST_BIND(s.st_info);
            const unsigned vis = ELF64_ST_VISIBILITY(s.st_other);
            if (s.st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK) ||
                (vis != STV_DEFAULT && vis != STV_PROTECTED) || s.st_name >= names.size())
                continue;
            const char* name = names.data() + s.st_name;
            const std::size_t room = names.size() - s.st_name;
            if (symbol.size() < room && std::memcmp(name, symbol.data(), symbol.size()) == 0 &&
                name[symbol.size()] == '\0')
                return elf_export::exported;
        }
        return elf_export::not_exported;
    }
    // No .dynsym section: the dynamic segment may still list symbols, so
    // dlopen decides.
    return elf_export::undecided;
}

} // namespace formatbench::detail
