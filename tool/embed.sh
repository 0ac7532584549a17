#!/usr/bin/env bash
# Build the tree's example of ruby/vm.h, test/embed/vm_embed.c, against an
# installed ruby as a program that embeds Ruby is built: its headers and
# library from the ruby-3.3 pkg-config file of PREFIX.
#
#   tool/embed.sh PREFIX OUT      writes the program OUT
#
# The static build (the default) installs libruby-static.a, which the .pc
# file's --libs does not name (upstream's file has it so): LIBRUBYARG does,
# on static and shared builds alike.  -rdynamic exports the interpreter's
# functions to the extensions the program's VMs load.
. "$(dirname "$0")/common.sh"

prefix=${1:?usage: tool/embed.sh PREFIX OUT}
out=${2:?usage: tool/embed.sh PREFIX OUT}
src=$SRC/test/embed/vm_embed.c
[ -f "$src" ] || die "$src does not exist; run 'make src' first."
command -v pkg-config >/dev/null || die "pkg-config is not installed (make deps)"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pkg-config --exists ruby-3.3 || die "no ruby-3.3.pc under $prefix/lib/pkgconfig"
# shellcheck disable=SC2046
${CC:-cc} -O1 -g -o "$out" "$src" $(pkg-config --cflags ruby-3.3) \
    $(pkg-config --variable=LIBRUBYARG ruby-3.3) -rdynamic -lpthread
