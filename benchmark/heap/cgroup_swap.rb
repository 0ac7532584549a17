# The memory cgroup (v1, 48 MiB) with 2 GiB of swap that batch_ab.rb and
# killrate.rb run their batches in: made for the block, removed after it.
def with_cgroup_swap(name, limit = 48 << 20)
  v1 = File.readlines("/proc/self/cgroup", chomp: true).find { _1.split(":", 3)[1] == "memory" } or abort "no cgroup v1 memory controller"
  cg = "/sys/fs/cgroup/memory#{v1.split(":", 3)[2]}".chomp("/") + "/#{name}-#{$$}"
  Dir.mkdir(cg)
  File.write("#{cg}/memory.limit_in_bytes", limit.to_s)
  swap = "/tmp/#{name}-swap-#{$$}"
  begin
    system("fallocate -l 2048M #{swap} && chmod 600 #{swap} && mkswap #{swap} >/dev/null && swapon #{swap}", exception: true)
    yield cg
  ensure
    sleep 0.5
    Dir.rmdir(cg) rescue warn "#{cg}: #{$!.message}"
    system("swapoff #{swap} 2>/dev/null; rm -f #{swap}")
  end
end
