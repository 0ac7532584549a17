# Fig. 9 of seed 004, one cell: HTML generation from a KEN_ALL.CSV-shaped postal-code
# list.  A master sends the lines to N workers, each parses a line with CSV.parse_line
# and renders it with an ERB template of DIVS divs (1 or 100); the master collects the
# HTML (count and total bytesize as a check).  Prints
#
#   BENCH work=<s> setup=<s> count=<HTML strings> bytes=<total bytesize> msgs=<messages in>
#
# work: from the moment every worker is ready (csv and erb loaded, template compiled)
# until the master has the last HTML; setup: starting the workers until they are ready.
#
#   ruby --disable-gems benchmark/channel/fig9.rb gen FILE [LINES]   # writes the CSV (112992)
#   ruby --disable-gems benchmark/channel/fig9.rb MODE FILE N DIVS BATCH [PARSER]
#   ruby --disable-gems benchmark/channel/fig9.rb probe               # what runs where
#
# MODE:
#   seq      one VM, no workers (N must be 1); the baseline
#   channel  N child VMs (this fork), one shared input RubyVM::Channel and one output
#            Channel; the master sends everything, closes the input, then receives
#   ractor   N Ractors (vanilla); lines dealt round-robin to the workers (Ractor#send),
#            results back through Ractor.main.send; Ractor.receive in the master.  ERB.new
#            raises Ractor::IsolationError in a non-main Ractor in 3.3, so the master
#            compiles the template before the Ractors start (ERB#def_method: the workers
#            call the compiled method) -- see `probe`
#   pipe     N forked processes, two pipes each, every message a length-prefixed
#            Marshal.dump; lines dealt round-robin, one writer and one reader thread per
#            worker in the master.  The template is compiled before fork
# BATCH: 1 sends each line (and each HTML) as its own message; B > 1 sends Arrays of B
# lines and gets back an Array of B HTML strings.
# PARSER: parse_line (default: CSV.parse_line) or parser_block (CSV's parser driven by a
# block, no Fiber).  CSV.parse_line goes through Enumerator#next, a Fiber a line, and
# Fibers made in two Ractors at once crash 3.3.8 (vanilla, and this fork's Ractors too):
# [BUG] Segmentation fault in csv.rb:2558; parser_block is the Ractors' fallback.
#
# Every worker renders with the same compiled template (ERB#def_method) and escapes with
# CGI.escapeHTML (ERB::Util.html_escape is not Ractor-safe in 3.3: Ractor::UnsafeError).
# The driver is fig9_driver.rb.

SETUP = <<~'RUBY'
  require "csv"
  require "erb"
  require "cgi/escape"
  module Fig9
    # one div; ASCII source (a -e script's encoding is the locale's), UTF-8 fields:
    # the zip code, prefecture, city and (escaped) town
    DIV = '<div class="entry" id="z<%= f[2] %>"><%= f[6] %><%= f[7] %> <%= CGI.escapeHTML(f[8]) %></div>' + "\n"
    # parse_line: CSV.parse_line (the paper's).  parser_block: the same CSV parser
    # (CSV#parser, csv 3.2.8) driven by a block, not through CSV#each's Enumerator#next,
    # so that no Fiber is created: the fallback for Ractors (see fig9.rb probe)
    def self.parse_line(l) = CSV.parse_line(l)
    def self.parser_block(l) = CSV.new(l).send(:parser).parse { |row| break row }
    def self.compile(divs, parser)
      singleton_class.alias_method(:parse, parser.to_sym)
      src = (DIV * divs).force_encoding(Encoding::UTF_8)
      ERB.new(src).def_method(singleton_class, "render(f)", "(fig9 template, #{divs} divs)")
    end
    # a line -> its HTML; an Array of lines -> an Array of their HTML
    def self.work(m)
      m.is_a?(Array) ? m.map { |l| render(parse(l)) } : render(parse(m))
    end
  end
RUBY

CHANNEL_WORKER = <<~'RUBY'
  inp, out, divs, parser = RubyVM::ARGV
  Fig9.compile(divs, parser)
  out << :ready
  inp.each { |m| out << Fig9.work(m) }
