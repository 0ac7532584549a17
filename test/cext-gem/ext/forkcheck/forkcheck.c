#include <ruby.h>

/* Forkcheck.sum(ary): sum of an Array of Integers, walking it from C. */
static VALUE
fc_sum(VALUE self, VALUE ary)
{
    long i;
    VALUE sum = INT2FIX(0);

    Check_Type(ary, T_ARRAY);
    for (i = 0; i < RARRAY_LEN(ary); i++) {
        sum = rb_funcall(sum, '+', 1, RARRAY_AREF(ary, i));
    }
    return sum;
}

static VALUE
fc_collect_i(RB_BLOCK_CALL_FUNC_ARGLIST(x, acc))
{
    return rb_ary_push(acc, rb_yield(x));
}

/* Forkcheck.map(enum) { |x| ... }: Enumerable#each driven from C, with a
 * Ruby block called back for every element. */
static VALUE
fc_map(VALUE self, VALUE obj)
{
    VALUE acc = rb_ary_new();
    rb_block_call(obj, rb_intern("each"), 0, 0, fc_collect_i, acc);
    return acc;
}

/* Forkcheck.description: RUBY_DESCRIPTION as seen from C. */
static VALUE
fc_description(VALUE self)
{
    return rb_const_get(rb_cObject, rb_intern("RUBY_DESCRIPTION"));
}

void
Init_forkcheck(void)
{
    VALUE mod = rb_define_module("Forkcheck");
    rb_define_module_function(mod, "sum", fc_sum, 1);
    rb_define_module_function(mod, "map", fc_map, 1);
    rb_define_module_function(mod, "description", fc_description, 0);
}
