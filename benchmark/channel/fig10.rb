# Fig. 10 of seed 004 (the DB application, section 6.3.2): a lookup service over dRuby.
# The server's front is a Hash of KEYS (10,000) String keys ("k00042") to small String
# values ("value-42"); each client looks up N random keys (`front[key]`, checked against
# the expected value), after a warm-up of min(N, 200) lookups that also opens its pooled
# connection.  Transports and where the server runs:
#
#   tcp          dRuby over TCP (druby://127.0.0.1:0)
#   unix         dRuby over a UNIX socket (drbunix:)
#   mvm          drb+mvm:// (lib/drb/mvm.rb: Channels between VMs; this fork only)
#   mvm-drbconn  drb+mvm:// with DRbConn's own pool (its pool thread: two thread switches
#                a call) instead of drb/mvm's, to show what that pool costs
#   fork         the server in a forked process (tcp, unix; both rubies)
#   vm           the server in a child VM (RubyVM.new; this fork only)
#
# With CLIENTS = 1 the client is the cell's first VM; with more, the clients are forked
# processes (server in a forked process) or child VMs (server in a child VM), all released
# at once after their warm-up: lookups/s is then CLIENTS * N over the time from the first
# start to the last end (the paper varies the number of front ends).
#
# Driver (each cell one process; the cells alternate within each run, the order reversed
# on odd runs; writes medians (min..max) over the runs as markdown to --out, a bar chart
# next to it (.png, gnuplot) and its data (.dat)).  Full run, from the repository's root (about 20 s
# a run at the defaults on this 2-core machine, 2 minutes for 5 runs):
#
#   ruby benchmark/channel/fig10.rb --fork _install/bin/ruby --vanilla _vanilla/bin/ruby \
#     --runs 5 --out results/channel-fig10.md
#
# With several clients (the paper's axis; longer):
#
#   ruby benchmark/channel/fig10.rb --fork _install/bin/ruby --vanilla _vanilla/bin/ruby \
#     --runs 3 --clients 1,2,4 --out results/channel-fig10-clients.md
#
# Smoke test (seconds):
#
#   ruby benchmark/channel/fig10.rb --fork _install/bin/ruby --vanilla _vanilla/bin/ruby \
#     --runs 1 --n 300 --out /tmp/fig10-smoke.md
#
# Options: --n N lookups per client (20000), --keys K (10000), --clients LIST (1),
# --lib DIR (-I for the fork's cells; by default build/src/lib when the installed fork has
# no drb/mvm yet), --timeout SEC per cell (600); --fork and --vanilla default to
# _install/bin/ruby and _vanilla/bin/ruby, or FORK and VANILLA (benchmark/lib/bench.rb);
# --out FILE is the markdown (without it, stdout only).
#
# One cell (prints "BENCH lookups_per_s=... us_per_lookup=... wall_s=... wrong=..."):
#
#   ruby --disable-gems [-I build/src/lib] benchmark/channel/fig10.rb cell TRANSPORT PLACEMENT \
#     CLIENTS N KEYS SEED

