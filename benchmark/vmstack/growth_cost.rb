# What a small first VM stack costs in time: every context that goes deeper
# than its first stack grows it (doubling), once per doubling.
#   MODE=fiber:  200,000 Enumerators, each fiber 20 calls deep once (fibers
#                start cheaply, so a growth shows).
#   MODE=thread: 20,000 threads, each 30 calls deep, joined.
# Run with RUBY_FIBER_VM_STACK_INITIAL_SIZE / RUBY_THREAD_VM_STACK_INITIAL_SIZE
# set to the sizes to compare (benchmark/run.rb --param).
def deep(n, y) = n == 0 ? (y << 1) : deep(n - 1, y)

case ENV["MODE"] || "fiber"
when "fiber"
  200_000.times { Enumerator.new { |y| deep(20, y) }.next }
when "thread"
  20_000.times.map { Thread.new { deep(30, []) } }.each(&:join)
else abort "MODE must be fiber or thread"
end
