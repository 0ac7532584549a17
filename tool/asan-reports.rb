# The sanitizers' reports of a make check-asan run, grouped by their kind and
# the function of their first frame in ruby (past the sanitizer's own and the
# libc calls it intercepts); fails (exit 1) if one is not listed in
# the exclusions file as
#
#   asan <kind> <function> -- <reason>
#
# (the kind as the report's SUMMARY line names it: heap-use-after-free,
# misaligned-pointer-use, ...).
#
# UBSan's reports, which gcc's runtime writes to stderr whatever log_path
# says, are found in the suites' logs under LOGS_DIR, by their
# "file:line:col: runtime error:" line; they group by kind "runtime-error"
# and that place.
#
#   ruby tool/asan-reports.rb REPORTS_DIR EXCLUSIONS_FILE [SRC [LOGS_DIR]]
dir, exclusions, src, logs = ARGV
listed = {}
File.foreach(exclusions) do |line|
  next unless line =~ /\Aasan\s+(\S+)\s+(\S+)\s+--\s+(.*)/
  listed[[$1, $2]] = $3.strip
end if exclusions && File.exist?(exclusions)

Report = Struct.new(:kind, :function, :where, :file, :text)
reports = []
Dir.glob(File.join(dir, "*")).sort.each do |path|
  text = File.read(path, mode: "rb").scrub
  # one file can hold several reports (UBSan goes on after each)
  text.split(/^(?==+\n==\d+==ERROR|\S+:\d+:\d+: runtime error:)/).each do |r|
    summary = r[/^SUMMARY: \w+Sanitizer: (.*)$/, 1] or next
    kind = summary.split.first
    # the first frame of ruby's, past the sanitizer's own and the libc calls it intercepts
    frames = r.scan(/^\s+#\d+ 0x\h+ in (\S+)(?: (\S+))?/)
    function, frame_file = frames.find { |f, file| !f.start_with?("__") && !file.to_s.match?(%r{libsanitizer|\A/usr/include/}) } ||
                           frames.first
    function ||= "?"
    where = r[/^(\S+:\d+:\d+): runtime error/, 1] || frame_file || summary.split[1] || "?"
    where = where.sub(%r{\A(?:\.\./)*(?:src[^/]*/|#{Regexp.escape(src.to_s)}/?)}, "") if src
    reports << Report.new(kind, function, where, File.basename(path), r)
  end
end

Dir.glob(File.join(logs, "**/*.log")).sort.each do |path|
  File.foreach(path, mode: "rb") do |line|
    line = line.scrub
    next unless line =~ /(\S+:\d+):\d+: runtime error: (.*)/
    where, what = $1, $2
    where = where.sub(%r{\A(?:\.\./)*(?:src[^/]*/|#{Regexp.escape(src.to_s)}/?)}, "") if src
    reports << Report.new("runtime-error", where, where, File.basename(path), line + "  (#{what})")
  end
end if logs

groups = reports.group_by { [_1.kind, _1.function] }
new = groups.keys.reject { listed.key?(_1) }
puts "sanitizer reports: #{reports.size} in #{Dir.glob(File.join(dir, "*")).size} files, " \
     "#{groups.size} kinds at distinct functions, #{new.size} not listed"
groups.sort_by { |k, rs| [listed.key?(k) ? 1 : 0, -rs.size] }.each do |(kind, function), rs|
  mark = listed.key?([kind, function]) ? "listed" : "NEW"
  puts format("  %-6s %-28s %-36s %5d  %s (%s)", mark, kind, function, rs.size, rs.first.where, rs.first.file)
end
unless new.empty?
  puts
  puts "The first report of each kind not listed:"
  new.each { |k| puts groups[k].first.text.lines.first(40).join, "" }
end
exit(new.empty? ? 0 : 1)