module Fig10
  module_function

  def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  def key(i) = format("k%05d", i)
  def value(i) = "value-#{i}"

  def load_drb(transport)
    require "drb/drb"
    require "drb/unix" if transport == "unix"
    require "drb/mvm" if transport.start_with?("mvm")
  end

  # the directory drb/drb.rb came from: child VMs load dRuby from it too
  def drb_lib
    File.dirname(File.dirname($LOADED_FEATURES.find { _1.end_with?("/drb/drb.rb") }))
  end

  def serve(transport, keys)
    load_drb(transport)
    table = {}
    keys.times { |i| table[key(i)] = value(i) }
    uri = {"tcp" => "druby://127.0.0.1:0", "unix" => "drbunix:"}.fetch(transport, "drb+mvm:")
    DRb.start_service(uri, table)
    DRb.uri
  end

  # N lookups of random keys: [start, end, wrong answers]; ready is called after the
  # warm-up and returns when the client may start
  def client(transport, uri, n, keys, seed, ready = nil)
    load_drb(transport)
    DRb::DRbMVMChannel.pool = false if transport == "mvm-drbconn"
    rng = Random.new(seed)
    idx = Array.new(n) { rng.rand(keys) }
    names = idx.map { key(_1) }
    want = idx.map { value(_1) }
    front = DRbObject.new_with_uri(uri)
    [n, 200].min.times { |i| front[names[i]] }
    ready&.call
    wrong = 0
    t0 = clock
    i = 0
    while i < n
      wrong += 1 unless front[names[i]] == want[i]
      i += 1
    end
    t1 = clock
    [t0, t1, wrong]
  end

  def cell(transport, placement, clients, n, keys, seed)
    load_drb(transport)
    lib = drb_lib
    vm_opts = ["--disable-gems", "-I", lib, __FILE__]
    case placement
    when "fork"
      r, w = IO.pipe
      stop_r, stop_w = IO.pipe
      pid = fork do
        r.close
        stop_w.close
        w.puts serve(transport, keys)
        w.close
        stop_r.read # until the cell closes stop_w
        DRb.stop_service
        exit!(0)
      end
      w.close
      stop_r.close
      uri = r.gets&.chomp or abort "the server did not start"
      r.close
      stop = -> { stop_w.close; Process.wait(pid) }
    when "vm"
      ctl, out = RubyVM::Channel.new, RubyVM::Channel.new
      vm = RubyVM.new("server", *vm_opts, "vm-server")
      vm.start(transport, keys, ctl, out)
      uri = out.recv
      stop = -> { ctl.close; vm.join }
    else
      abort "unknown placement #{placement}"
    end

    spans =
      if clients == 1
        [client(transport, uri, n, keys, seed)]
      elsif placement == "fork"
        go_r, go_w = IO.pipe
        kids = clients.times.map do |k|
          cr, cw = IO.pipe
          cpid = fork do
            go_w.close
            cr.close
            res = client(transport, uri, n, keys, seed * 100 + k, -> { cw.write("r"); cw.flush; go_r.read })
            cw.write(Marshal.dump(res))
            cw.close
            exit!(0)
          end
          cw.close
          [cpid, cr]
        end
        go_r.close
        kids.each { |_, cr| cr.read(1) == "r" or abort "a client failed" }
        go_w.close # all go
        kids.map { |cpid, cr| Marshal.load(cr.read).tap { Process.wait(cpid) } }
      else
        go, out = RubyVM::Channel.new, RubyVM::Channel.new
        vms = clients.times.map do |k|
          RubyVM.new("client#{k}", *vm_opts, "vm-client").tap do |v|
            v.start(transport, uri, n, keys, seed * 100 + k, go, out)
          end
        end
        clients.times { out.recv == :ready or abort "a client failed" }
        go.close # all go
        res = clients.times.map { out.recv }
        vms.each(&:join)
        res
      end
    stop.()
    wall = spans.map { |_, t1, _| t1 }.max - spans.map { |t0, _, _| t0 }.min
    per = spans.sum { |t0, t1, _| (t1 - t0) / n } / spans.size
    wrong = spans.sum { |_, _, w| w }
    printf("BENCH lookups_per_s=%.1f us_per_lookup=%.3f wall_s=%.4f wrong=%d\n",
           clients * n / wall, per * 1e6, wall, wrong)
  end
end

case ARGV[0]
when "cell"
  t, pl, c, n, k, seed = ARGV[1..]
  Fig10.cell(t, pl, Integer(c), Integer(n), Integer(k || 10_000), Integer(seed || 1))
  exit
when "vm-server" # in a child VM
  transport, keys, ctl, out = RubyVM::ARGV
  out << Fig10.serve(transport, keys)
  ctl.each {} # until the cell closes it
  DRb.stop_service
  exit
when "vm-client" # in a child VM
  transport, uri, n, keys, seed, go, out = RubyVM::ARGV
  out << Fig10.client(transport, uri, n, keys, seed, -> { out << :ready; go.each {} })
  exit
end

# the driver
require "open3"
require_relative "../lib/bench"
require_relative "common"

opt = Bench.options({runs: 3, n: 20_000, keys: 10_000, clients: [1], timeout: 600}) do |o, op|
  o.on("--out FILE", "markdown; FILE with .png and .dat next to it") { |v| op[:md] = v }
  o.on("--n N", Integer, "lookups per client (20000)") { |v| op[:n] = v }
  o.on("--keys K", Integer, "keys in the table (10000)") { |v| op[:keys] = v }
  o.on("--clients LIST", Array, "numbers of clients (1)") { |v| op[:clients] = v.map { Integer(_1) } }
  o.on("--lib DIR", "-I for the fork's cells") { |v| op[:lib] = v }
  o.on("--timeout SEC", Integer, "per cell (600)") { |v| op[:timeout] = v }
