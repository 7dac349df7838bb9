/* Linked into a copy of the C test plugin (tests/plugins/c_plugin.c): sixteen
 * sections with long names make the section-name table (.shstrtab) longer
 * (over 1 KiB) than the offset of fb_plugin_entry's name in .strtab (under
 * 1 KiB in the release and ASan builds). Boost 1.74's
 * library_info then read that name from the wrong table and the registry
 * refused a valid plugin ("no entry symbol"); host/elf_exports.hpp reads
 * .dynsym instead. */
/* clang-format off */
#define PAD(x)                                                                                       \
    __attribute__((used, section(".formatbench_padding_section_with_a_long_name_0123456789abcdef_" #x))) \
    static const char pad_##x = 1;

PAD(a) PAD(b) PAD(c) PAD(d) PAD(e) PAD(f) PAD(g) PAD(h)
PAD(i) PAD(j) PAD(k) PAD(l) PAD(m) PAD(n) PAD(o) PAD(p)
/* clang-format on */
