# Seed 000, fig. 8: 10,000 sleeping threads; run with a range of
# RUBY_THREAD_VM_STACK_INITIAL_SIZE (the fixed layouts ignore it).
n = Integer(ENV["THREADS"] || 10_000)
started = Queue.new
threads = (0...n).map { Thread.new { started << true; sleep } }
n.times { started.pop }
sleep 0.2
puts "BENCH threads=#{threads.size}"
