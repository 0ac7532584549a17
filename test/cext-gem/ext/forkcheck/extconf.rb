require "mkmf"
have_func("rb_block_call", "ruby.h") or abort "rb_block_call missing"
create_makefile("forkcheck/forkcheck")