end
script = File.expand_path(__FILE__)
fork_ruby, vanilla_ruby = opt[:rubies].values_at("fork", "vanilla")
shown = opt[:rubies].transform_values { Bench.rel(_1) }
unless opt[:lib] || system(fork_ruby, "--disable-gems", "-e", 'require "drb/mvm"', err: File::NULL)
  lib = File.join(Bench::ROOT, "build/src/lib")
  abort "#{fork_ruby} has no drb/mvm: give --lib DIR" unless File.exist?(File.join(lib, "drb/mvm.rb"))
  opt[:lib] = lib
end
rubies = {fork: [fork_ruby, *(opt[:lib] ? ["-I", opt[:lib]] : [])], vanilla: [vanilla_ruby]}

# [label, short label (chart), ruby, transport, placement]
CELLS = [
  ["dRuby over TCP, server in a forked process (vanilla)", "TCP, process (vanilla)", :vanilla, "tcp", "fork"],
  ["dRuby over a UNIX socket, server in a forked process (vanilla)", "UNIX, process (vanilla)", :vanilla, "unix", "fork"],
  ["dRuby over TCP, server in a forked process (this fork)", "TCP, process (fork)", :fork, "tcp", "fork"],
  ["dRuby over a UNIX socket, server in a forked process (this fork)", "UNIX, process (fork)", :fork, "unix", "fork"],
  ["dRuby over TCP, server in a child VM (this fork)", "TCP, child VM", :fork, "tcp", "vm"],
  ["dRuby over a UNIX socket, server in a child VM (this fork)", "UNIX, child VM", :fork, "unix", "vm"],
  ["drb+mvm, server in a child VM (this fork)", "drb+mvm, child VM", :fork, "mvm", "vm"],
  ["drb+mvm with DRbConn's pool thread, server in a child VM (this fork)", "drb+mvm, DRbConn pool", :fork, "mvm-drbconn", "vm"],
]
cells = opt[:clients].flat_map { |c| CELLS.map { |cl| [cl, c] } }

res = Hash.new { |h, k| h[k] = [] }   # [label, clients] => lookups/s
lat = Hash.new { |h, k| h[k] = [] }   # => us per lookup
fails = Hash.new { |h, k| h[k] = [] }
wrong = 0
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
opt[:runs].times do |run|
  (run.even? ? cells : cells.reverse).each do |(label, _, ruby, transport, placement), clients|
    key = [label, clients]
    cmd = ["timeout", "-s", "KILL", opt[:timeout].to_s, *rubies[ruby], "--disable-gems", script, "cell",
           transport, placement, clients.to_s, opt[:n].to_s, opt[:keys].to_s, (run + 1).to_s]
    out, err, st = Open3.capture3(*cmd, rlimit_core: 0)
    if st.success? && out =~ /^BENCH lookups_per_s=([\d.]+) us_per_lookup=([\d.]+) wall_s=[\d.]+ wrong=(\d+)/
      res[key] << Float($1)
      lat[key] << Float($2)
      wrong += Integer($3)
    else
      fails[key] << ChannelBench.failure(st, err, out)
      warn "FAILED #{cmd.join(" ")}\n#{err}#{out}"
    end
    $stderr.print "."
  end
  $stderr.puts " run #{run + 1}/#{opt[:runs]}"
end
elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0

med = Stats.method(:median)
int = ->(x) { x.round.to_s.reverse.scan(/\d{1,3}/).join(",").reverse }
ratio = lambda do |label, clients, base|
  a, b = res[[label, clients]], res[[base, clients]]
  a.empty? || b.empty? ? "" : format("%.2f", med.(a) / med.(b))
end
tcp_v, tcp_f = CELLS[0][0], CELLS[2][0]
cmdline = "ruby benchmark/channel/fig10.rb --fork #{shown["fork"]} --vanilla #{shown["vanilla"]} --runs #{opt[:runs]} " \
          "--n #{opt[:n]} --keys #{opt[:keys]} --clients #{opt[:clients].join(",")}" +
          (opt[:lib] ? " --lib #{opt[:lib]}" : "") + (opt[:md] ? " --out #{opt[:md]}" : "")