RUBY

# --- the CSV: 15 fields shaped like Japan Post's KEN_ALL.CSV, deterministic -------------
PREFS = %w[北海道 ﾎｯｶｲﾄﾞｳ 青森県 ｱｵﾓﾘｹﾝ 岩手県 ｲﾜﾃｹﾝ 宮城県 ﾐﾔｷﾞｹﾝ 秋田県 ｱｷﾀｹﾝ 山形県 ﾔﾏｶﾞﾀｹﾝ
           福島県 ﾌｸｼﾏｹﾝ 茨城県 ｲﾊﾞﾗｷｹﾝ 栃木県 ﾄﾁｷﾞｹﾝ 群馬県 ｸﾞﾝﾏｹﾝ 埼玉県 ｻｲﾀﾏｹﾝ 千葉県 ﾁﾊﾞｹﾝ
           東京都 ﾄｳｷｮｳﾄ 神奈川県 ｶﾅｶﾞﾜｹﾝ 新潟県 ﾆｲｶﾞﾀｹﾝ 富山県 ﾄﾔﾏｹﾝ 石川県 ｲｼｶﾜｹﾝ 福井県 ﾌｸｲｹﾝ
           山梨県 ﾔﾏﾅｼｹﾝ 長野県 ﾅｶﾞﾉｹﾝ 岐阜県 ｷﾞﾌｹﾝ 静岡県 ｼｽﾞｵｶｹﾝ 愛知県 ｱｲﾁｹﾝ 三重県 ﾐｴｹﾝ
           滋賀県 ｼｶﾞｹﾝ 京都府 ｷｮｳﾄﾌ 大阪府 ｵｵｻｶﾌ 兵庫県 ﾋｮｳｺﾞｹﾝ 奈良県 ﾅﾗｹﾝ 和歌山県 ﾜｶﾔﾏｹﾝ
           鳥取県 ﾄｯﾄﾘｹﾝ 島根県 ｼﾏﾈｹﾝ 岡山県 ｵｶﾔﾏｹﾝ 広島県 ﾋﾛｼﾏｹﾝ 山口県 ﾔﾏｸﾞﾁｹﾝ 徳島県 ﾄｸｼﾏｹﾝ
           香川県 ｶｶﾞﾜｹﾝ 愛媛県 ｴﾋﾒｹﾝ 高知県 ｺｳﾁｹﾝ 福岡県 ﾌｸｵｶｹﾝ 佐賀県 ｻｶﾞｹﾝ 長崎県 ﾅｶﾞｻｷｹﾝ
           熊本県 ｸﾏﾓﾄｹﾝ 大分県 ｵｵｲﾀｹﾝ 宮崎県 ﾐﾔｻﾞｷｹﾝ 鹿児島県 ｶｺﾞｼﾏｹﾝ 沖縄県 ｵｷﾅﾜｹﾝ].each_slice(2).to_a
KANJI = "山川田中本上下東西南北大小新町村島野原森林木石岡谷沢井口宮崎長高橋松竹梅花浜江坂池寺若桜青赤白黒平和泉富士丸".chars
KANA = "ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜﾝｶﾞｷﾞｸﾞｹﾞｺﾞｻﾞｼﾞﾀﾞﾊﾞﾋﾞﾌﾞﾎﾟｯｮｭｬ".scan(/.[ﾞﾟ]?/)
CITY_KIND = [%w[市 ｼ], %w[区 ｸ], %w[町 ﾁｮｳ], %w[村 ﾑﾗ]]
TOWN_KIND = [["", ""], %w[町 ﾁｮｳ], %w[丁目 ﾁｮｳﾒ], ["（番地）", "(ﾊﾞﾝﾁ)"], ["（その他）", "(ｿﾉﾀ)"], %w[通 ﾄﾞｵﾘ]]

