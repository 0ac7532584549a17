# Seed 000, section 6.4 and table 2: 1024 threads, each recursing to a depth
# given by a model and then sleeping; peak RSS is what all of them hold at
# once.  MODEL=linear: thread i (1..1024) recurses 10*i times.
# MODEL=exponential: 512 threads recurse 10 times, 256 threads 20 times,
# ..., 1 thread 5120 times, and one more 10240 times.
# The paper slept 0.1 s after starting each thread; here each thread reports
# when it is at its depth (or died of SystemStackError) and the main thread
# waits for all, which holds the same peak in a second instead of 102.
model = ENV["MODEL"] || ARGV[0] || "linear"
depths =
  case model
  when "linear" then (1..1024).map { |i| 10 * i }
  when "exponential"
    (0..9).flat_map { |k| [10 * 2**k] * 2**(9 - k) } + [10_240]
  else abort "MODEL must be linear or exponential"
  end

def recurse(n, done)
  if n > 0
    recurse(n - 1, done)
  else
    done << :deep
    sleep
  end
end

done = Queue.new
threads = depths.map do |d|
  Thread.new do
    recurse(d, done)
  rescue SystemStackError
    done << :overflow
  end
end
results = depths.map { done.pop }
sleep 0.2
puts "BENCH threads=#{threads.size}"
puts "BENCH overflows=#{results.count(:overflow)}"
