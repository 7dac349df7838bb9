/* The frozen ABI sizes of plugin.h against the structs as this header
 * declares them. It fails to compile when a struct changes size without its
 * size constant and FB_ABI_MINOR being updated, or when a field of an
 * earlier minor moves: hosts compare a plugin's declared sizes with the
 * constants, so they must always describe the real layouts. */
#include <formatbench/plugin.h>

#include <stddef.h>

#if FB_ABI_MINOR == 2
_Static_assert(sizeof(fb_plugin_descriptor) == FB_DESCRIPTOR_SIZE_1_1,
               "fb_plugin_descriptor changed size: appending a field needs FB_ABI_MINOR + 1 and a new "
               "FB_DESCRIPTOR_SIZE_1_<minor>, with its check here");
_Static_assert(sizeof(fb_option_decl) == FB_OPTION_DECL_SIZE_1_0,
               "fb_option_decl changed size: a new minor and FB_OPTION_DECL_SIZE_1_<minor> are needed");
_Static_assert(sizeof(fb_open_args) == FB_OPEN_ARGS_SIZE_1_2,
               "fb_open_args changed size: a new minor and FB_OPEN_ARGS_SIZE_1_<minor> are needed");
/* What 1.1 appended sits right after the 1.0 layout. */
_Static_assert(offsetof(fb_plugin_descriptor, is_lossless_for) == FB_DESCRIPTOR_SIZE_1_0,
               "1.1's descriptor field does not follow the 1.0 layout");
_Static_assert(offsetof(fb_open_args, metric) == FB_OPEN_ARGS_SIZE_1_0,
               "1.1's open-argument fields do not follow the 1.0 layout");
/* What 1.2 appended sits right after the 1.1 layout. */
_Static_assert(offsetof(fb_open_args, ndim) == FB_OPEN_ARGS_SIZE_1_1,
               "1.2's open-argument fields do not follow the 1.1 layout");
#else
#error "tests/sdk/abi_sizes.c: add the size checks of this ABI minor"
#endif
_Static_assert(sizeof(fb_ext_zero_copy_read_v1) == FB_EXT_ZERO_COPY_READ_V1_SIZE,
               "an extension struct changed size: a changed layout is a new extension id");
_Static_assert(sizeof(fb_ext_part_v1) == FB_EXT_PART_V1_SIZE,
               "an extension struct changed size: a changed layout is a new extension id");
_Static_assert(sizeof(fb_ext_check_options_v1) == FB_EXT_CHECK_OPTIONS_V1_SIZE,
               "an extension struct changed size: a changed layout is a new extension id");
_Static_assert(sizeof(fb_ext_check_case_v1) == FB_EXT_CHECK_CASE_V1_SIZE,
               "an extension struct changed size: a changed layout is a new extension id");
_Static_assert(sizeof(fb_case_info) == FB_CASE_INFO_SIZE_1_0, "fb_case_info grew: append fields, add a size");
_Static_assert(sizeof(fb_ext_read_at_v1) == FB_EXT_READ_AT_V1_SIZE,
               "an extension struct changed size: a changed layout is a new extension id");
_Static_assert(sizeof(fb_ext_read_box_v1) == FB_EXT_READ_BOX_V1_SIZE,
               "an extension struct changed size: a changed layout is a new extension id");
_Static_assert(sizeof(fb_ext_mpi_v1) == FB_EXT_MPI_V1_SIZE,
               "an extension struct changed size: a changed layout is a new extension id");
_Static_assert(sizeof(fb_ext_prepare_v1) == FB_EXT_PREPARE_V1_SIZE,
               "an extension struct changed size: a changed layout is a new extension id");

/* The 1.0 fields keep their offsets in every minor (LP64 layout). */
_Static_assert(offsetof(fb_plugin_descriptor, struct_size) == 8, "descriptor header moved");
_Static_assert(offsetof(fb_plugin_descriptor, id) == 16, "descriptor identity moved");
_Static_assert(offsetof(fb_plugin_descriptor, flags) == 64, "descriptor flags moved");
_Static_assert(offsetof(fb_plugin_descriptor, is_lossless) == 88, "descriptor calls moved");
_Static_assert(offsetof(fb_plugin_descriptor, get_extension) == 144, "descriptor get_extension moved");
_Static_assert(offsetof(fb_option_decl, help) == 56, "option declaration fields moved");
_Static_assert(offsetof(fb_open_args, option_count) == 32, "open arguments moved");

int main(void) {
    return 0;
}
