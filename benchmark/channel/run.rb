# Channel's figures (seed 004 section 5), the fork against vanilla 3.3.8's
# Ractors, into results/channel-*.md and .png:
#
#   ruby benchmark/channel/run.rb [FIGURE...]
#
#   table3      table 3: a round trip of one object (results/channel-table3.md)
#   throughput  objects a second through one Channel, and through a Ractor (stdout)
#   fig8        fig. 8: Arrays and Strings of growing sizes between two VMs
#   fig9        fig. 9: a log parsed by worker VMs, 1 and 100 divisions
#   fig10       fig. 10: a key-value server and its clients
#   http        an HTTP server whose workers are VMs (needs wrk)
#   rss         the RSS of a million objects queued (stdout)
#
# With no FIGURE, all of them (make bench-channel, about 40 minutes).
# --runs overrides each figure's own count; and the options of every runner
# (benchmark/lib/bench.rb: --fork, --vanilla, --out).
require_relative "../lib/bench"

opts = Bench.options({runs: nil})
figs = Bench.figures(ARGV, %w[table3 throughput fig8 fig9 fig10 http rss])
fork, vanilla = opts[:rubies].values_at("fork", "vanilla")
runs = ->(n) { Bench.runs_option(opts, n) }
ruby = RbConfig.ruby
rubies = ["--fork", fork, "--vanilla", vanilla]

figs.each do |fig|
  case fig
  when "table3"
    Bench.run!(ruby, "benchmark/channel/table3.rb", rubies, runs[3], "--n", 10000,
               "--out", Bench.result_path("channel-table3.md", opts))
  when "throughput"
    (opts[:runs] || 3).times do
      Bench.run!(fork, "--disable-gems", "benchmark/channel/throughput.rb", "channel", 1_000_000)
      Bench.run!(vanilla, "--disable-gems", "benchmark/channel/throughput.rb", "ractor", 1_000_000)
    end
  when "fig8"
    Bench.run!(ruby, "benchmark/channel/fig8_driver.rb", rubies, runs[5], "--target", 0.2,
               "--arrays", "1,10,100,1000,10000,100000", "--strings", "1,100,10000,1000000,10000000,100000000",
               "--out", Bench.result_path("channel-fig8.md", opts))
  when "fig9"
    Bench.run!(ruby, "benchmark/channel/fig9_driver.rb", rubies, runs[5], "--divs", 1, "--workers", "1,2,4",
               "--parser", "parse_line", "--ractor-parser", "parser_block", "--out", Bench.result_path("channel-fig9-1div.md", opts))
    Bench.run!(ruby, "benchmark/channel/fig9_driver.rb", rubies, runs[3], "--divs", 100, "--workers", "1,2,4",
               "--parser", "parse_line", "--ractor-parser", "parser_block", "--no-probe",
               "--out", Bench.result_path("channel-fig9-100div.md", opts))
  when "fig10"
    Bench.run!(ruby, "benchmark/channel/fig10.rb", rubies, runs[3], "--n", 20000, "--keys", 10000, "--clients", 1,
               "--out", Bench.result_path("channel-fig10.md", opts))
  when "http"
    Bench.run!(ruby, "benchmark/channel/http.rb", "driver", rubies, runs[3], "--duration", 5,
               "--out", Bench.result_path("channel-http.md", opts))
  when "rss"
    Bench.run!("/usr/bin/time", "-v", fork, "--disable-gems", "benchmark/channel/rss.rb", 1_000_000)
  end
end
