# Where the memory of N sleeping threads is: /proc/self/smaps summed by
# mapping (name and size), largest resident first.  Compare N=1000 and
# N=3000 to get each kind's cost per thread.
#   N=1000 ruby benchmark/vmstack/smaps.rb; N=3000 ruby benchmark/vmstack/smaps.rb
n = Integer(ENV["N"] || 1000)
q = Queue.new
threads = n.times.map { Thread.new { q << 1; sleep } }
n.times { q.pop }
sleep 0.3
groups = Hash.new { |h, k| h[k] = [0, 0] }
File.read("/proc/self/smaps").split(/^(?=\h+-\h+ )/).each do |m|
  head = m.lines.first
  from, to = head.split.first.split("-").map { |x| x.to_i(16) }
  key = "#{head.split[5] || "anon"} size=#{(to - from) / 1024}K"
  groups[key][0] += 1
  groups[key][1] += m[/^Rss:\s+(\d+)/, 1].to_i
end
puts "threads=#{threads.size}"
groups.sort_by { |_, (_, rss)| -rss }.first(8).each do |k, (count, rss)|
  puts format("%-45s count=%5d rss=%7dK", k, count, rss)
end