def generate(file, lines)
  rng = Random.new(20_040)
  word = ->(pool, a, b) { Array.new(rng.rand(a..b)) { pool[rng.rand(pool.size)] }.join }
  city = town = nil
  File.open(file, "w:UTF-8") do |f|
    lines.times do |i|
      pi = i * PREFS.size / lines
      pref, pref_kana = PREFS[pi]
      if city.nil? || i % 64 == 0 || pi != city[3]
        k = CITY_KIND[rng.rand(CITY_KIND.size)]
        city = [word.(KANJI, 1, 3) + k[0], word.(KANA, 2, 6) + k[1], 100 + rng.rand(900), pi]
        town = ["以下に掲載がない場合", "ｲｶﾆｹｲｻｲｶﾞﾅｲﾊﾞｱｲ"]
      else
        k = TOWN_KIND[rng.rand(TOWN_KIND.size)]
        town = [word.(KANJI, 1, 4) + k[0], word.(KANA, 2, 8) + k[1]]
      end
      local = format("%02d%03d", pi + 1, city[2])
      zip = format("%03d%04d", (pi + 1) * 20 + rng.rand(20), rng.rand(10_000))
      old = rng.rand(3).zero? ? zip[0, 5] : zip[0, 3] + "  "
      flags = Array.new(6) { |j| j == 5 ? 0 : (rng.rand(8).zero? ? 1 : 0) }
      f.puts [local, %("#{old}"), %("#{zip}"), %("#{pref_kana}"), %("#{city[1]}"), %("#{town[1]}"),
              %("#{pref}"), %("#{city[0]}"), %("#{town[0]}"), *flags].join(",")
    end
  end
end