png = opt[:md] && opt[:md].sub(/\.md\z/, "") + ".png"
md = +"# Fig. 10: a lookup service over dRuby\n\n"
md << "A Hash of #{int.(opt[:keys])} String keys to small Strings is the server's front; each client " \
      "looks up #{int.(opt[:n])} random keys (`front[key]`) after a warm-up of #{[opt[:n], 200].min}. " \
      "Lookups a second (all clients together), median (min..max) of #{opt[:runs]} runs, each cell " \
      "a process of its own, alternating; µs a lookup is a client's time over its lookups (median); " \
      "\"× TCP\" is the median over the median of dRuby over TCP with the server in a forked " \
      "process, on vanilla and on this fork, with as many clients. With more than one client the " \
      "clients are forked processes (server in a forked process) or child VMs (server in a child " \
      "VM). Fork: `#{shown["fork"]}`#{opt[:lib] ? " with `-I #{opt[:lib]}`" : ""}, vanilla: `#{shown["vanilla"]}`; " \
      "#{`nproc`.strip} CPUs; whole run #{elapsed.round} s, #{Time.now.strftime("%Y-%m-%d")}. " \
      "Wrong answers: #{wrong}.\n\n"
md << "Command: `#{cmdline}`\n\n"
md << "#{Bench.host_line}.\n\n"
md << "![Fig. 10](#{File.basename(png)})\n\n" if png
opt[:clients].each do |c|
  md << "## #{c} client#{c == 1 ? "" : "s"}\n\n" if opt[:clients].size > 1
  md << "| #{int.(opt[:n])} lookups#{c == 1 ? "" : " per client"} | lookups/s | µs a lookup | × TCP (vanilla) | × TCP (this fork) |\n"
  md << "|---|---:|---:|---:|---:|\n"
  CELLS.each do |label, *|
    a, l = res[[label, c]], lat[[label, c]]
    f = fails.fetch([label, c], [])
    cellv = a.empty? ? "" : "#{int.(med.(a))} (#{int.(a.min)}..#{int.(a.max)})"
    cellv += " **#{f.size} of #{opt[:runs]} failed**" unless f.empty?
    md << "| #{label} | #{cellv} | #{l.empty? ? "" : format("%.1f", med.(l))} | " \
          "#{ratio.(label, c, tcp_v)} | #{ratio.(label, c, tcp_f)} |\n"
  end
  md << "\n"
end
unless fails.empty?
  md << "## Failures\n\n"
  fails.each { |(label, c), es| es.tally.each { |e, k| md << "- #{label}, #{c} client(s): #{k} of #{opt[:runs]}: `#{e.gsub("`", "'")}`\n" } }
  md << "\n"
end
puts md
if opt[:md]
  File.write(opt[:md], md)
  dat = opt[:md].sub(/\.md\z/, "") + ".dat"
  File.open(dat, "w") do |f|
    f.puts "# cell, then per number of clients (#{opt[:clients].join(", ")}): median min max lookups/s"
    CELLS.each do |label, short, *|
      f.puts "\"#{short}\" " + opt[:clients].map { |c|
        a = res[[label, c]]
        a.empty? ? "NaN NaN NaN" : "#{med.(a)} #{a.min} #{a.max}"
      }.join(" ")
    end
  end
  gp = +"set termoption font \",10\"\n"
  gp << "set title 'Fig. 10: lookups/s over dRuby, #{opt[:keys]} keys, #{opt[:n]} lookups a client (median of #{opt[:runs]}, bars min..max)'\n"
  gp << "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
  gp << "set style fill solid 0.7 border -1\nset boxwidth 0.9\nset grid ytics\nset yrange [0:*]\n"
  gp << "set ylabel 'lookups/s'\nset xtics rotate by -25 left\nset bmargin 7\nset rmargin 12\nset key top left\n"
  plots = opt[:clients].each_with_index.map do |c, i|
    cols = "#{2 + 3 * i}:#{3 + 3 * i}:#{4 + 3 * i}"
    "'#{dat}' using #{cols}#{i.zero? ? ":xtic(1)" : ""} title '#{c} client#{c == 1 ? "" : "s"}'"
  end
  gp << "plot #{plots.join(", ")}\n"
  plotted = Bench.plot(png, gp, size: "1000,600", terminal: "pngcairo")
  warn "wrote #{opt[:md]}, #{plotted ? "#{png}, " : ""}#{dat}"
end
