/* Compile test: plugin.h builds as strict C99 (and the ABI constants are sane). */
#include <formatbench/plugin.h>

int main(void) {
    fb_plugin_descriptor d = {0};
    d.magic = FB_PLUGIN_MAGIC;
    return (d.magic == FB_PLUGIN_MAGIC && FB_ABI_MAJOR == 1 && sizeof(fb_open_args) > 0) ? 0 : 1;
}