# --- probes: csv and ERB inside a child VM (the fork) or a Ractor (vanilla) ------------
# Each probe is a fresh process of this ruby (a crash is an answer too); prints
# "PROBE <what>: <result>" lines, which the driver copies into its markdown.
PROBE_LINE = '%(01101,"060  ","0600000","ﾎｯｶｲﾄﾞｳ","ｻｯﾎﾟﾛｼ","ｲｶﾆ","北海道","札幌市","以下",0,0,0,0,0,0)'
VM_PROBES = {
  "a child VM: require csv and erb, CSV.parse_line, ERB.new(...).result, ERB::Util.h" => <<~RUBY,
    ch = RubyVM::Channel.new
    vm = RubyVM.new("probe", "--disable-gems", "-e", <<~'CHILD').start(ch)
      # coding: utf-8
      require "csv"; require "erb"
      f = CSV.parse_line(#{PROBE_LINE})
      RubyVM::ARGV[0] << [f.size, ERB.new("<div><%= f[6] %></div>").result(binding), ERB::Util.h("<&>")]
    CHILD
    r = vm.join
    p [ch.recv(timeout: 0), r]
  RUBY
  "4 child VMs at once, 5000 CSV.parse_line each (Fibers in parallel)" => <<~RUBY,
    vms = Array.new(4) { |i| RubyVM.new("p\#{i}", "--disable-gems", "-e", <<~'CHILD').start }
      # coding: utf-8
      require "csv"
      5000.times { CSV.parse_line(#{PROBE_LINE}) }
    CHILD
    p vms.map(&:join)
  RUBY
}
SCALE_PROBES = {
  "parallelism: a 3M-iteration while loop in 1, then in each of 2 Ractors at once (wall seconds)" => <<~'RUBY',
    c = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
    r = [1, 2].map do |n|
      t = c.()
      Array.new(n) { Ractor.new { i = 0; while i < 3_000_000; i += 1; end; i } }.each(&:take)
      format("%d: %.3f", n, c.() - t)
    end
    puts r.join(", ")
  RUBY
}
VM_PROBES.merge!(
  "parallelism: a 3M-iteration while loop in 1, then in each of 2 child VMs at once (wall seconds)" => <<~'RUBY',
    c = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
    r = [1, 2].map do |n|
      t = c.()
      Array.new(n) { |j| RubyVM.new("s#{j}", "--disable-gems", "-e", "i = 0; while i < 3_000_000; i += 1; end").start }.each(&:join)
      format("%d: %.3f (with starting the VMs)", n, c.() - t)
    end
    puts r.join(", ")
  RUBY
)
VM_PROBES.merge!(SCALE_PROBES)
RACTOR_PROBES = {
  'require "csv" in a Ractor (not loaded before)' => 'p Ractor.new { require "csv"; CSV::VERSION }.take',
  "CSV.parse_line in one Ractor" => "require 'csv'; p Ractor.new { CSV.parse_line(#{PROBE_LINE}).size }.take",
  "ERB.new in a Ractor" => 'require "erb"; p Ractor.new { ERB.new("<%= 1 %>").src.size }.take',
  "ERB::Util.html_escape in a Ractor" => 'require "erb"; p Ractor.new { ERB::Util.html_escape("<&>") }.take',
  "CGI.escapeHTML in a Ractor" => 'require "cgi/escape"; p Ractor.new { CGI.escapeHTML("<&>") }.take',
  "this benchmark's worker (template compiled by the main Ractor with ERB#def_method, CSV.parse_line) in one Ractor" =>
    "FIG9_SETUP; Fig9.compile(100, 'parse_line'); p Ractor.new { Fig9.work(#{PROBE_LINE}).bytesize }.take",
  "2 Ractors at once, 20000 CSV.parse_line each" =>
    "require 'csv'; p Array.new(2) { Ractor.new { 20000.times { CSV.parse_line(#{PROBE_LINE}) }; :ok } }.map(&:take)",
  "2 Ractors at once, 20000 Enumerator#next each (no csv)" =>
    'p Array.new(2) { Ractor.new { 20000.times { e = [1, 2, 3].each; e.next; e.next }; :ok } }.map(&:take)',
  "2 Ractors at once, 20000 Fiber.new { }.resume each (no csv)" =>
    'p Array.new(2) { Ractor.new { 20000.times { Fiber.new { 1 }.resume }; :ok } }.map(&:take)',
  "2 Ractors at once, 20000 parses each by CSV's parser driven by a block (parser_block: no Fiber)" =>
    "FIG9_SETUP; Fig9.compile(1, 'parser_block'); p Array.new(2) { Ractor.new { 20000.times { Fig9.work(#{PROBE_LINE}) }; :ok } }.map(&:take)",
}.merge(SCALE_PROBES)

def probe
  require "rbconfig"
  require "open3"
  fork_p = defined?(RubyVM::Channel)
  probes = fork_p ? VM_PROBES : RACTOR_PROBES
  tries = Integer(ENV["FIG9_PROBE_TRIES"] || 3)
  probes.each do |name, code|
    code = "# coding: utf-8\nWarning[:experimental] = false\n#{code.sub("FIG9_SETUP;", SETUP)}"
    results = Array.new(name.start_with?(/\d/) ? tries : 1) do
      # a probe that hangs (seen: two Ractors in CSV.parse_line, vanilla) is killed
      out, err, st = Open3.capture3("timeout", "-s", "KILL", "60", RbConfig.ruby, "--disable-gems", "-e", code)
      if st.success?
        "ok #{out.strip}"
      elsif (bug = err[/^.*\[BUG\].*$/])
        "CRASH (#{st.termsig ? "signal #{st.termsig}" : "exit #{st.exitstatus}"}): #{bug.strip}" +
          (err.include?("stack smashing") ? " (and: *** stack smashing detected ***)" : "")
      elsif err =~ /^.*\((\w+(::\w+)*Error)\)$/
        "#{$1}: #{err[/^.*\(#{$1}\)$/].sub(/\A[^:]*:\d+:in [^:]*: /, "").strip}"
      elsif st.exitstatus == 137 || st.termsig == 9
        "HUNG (killed after 60 s)"
      else
        "failed (#{st.inspect}): #{(err + out).lines.grep_v(/^\s*$/).first(2).join(" ").strip}"
      end
    end
    summary = results.tally.map { |r, k| results.size > 1 ? "#{k}/#{results.size}: #{r}" : r }.join("; ")
    puts "PROBE #{name}: #{summary}"
  end
end

# --- the cells -------------------------------------------------------------------------
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
mode = ARGV[0]
if mode == "gen"
  generate(ARGV[1], Integer(ARGV[2] || 112_992))
  exit
elsif mode == "probe"
  probe
  exit
end
file, n, divs, batch = ARGV[1], Integer(ARGV[2]), Integer(ARGV[3]), Integer(ARGV[4])
parser = ARGV[5] || "parse_line"
abort "unknown parser #{parser}" unless %w[parse_line parser_block].include?(parser)
lines = File.readlines(file, chomp: true, encoding: "UTF-8")
msgs = batch > 1 ? lines.each_slice(batch).to_a : lines
# [HTML strings, their bytes] in a result: one String or an Array of them
def html_size(r)
  r.is_a?(Array) ? [r.size, r.sum(&:bytesize)] : [1, r.bytesize]
end
count = bytes = 0
tally = ->(r) { c, b = html_size(r); count += c; bytes += b }

case mode
when "seq"
  abort "seq: N must be 1" unless n == 1
  t = clock.()
  eval SETUP
  Fig9.compile(divs, parser)
  setup = clock.() - t
  t = clock.()
  msgs.each { |m| tally.(Fig9.work(m)) }
  work = clock.() - t
when "channel"
  inp, out = RubyVM::Channel.new, RubyVM::Channel.new
  t = clock.()
  vms = Array.new(n) { |i| RubyVM.new("w#{i}", "--disable-gems", "-e", SETUP + CHANNEL_WORKER).start(inp, out, divs, parser) }
  n.times { (r = out.recv) == :ready or abort "channel: a worker said #{r.inspect}" }
  setup = clock.() - t
  t = clock.()
  msgs.each { |m| inp << m }
  inp.close
  msgs.size.times { tally.(out.recv) }
  work = clock.() - t
  vms.each(&:join)
when "ractor"
  Warning[:experimental] = false
  t = clock.()
  eval SETUP
  Fig9.compile(divs, parser)
  main = Ractor.current
  ws = Array.new(n) do
    Ractor.new(main) do |main|
      main.send(:ready)
      while (m = Ractor.receive)
        main.send(Fig9.work(m))
      end
      :done
    end
  end
  n.times { (r = Ractor.receive) == :ready or abort "ractor: a worker said #{r.inspect}" }
  setup = clock.() - t
  t = clock.()
  msgs.each_with_index { |m, i| ws[i % n].send(m) }
  ws.each { |w| w.send(nil) }
  msgs.size.times { tally.(Ractor.receive) }
  work = clock.() - t
  ws.each(&:take)
when "pipe"
  t = clock.()
  eval SETUP
  Fig9.compile(divs, parser)
  mine = [] # the master's ends, closed in every child
  ws = Array.new(n) do
    in_r, in_w = IO.pipe
    out_r, out_w = IO.pipe
    pid = fork do
      mine.each(&:close)
      in_w.close; out_r.close
      out_w.write("R")
      while (hdr = in_r.read(4))
        d = Marshal.dump(Fig9.work(Marshal.load(in_r.read(hdr.unpack1("N")))))
        out_w.write([d.bytesize].pack("N"), d)
      end
      exit!(0)
    end
    in_r.close; out_w.close
    mine << in_w << out_r
    [pid, in_w, out_r]
  end
  ws.each { |_, _, r| r.read(1) == "R" or abort "pipe: a worker did not start" }
  setup = clock.() - t
  parts = Array.new(n) { [] }
  msgs.each_with_index { |m, i| parts[i % n] << m }
  t = clock.()
  writers = ws.each_with_index.map do |(_, w, _), k|
    Thread.new do
      parts[k].each { |m| d = Marshal.dump(m); w.write([d.bytesize].pack("N"), d) }
      w.close
    end
  end
  readers = ws.map do |_, _, r|
    Thread.new do
      c = b = 0
      while (hdr = r.read(4))
        xc, xb = html_size(Marshal.load(r.read(hdr.unpack1("N"))))
        c += xc
        b += xb
      end
      [c, b]
    end
  end
  writers.each(&:join)
  readers.each { |th| c, b = th.value; count += c; bytes += b }
  work = clock.() - t
  ws.each { |pid, *| Process.wait(pid) }
else
  abort "unknown mode #{mode}"
end
abort "#{mode}: #{count} HTML strings for #{lines.size} lines" unless count == lines.size
puts format("BENCH work=%.6f setup=%.6f count=%d bytes=%d msgs=%d", work, setup, count, bytes, msgs.size)
