# Runs configurations of a figure in rounds, the order alternating between
# rounds (fork and vanilla side by side on this noisy machine), each under
# /usr/bin/time -v.  A script reports its figures as "BENCH name=value"
# lines; the peak RSS of the whole process is added as rss_kb.
require "open3"
require_relative "stats"

module Alternating
  module_function

  # configs: [[label, ruby_name, script, env], ...]; rubies: name => path.
  # Returns {[label, ruby_name] => {figure => [samples]}}.
  def run(configs, rubies, runs, args: [])
    samples = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = [] } }
    runs.times do |round|
      (round.even? ? configs : configs.reverse).each do |label, rname, script, env|
        out, err, st = Open3.capture3(env, "/usr/bin/time", "-v", rubies.fetch(rname), script, *args)
        abort "#{label} #{rname} failed:\n#{out}\n#{err}" unless st.success?
        key = [label, rname]
        out.scan(/^BENCH (\w+)=([\d.e+-]+)$/) { samples[key][$1] << Float($2) }
        samples[key]["rss_kb"] << Float(err[/Maximum resident set size \(kbytes\): (\d+)/, 1])
        $stderr.print "."
      end
    end
    $stderr.puts
    samples
  end

  # "median (min..max)"
  def cell(xs)
    xs.empty? ? "" : format("%.4g (%.4g..%.4g)", Stats.median(xs), xs.min, xs.max)
  end
end
