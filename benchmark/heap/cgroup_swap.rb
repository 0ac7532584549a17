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
    # interrupted or not, leave no cgroup, process or swap file behind; a
    # second signal (timeout(1) passes its own on) must not cut this short
    %w[INT TERM].each { trap(_1, "IGNORE") }
    File.read("#{cg}/cgroup.procs").split.each { Process.kill(:KILL, Integer(_1)) rescue nil } rescue nil
    sleep 0.5
    Dir.rmdir(cg) rescue warn "#{cg}: #{$!.message}"
    system("swapoff #{swap} 2>/dev/null; rm -f #{swap}")
  end
end

# The page cache decides who is killed.  A ruby's files (its binary, its
# libraries, the .rb files rubygems reads) are charged to the cgroup of the
# process that brought them into the cache.  Cached from outside (a ruby just
# run outside the cgroup), they are beyond the cgroup's reach: its 48 MiB are
# anonymous memory only, which reclaim must write to swap, and the OOM killer
# strikes in nearly every batch at fourteen.  Read in from inside, they are
# clean pages the cgroup can drop, and the same batches lose none.  So that a
# ruby's history does not decide its kills, each batch starts with the same
# state for every ruby:
#   warm:  every file read from here (outside the cgroup) first
#   evict: every file dropped from the cache first (POSIX_FADV_DONTNEED)
#   keep:  left as it is (what killrate.rb did until 2026-11-27, 22:45 UTC,
#          and batch_ab.rb still does)
PAGE_CACHE_MODES = %w[warm evict keep]

# the files a ruby's processes read: under its prefix, asked of the ruby
# itself (a wrapper script names no prefix)
def ruby_files(ruby)
  prefix = IO.popen([ruby, "--disable-gems", "-rrbconfig", "-e", "print RbConfig::CONFIG['prefix']"], &:read)
  abort "#{ruby}: no prefix" unless $?.success? && File.directory?(prefix)
  Dir.glob("#{prefix}/{bin/ruby,lib/**/*.{so,rb}}").select { File.file?(_1) }
end

def page_cache_set(files, mode)
  return if mode == "keep"
  buf = +""
  files.each do |f|
    File.open(f) do |io|
      if mode == "evict"
        io.advise(:dontneed)
      else
        nil while io.read(1 << 20, buf)
      end
    end
  end
end
