# Call-heavy loops for YJIT's instruction counts, fork against vanilla (each
# JIT against the other): the slope between two loop counts of
#
#   valgrind --tool=cachegrind --cache-sim=no --smc-check=all \
#     RUBY --yjit benchmark/yjit/calls.rb N WORK
#
# for N = 20 and 60 is the cost of 40 iterations without start-up.
#   fib   recursive Ruby calls (fib(15), 1973 calls an iteration)
#   obj   Class#new with initialize, attr_reader, a Ruby method (200 an iteration)
def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
class P; attr_reader :x; def initialize(x) = @x = x; def add(o) = P.new(@x + o.x); end
n = Integer(ARGV[0])
case ARGV[1]
when "fib" then n.times { fib(15) }
when "obj" then n.times { a = P.new(1); 200.times { a = a.add(P.new(1)) } }
else abort "usage: calls.rb N fib|obj"
end
